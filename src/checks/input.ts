// What the rules read: plain data, gathered by checker.ts (the document, the catalogue facts for
// what the document references, the storefront's rendering of each template and page, and the
// decoded images). The rules themselves are pure functions of this.
import type { ThemeDocument } from '../theme/document.ts'
import type { El } from './html.ts'
import type { ImageGrid } from './image-grid.ts'

/** Where a finding is: a template, a custom page, or the frame every page shares. */
export type Place = 'home' | 'product' | 'collection' | 'blogPost' | `page:${string}` | 'theme'

export type ProductFact = {
  id: string
  handle: string
  title: string
  status: 'active' | 'draft' | 'archived'
  /** Active and shown on the storefront. */
  visible: boolean
  imagesWithoutAlt: number
}

export type CollectionFact = { id: string; handle: string; title: string; visibleProducts: number }

/** The catalogue records the document names (by id, or by handle in links), and store-wide counts. */
export type CatalogueFacts = {
  products: ReadonlyMap<string, ProductFact>
  productsByHandle: ReadonlyMap<string, ProductFact>
  collections: ReadonlyMap<string, CollectionFact>
  collectionsByHandle: ReadonlyMap<string, CollectionFact>
  /** Products on sale in the whole store (a "newest" grid shows these). */
  visibleProducts: number
}

/** What a phone downloads for one page (page-weight rule). */
export type PageWeight = {
  /** The HTML as sent (gzip, as the storefront sends it to browsers that accept it). */
  htmlBytes: number
  /** Stylesheets and other assets the page links, as sent. */
  assetBytes: number
  imageBytes: number
  images: number
  /** Image URLs whose size is unknown (other hosts): not counted. */
  unknownImages: string[]
  /** The largest images, largest first (at most three). */
  heaviest: { url: string; bytes: number }[]
}

/** One template or page as the storefront renders it (null: it could not be rendered, e.g. no product yet). */
export type RenderedPage = {
  place: Exclude<Place, 'theme'>
  /** What it was rendered with, for messages ("the product page of <title>"). */
  subject: string | null
  /** The page's HTML, parsed (html.ts). */
  root: El
  weight: PageWeight
}

export type CheckInput = {
  document: ThemeDocument
  catalogue: CatalogueFacts
  rendered: readonly RenderedPage[]
  /** Decoded images by the URL the page uses; null when the image cannot be read (another host). */
  images: ReadonlyMap<string, ImageGrid | null>
}
