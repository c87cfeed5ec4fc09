// Storefront paths (after the /s/{slug} or /preview/{token} prefix) and the query
// parameters a page reads. Only the parameters that change the page are kept, normalized,
// so they can be part of a cache key without letting arbitrary query strings fill the cache.
import { REFERENCE_ID_PATTERN, SLUG_PATTERN } from '../theme/constants.ts'
import { LISTING_SORTS, type ListingSort } from './catalog.ts'
import type { PageQuery } from './env.ts'

export type Route =
  | { kind: 'home' }
  | { kind: 'products' }
  /** `ref`: a handle (what customers see) or an id (what themes store; answered with a 301 to the handle). */
  | { kind: 'product'; ref: string }
  | { kind: 'collections' }
  | { kind: 'collection'; ref: string }
  | { kind: 'page'; slug: string }
  | { kind: 'blog'; slug: string }
  | { kind: 'checkout' }
  | { kind: 'cart' }
  | { kind: 'newsletter' }
  | { kind: 'not-found' }

/** The slug of the blog post template's sample post: /blog/sample. */
export const SAMPLE_POST_SLUG = 'sample'

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

/** A storefront path ('' or '/...') to a route. Unknown or malformed paths are not-found. */
export function parseRoute(path: string): Route {
  const parts = path.split('/').filter((p) => p !== '')
  const [first, second, ...rest] = parts.map(decode)
  if (parts.length === 0) return { kind: 'home' }
  if (first === null || second === null || rest.length > 0) return { kind: 'not-found' }
  const ref = second !== undefined && REFERENCE_ID_PATTERN.test(second) ? second : null
  switch (first) {
    case 'products':
      if (second === undefined) return { kind: 'products' }
      return ref ? { kind: 'product', ref } : { kind: 'not-found' }
    case 'collections':
      if (second === undefined) return { kind: 'collections' }
      return ref ? { kind: 'collection', ref } : { kind: 'not-found' }
    case 'pages':
      return second !== undefined && SLUG_PATTERN.test(second) ? { kind: 'page', slug: second } : { kind: 'not-found' }
    case 'blog':
      return second !== undefined && SLUG_PATTERN.test(second) ? { kind: 'blog', slug: second } : { kind: 'not-found' }
    case 'checkout':
      return second === undefined ? { kind: 'checkout' } : { kind: 'not-found' }
    // Served by the shop (src/storefront/shop-routes.ts); known here so theme links to it are sound.
    case 'cart':
      return second === undefined ? { kind: 'cart' } : { kind: 'not-found' }
    case 'newsletter':
      return second === undefined ? { kind: 'newsletter' } : { kind: 'not-found' }
    default:
      return { kind: 'not-found' }
  }
}

const MAX_PAGE = 1000
const MAX_PRICE = 100_000_000

function wholeNumber(value: string | null, max: number): number | null {
  if (value === null || !/^\d{1,9}$/.test(value)) return null
  const n = Number(value)
  return n <= max ? n : null
}

/** The query parameters pages use: variant, page, sort, available, min, max (prices in major units). */
export function readQuery(params: URLSearchParams): PageQuery {
  const variant = params.get('variant')
  const sort = params.get('sort')
  return {
    variant: variant !== null && REFERENCE_ID_PATTERN.test(variant) ? variant : null,
    page: Math.max(1, wholeNumber(params.get('page'), MAX_PAGE) ?? 1),
    sort: LISTING_SORTS.includes(sort as ListingSort) ? (sort as ListingSort) : null,
    inStock: params.get('available') === '1',
    minPrice: wholeNumber(params.get('min'), MAX_PRICE),
    maxPrice: wholeNumber(params.get('max'), MAX_PRICE),
  }
}

/** The canonical query of a page: only the listing page number (sorts, filters and variants collapse). */
export function canonicalQuery(route: Route, q: PageQuery): Record<string, number | undefined> {
  if ((route.kind === 'products' || route.kind === 'collection') && q.page > 1) return { page: q.page }
  return {}
}

/** The part of the query that matters for a route, as a stable string (for the cache key). */
export function queryKey(route: Route, q: PageQuery): string {
  if (route.kind === 'product') return q.variant ? `v=${q.variant}` : ''
  if (route.kind === 'products' || route.kind === 'collection') {
    return `p=${q.page}&s=${q.sort ?? ''}&a=${q.inStock ? 1 : 0}&min=${q.minPrice ?? ''}&max=${q.maxPrice ?? ''}`
  }
  return ''
}

/** The storefront path of a route, for the navigation's "current page" mark. */
export function routePath(route: Route): string {
  switch (route.kind) {
    case 'home':
      return '/'
    case 'products':
      return '/products'
    case 'product':
      return `/products/${route.ref}`
    case 'collections':
      return '/collections'
    case 'collection':
      return `/collections/${route.ref}`
    case 'page':
      return `/pages/${route.slug}`
    case 'blog':
      return `/blog/${route.slug}`
    case 'checkout':
      return '/checkout'
    case 'cart':
      return '/cart'
    default:
      return ''
  }
}

export type PageRequest = {
  readonly route: Route
  readonly query: PageQuery /** The route and query part of a page's cache key. */
  readonly pageKey: string
}

// Parsed requests by path and query string: a page served from memory skips the parse. Bounded,
// and long strings are not kept, so odd URLs cannot grow it.
const parsedRequests = new Map<string, PageRequest>()
const PARSED_MAX_ENTRIES = 5000
const PARSED_MAX_KEY = 512

/** A storefront request's route, the query parameters it reads and their cache-key part. */
export function pageRequest(subpath: string, search: string): PageRequest {
  const key = `${subpath}?${search}`
  const known = parsedRequests.get(key)
  if (known !== undefined) return known
  const route = Object.freeze(parseRoute(subpath))
  const query = Object.freeze(readQuery(new URLSearchParams(search)))
  const parsed = Object.freeze({
    route,
    query,
    pageKey: `${route.kind === 'newsletter' ? 'not-found' : routePath(route) || route.kind}|${queryKey(route, query)}`,
  })
  if (key.length <= PARSED_MAX_KEY) {
    if (parsedRequests.size >= PARSED_MAX_ENTRIES) parsedRequests.clear()
    parsedRequests.set(key, parsed)
  }
  return parsed
}
