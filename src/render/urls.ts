// Every URL that reaches a page goes through here, at render time, whatever validation said
// when the theme was stored: urlProblem (the theme's URL policy) decides, and an unsafe or
// invalid URL is dropped (the caller renders the element without its link or image).
//
// Site-relative storefront links (/products/..., /pages/...) are moved under the page's base
// path, so links stay inside the storefront (/s/{slug}) or inside a preview
// (/preview/{token}); /media/ files are the service's own and keep their path.
import { urlProblem } from '../theme/url.ts'
import { mintSafeUrl, sitePath, type SafeUrl } from '../web/html.ts'

export type Urls = {
  /** A theme link (button, navigation, gallery...): https:// or a storefront path. */
  link(value: unknown): SafeUrl | null
  /** An image source: https:// or a site-relative path (catalog images made site-relative). */
  image(value: unknown): SafeUrl | null
  /** Candidates of a srcset: site paths the renderer builds (media copies) and their widths. */
  srcset(candidates: readonly { path: string; width: number }[]): SafeUrl | null
  /** A storefront path the renderer builds itself, such as /products/<handle>. */
  path(path: string, query?: Record<string, string | number | undefined>): SafeUrl
  /** mailto: and tel: links for the store's contact details. */
  contact(value: unknown): SafeUrl | null
  /** A file the service serves itself (the stylesheet): never moved under the base path. */
  asset(path: string): SafeUrl
  /** The absolute address of a path the renderer builds on this service (canonical links). */
  own(path: string): SafeUrl | null
  /** An absolute link the renderer builds itself (share links). */
  external(value: string): SafeUrl | null
  /** The base path: '' (root), '/s/{slug}' or '/preview/{token}'. */
  readonly basePath: string
  /** How many theme URLs were dropped while rendering (for the log). */
  readonly dropped: string[]
}

const SERVICE_PATHS = /^\/media\//

/** Handles of the products and collections a page links to by id (themes store links by id). */
export type Handles = {
  products: ReadonlyMap<string, string>
  collections: ReadonlyMap<string, string>
}

const RECORD_LINK = /^\/(products|collections)\/([^/?#]+)(.*)$/

/** A theme's /products/<id> or /collections/<id> link as the customer sees it, by handle (id links answer 301). */
function byHandle(path: string, handles: Handles | undefined): string {
  if (handles === undefined) return path
  const m = RECORD_LINK.exec(path)
  if (m === null) return path
  const handle = (m[1] === 'products' ? handles.products : handles.collections).get(m[2]!)
  return handle === undefined ? path : `/${m[1]}/${encodeURIComponent(handle)}${m[3]}`
}

export function createUrls(basePath: string, serviceBaseUrl: string, handles?: Handles): Urls {
  const dropped: string[] = []
  const origin = serviceBaseUrl.replace(/\/+$/, '')
  const checked = (value: string, contact = false): SafeUrl | null => {
    if (urlProblem(value, contact ? { allowContactSchemes: true } : {}) !== null) {
      dropped.push(value.slice(0, 80))
      return null
    }
    return mintSafeUrl(value)
  }
  const prefixed = (value: string): string => {
    if (!value.startsWith('/') || SERVICE_PATHS.test(value)) return value
    if (basePath === '') return value
    return value === '/' ? basePath : `${basePath}${value}`
  }
  return {
    basePath,
    dropped,
    link(value) {
      if (typeof value !== 'string') return null
      const safe = checked(value)
      return safe === null ? null : mintSafeUrl(prefixed(byHandle(safe.value, handles)))
    },
    image(value) {
      if (typeof value !== 'string') return null
      // Catalog images are absolute URLs on this service; the page uses the path, so the
      // browser loads them from the origin it is on (CSP img-src 'self').
      const local = origin !== '' && value.startsWith(`${origin}/`) ? value.slice(origin.length) : value
      return checked(local)
    },
    srcset(candidates) {
      const parts: string[] = []
      for (const { path, width } of candidates) {
        const safe = checked(path)
        if (safe === null || /[\s,]/.test(safe.value)) return null
        parts.push(`${safe.value} ${width}w`)
      }
      return parts.length > 0 ? mintSafeUrl(parts.join(', ')) : null
    },
    path(path, query) {
      const safe = sitePath(path, query)
      // Paths are built from encoded ids; a refusal would be a bug, so fall back to home.
      if (safe === null) dropped.push(path.slice(0, 80))
      return mintSafeUrl(prefixed(safe === null ? '/' : safe.value))
    },
    contact(value) {
      return typeof value === 'string' ? checked(value, true) : null
    },
    asset(path) {
      return checked(path) ?? mintSafeUrl('/')
    },
    own(path) {
      const safe = sitePath(path)
      return safe === null ? null : mintSafeUrl(`${origin}${safe.value}`)
    },
    external(value) {
      return checked(value)
    },
  }
}

/** Encodes one path segment (an id or slug) for a storefront path. */
export const segment = (value: string): string => encodeURIComponent(value)
