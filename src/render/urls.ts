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
  /** A storefront path the renderer builds itself, such as /products/<id>. */
  path(path: string, query?: Record<string, string | number | undefined>): SafeUrl
  /** mailto: and tel: links for the store's contact details. */
  contact(value: unknown): SafeUrl | null
  /** A file the service serves itself (the stylesheet): never moved under the base path. */
  asset(path: string): SafeUrl
  /** An absolute link the renderer builds itself (share links). */
  external(value: string): SafeUrl | null
  /** The base path: '' (root), '/s/{slug}' or '/preview/{token}'. */
  readonly basePath: string
  /** How many theme URLs were dropped while rendering (for the log). */
  readonly dropped: string[]
}

const SERVICE_PATHS = /^\/media\//

export function createUrls(basePath: string, serviceBaseUrl: string): Urls {
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
      return safe === null ? null : mintSafeUrl(prefixed(safe.value))
    },
    image(value) {
      if (typeof value !== 'string') return null
      // Catalog images are absolute URLs on this service; the page uses the path, so the
      // browser loads them from the origin it is on (CSP img-src 'self').
      const local = origin !== '' && value.startsWith(`${origin}/`) ? value.slice(origin.length) : value
      return checked(local)
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
    external(value) {
      return checked(value)
    },
  }
}

/** Encodes one path segment (an id or slug) for a storefront path. */
export const segment = (value: string): string => encodeURIComponent(value)
