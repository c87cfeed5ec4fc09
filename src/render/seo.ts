// What search engines and link previews read from a page's head (issue 35 B 7): the canonical
// URL, Open Graph and Twitter card tags with an image, and schema.org structured data as JSON-LD
// (Organization and WebSite on the home page, Product with its Offers on product pages,
// BreadcrumbList, CollectionPage on listings). Every URL here is absolute and points at the live
// store, never at a preview. Values are the catalog's and the store's own text, escaped by the
// html tag or inside the JSON data block (jsonLdElement).
import type { Collection, Product } from '../queries/commerce/schemas.ts'
import { html, jsonLdElement, type Html, type SafeUrl } from '../web/html.ts'
import type { Listing } from './env.ts'
import type { StoreView } from './store.ts'

export type ShareImage = { url: string; alt: string; width: number | null; height: number | null }

export type SeoSubject =
  | { kind: 'home' }
  | { kind: 'product'; product: Product }
  | { kind: 'listing'; listing: Listing }
  | { kind: 'collections'; collections: readonly Collection[] }
  | { kind: 'page'; title: string }
  | { kind: 'other' }

export type SeoInput = {
  store: StoreView
  /** The live store's absolute address: {base}/s/{slug}. */
  liveUrl: string
  /** The page's canonical path within the store ('' for home, '/products/<handle>', with ?page=N). */
  path: string
  title: string
  description: string
  image: ShareImage | null
  subject: SeoSubject
  /** The canonical link (urls.own); null in previews (they are noindex), everything else the same. */
  canonical: SafeUrl | null
}

const SCHEMA = 'https://schema.org'

/** A description for a search result: one paragraph, at most about 160 characters, cut at a word. */
export function metaDescription(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= 160) return flat
  const cut = flat.slice(0, 157)
  const space = cut.lastIndexOf(' ')
  return `${(space > 100 ? cut.slice(0, space) : cut).replace(/[\s,.;:–-]+$/, '')}…`
}

const availability = (available: boolean) => `${SCHEMA}/${available ? 'InStock' : 'OutOfStock'}`

function breadcrumbs(liveUrl: string, trail: readonly { name: string; path: string }[]): Record<string, unknown> {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((step, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: step.name,
      item: `${liveUrl}${step.path}`,
    })),
  }
}

function organization(input: SeoInput): Record<string, unknown> {
  const { store, liveUrl } = input
  const sameAs = store.socialLinks.map((s) => s.url).filter((u) => u.startsWith('https://'))
  return {
    '@type': 'Organization',
    '@id': `${liveUrl}#organization`,
    name: store.name,
    url: liveUrl,
    ...(store.description ? { description: store.description } : {}),
    ...(input.subject.kind === 'home' && input.image ? { logo: input.image.url } : {}),
    email: store.contactEmail,
    ...(store.contactPhone ? { telephone: store.contactPhone } : {}),
    ...(sameAs.length > 0 ? { sameAs } : {}),
  }
}

function productData(input: SeoInput, product: Product): Record<string, unknown>[] {
  const url = `${input.liveUrl}${input.path}`
  const offers = product.variants.map((v) => ({
    '@type': 'Offer',
    url: product.variants.length > 1 ? `${url}?variant=${encodeURIComponent(v.id)}` : url,
    ...(v.title && v.title !== 'Default' && v.title !== 'Default Title' ? { name: v.title } : {}),
    ...(v.sku ? { sku: v.sku } : {}),
    price: v.price.amount,
    priceCurrency: v.price.currencyCode,
    availability: availability(v.availableForSale),
    itemCondition: `${SCHEMA}/NewCondition`,
    seller: { '@id': `${input.liveUrl}#organization` },
  }))
  return [
    {
      '@type': 'Product',
      '@id': `${url}#product`,
      name: product.title,
      url,
      ...(product.description ? { description: product.description } : {}),
      ...(product.images.length > 0 ? { image: product.images.map((i) => i.url) } : {}),
      ...(product.variants[0]?.sku ? { sku: product.variants[0].sku } : {}),
      ...(product.vendor ? { brand: { '@type': 'Brand', name: product.vendor } } : {}),
      ...(product.productType ? { category: product.productType } : {}),
      offers,
    },
    breadcrumbs(input.liveUrl, [
      { name: 'Home', path: '' },
      { name: 'Products', path: '/products' },
      { name: product.title, path: input.path },
    ]),
  ]
}

function listingData(input: SeoInput, listing: Listing): Record<string, unknown>[] {
  const url = `${input.liveUrl}${input.path}`
  const trail = listing.collection
    ? [
        { name: 'Home', path: '' },
        { name: 'Collections', path: '/collections' },
        { name: listing.title, path: input.path },
      ]
    : [
        { name: 'Home', path: '' },
        { name: listing.title, path: input.path },
      ]
  return [
    {
      '@type': 'CollectionPage',
      name: listing.title,
      url,
      ...(listing.description ? { description: listing.description } : {}),
      isPartOf: { '@id': `${input.liveUrl}#website` },
      mainEntity: {
        '@type': 'ItemList',
        numberOfItems: listing.total,
        itemListElement: listing.products.map((p, i) => ({
          '@type': 'ListItem',
          position: (listing.page - 1) * listing.perPage + i + 1,
          url: `${input.liveUrl}/products/${encodeURIComponent(p.handle)}`,
          name: p.title,
        })),
      },
    },
    breadcrumbs(input.liveUrl, trail),
  ]
}

/** The page's structured data (one JSON-LD block with a @graph), or null when it has none. */
export function structuredData(input: SeoInput): Record<string, unknown> | null {
  const { subject, liveUrl, store } = input
  let graph: Record<string, unknown>[]
  switch (subject.kind) {
    case 'home':
      graph = [
        organization(input),
        {
          '@type': 'WebSite',
          '@id': `${liveUrl}#website`,
          name: store.name,
          url: liveUrl,
          ...(store.tagline || store.description ? { description: store.tagline || store.description } : {}),
          publisher: { '@id': `${liveUrl}#organization` },
          inLanguage: store.locale,
        },
      ]
      break
    case 'product':
      graph = productData(input, subject.product)
      break
    case 'listing':
      graph = listingData(input, subject.listing)
      break
    case 'collections':
      graph = [
        {
          '@type': 'CollectionPage',
          name: 'Collections',
          url: `${liveUrl}${input.path}`,
          mainEntity: {
            '@type': 'ItemList',
            numberOfItems: subject.collections.length,
            itemListElement: subject.collections.map((c, i) => ({
              '@type': 'ListItem',
              position: i + 1,
              url: `${liveUrl}/collections/${encodeURIComponent(c.handle)}`,
              name: c.title,
            })),
          },
        },
        breadcrumbs(liveUrl, [
          { name: 'Home', path: '' },
          { name: 'Collections', path: input.path },
        ]),
      ]
      break
    case 'page':
      graph = [
        breadcrumbs(liveUrl, [
          { name: 'Home', path: '' },
          { name: subject.title, path: input.path },
        ]),
      ]
      break
    default:
      return null
  }
  return { '@context': SCHEMA, '@graph': graph }
}

/** Canonical link, Open Graph, Twitter card and JSON-LD for the document head. */
export function seoHead(input: SeoInput): Html {
  const url = `${input.liveUrl}${input.path}`
  const image = input.image
  const data = structuredData(input)
  const type = input.subject.kind === 'product' ? 'product' : 'website'
  return html`${input.canonical ? html`<link rel="canonical" href="${input.canonical}">` : null}
<meta property="og:site_name" content="${input.store.name}">
<meta property="og:type" content="${type}">
<meta property="og:title" content="${input.title}">
<meta property="og:description" content="${input.description}">
<meta property="og:url" content="${url}">
<meta property="og:locale" content="${input.store.locale.replace('-', '_')}">
${
  image
    ? html`<meta property="og:image" content="${image.url}">
${image.width && image.height ? html`<meta property="og:image:width" content="${image.width}"><meta property="og:image:height" content="${image.height}">` : null}
${image.alt ? html`<meta property="og:image:alt" content="${image.alt}">` : null}`
    : null
}
${
  input.subject.kind === 'product' && input.subject.product.priceRange
    ? html`<meta property="product:price:amount" content="${input.subject.product.priceRange.min.amount}"><meta property="product:price:currency" content="${input.subject.product.priceRange.min.currencyCode}">`
    : null
}
<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${input.title}">
<meta name="twitter:description" content="${input.description}">
${image ? html`<meta name="twitter:image" content="${image.url}">${image.alt ? html`<meta name="twitter:image:alt" content="${image.alt}">` : null}` : null}
${data ? jsonLdElement(data) : null}`
}
