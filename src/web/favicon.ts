import { createHash } from 'node:crypto'

// The service's icon, on every page it serves (storefront, previews, dashboard, editor), so
// browsers do not ask for /favicon.ico. The storefront room serves it under its content hash.

/** A neutral shopping-bag icon. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#16181d"/><path d="M9 12h14l-1.2 12.5a1.5 1.5 0 0 1-1.5 1.5H11.7a1.5 1.5 0 0 1-1.5-1.5z" fill="#fff"/><path d="M12.5 12V10a3.5 3.5 0 0 1 7 0v2" fill="none" stroke="#fff" stroke-width="2"/></svg>'
export const FAVICON_PATH = `/storefront-assets/favicon.${createHash('sha256').update(FAVICON_SVG).digest('hex').slice(0, 12)}.svg`
