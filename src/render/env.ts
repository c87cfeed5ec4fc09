// What a section renderer gets: the store, the catalog data loaded for the page, URL
// handling for this page's base path, the page's style collector and the reporter that
// records references the catalog no longer has.
import type { Collection, Money, Product } from '../queries/commerce/schemas.ts'
import { REFERENCE_ID_PATTERN } from '../theme/constants.ts'
import type { ListingSort } from './catalog.ts'
import { html, type Html } from '../web/html.ts'
import type { MediaSize } from '../queries/media-derivatives.ts'
import type { PageStyles } from './styles.ts'
import type { StoreView } from './store.ts'
import { formatMoney } from './store.ts'
import type { Urls } from './urls.ts'

export type Mode = 'live' | 'preview'

export type PageQuery = {
  variant: string | null
  page: number
  sort: ListingSort | null
  inStock: boolean
  minPrice: number | null
  maxPrice: number | null
}

export type Listing = {
  /** Null for the all-products listing. */
  collection: Collection | null
  title: string
  description: string
  products: Product[]
  total: number
  page: number
  pageCount: number
  perPage: number
  sort: ListingSort
  basePath: string
}

export type PageData = {
  products: Map<string, Product>
  collections: Map<string, Collection>
  newest: string[]
  /** The product of a product page. */
  product: Product | null
  /** The listing of a collection page or of /products. */
  listing: Listing | null
  /** Every collection (the /collections page). */
  allCollections: string[]
}

export type Reporter = {
  /** A referenced product or collection that the catalog no longer has. */
  missing(kind: 'product' | 'collection', id: string, sectionId: string): void
  /** A referenced product that exists but is not sold on the storefront (draft, archived). */
  hidden(id: string, sectionId: string): void
  readonly missingRefs: ReadonlySet<string>
  readonly notes: string[]
}

export function createReporter(): Reporter {
  const missingRefs = new Set<string>()
  const notes: string[] = []
  return {
    missingRefs,
    notes,
    missing(kind, rawId, sectionId) {
      // Ids end up in a response header and a log line: only well-formed ones are quoted.
      const id = REFERENCE_ID_PATTERN.test(rawId) ? rawId : '(malformed id)'
      const ref = `${kind}:${id}`
      if (!missingRefs.has(ref)) notes.push(`${kind} ${id} (section ${sectionId}) no longer exists and is not shown`)
      missingRefs.add(ref)
    },
    hidden(rawId, sectionId) {
      const id = REFERENCE_ID_PATTERN.test(rawId) ? rawId : '(malformed id)'
      notes.push(`product ${id} (section ${sectionId}) is not active in the catalog and is not shown`)
    },
  }
}

export type Env = {
  store: StoreView
  urls: Urls
  styles: PageStyles
  mode: Mode
  data: PageData
  report: Reporter
  query: PageQuery
  now: Date
  /** Absolute address of the live storefront (share links point there, never at a preview). */
  liveUrl: string
  /** Unique ids for elements (labels, variant pickers) within the page. */
  nextId(prefix: string): string
  /** Type and pixel size of the media-library originals the page shows, by content hash. */
  media: ReadonlyMap<string, MediaSize>
  /** The page's lead image: taken by the first image asked to load eagerly, preloaded from the head. */
  lead: { taken: boolean; preload: Html | null }
}

export const money = (env: Env, value: Money): string => formatMoney(env.store.locale, value)

export type HeadingLevel = 1 | 2 | 3

/** A heading of the given level (tag names cannot be interpolated, by design). */
export function heading(level: HeadingLevel, content: Html | string, className = ''): Html {
  if (className === '') {
    if (level === 1) return html`<h1>${content}</h1>`
    if (level === 2) return html`<h2>${content}</h2>`
    return html`<h3>${content}</h3>`
  }
  if (level === 1) return html`<h1 class="${className}">${content}</h1>`
  if (level === 2) return html`<h2 class="${className}">${content}</h2>`
  return html`<h3 class="${className}">${content}</h3>`
}
