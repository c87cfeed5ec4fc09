// Helpers for the renderer tests: HTML parsing and inertness checks, a sample document with
// every section type, an in-memory catalog, and REST shortcuts to make themes and previews.
import type { FastifyInstance } from 'fastify'
import { DomUtils, parseDocument } from 'htmlparser2'
import type { Catalog } from '../../src/render/catalog.ts'
import type { Collection, Product, Variant } from '../../src/queries/commerce/schemas.ts'
import { money } from '../../src/queries/commerce/money.ts'
import { dangerousScheme } from '../../src/theme/url.ts'
import { THEME_DOCUMENT_VERSION } from '../../src/theme/constants.ts'
import type { ThemeDocument } from '../../src/theme/document.ts'
import { bearer } from '../support/app.ts'

type Document = ReturnType<typeof parseDocument>
export type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number]

export const parse = (html: string): Document =>
  parseDocument(html, { decodeEntities: true, lowerCaseAttributeNames: true, lowerCaseTags: true })

export const elements = (doc: Document | Element, test: (e: Element) => boolean = () => true): Element[] =>
  DomUtils.findAll(test, 'children' in doc ? (doc.children as never) : [])

export const byTag = (doc: Document | Element, tag: string) => elements(doc, (e) => e.name === tag)
export const textOf = (node: Document | Element): string =>
  DomUtils.textContent(node as never)
    .replace(/\s+/g, ' ')
    .trim()

/** Everything a browser could execute or embed, found by parsing the page. Empty when inert. */
/** A JSON-LD data block: type application/ld+json, no other attribute, its text valid JSON. */
export function isJsonLd(el: Element): boolean {
  if (Object.keys(el.attribs).join() !== 'type' || el.attribs.type !== 'application/ld+json') return false
  try {
    JSON.parse(textOf(el))
    return true
  } catch {
    return false
  }
}

/** The page's JSON-LD blocks, parsed. */
export const jsonLd = (doc: Document): unknown[] =>
  elements(doc, (e) => e.name === 'script' && isJsonLd(e)).map((e) => JSON.parse(DomUtils.textContent(e)))

export function activeContent(html: string): string[] {
  const doc = parse(html)
  const problems: string[] = []
  for (const el of elements(doc)) {
    const tag = el.name
    // Structured data is a JSON data block, which no browser runs (jsonLdElement): that and nothing else.
    if (tag === 'script' && isJsonLd(el)) continue
    if (['script', 'iframe', 'object', 'embed', 'frame', 'frameset', 'applet', 'base', 'portal'].includes(tag))
      problems.push(`<${tag}> element`)
    if (tag === 'meta' && (el.attribs['http-equiv'] ?? '').toLowerCase() === 'refresh') problems.push('meta refresh')
    for (const [name, value] of Object.entries(el.attribs)) {
      if (name.startsWith('on')) problems.push(`event handler ${name} on <${tag}>`)
      if (name === 'style' || name === 'srcdoc') problems.push(`${name} attribute on <${tag}>`)
      if (
        [
          'href',
          'src',
          'action',
          'formaction',
          'poster',
          'data',
          'srcset',
          'background',
          'xlink:href',
          'cite',
        ].includes(name)
      ) {
        const scheme = dangerousScheme(value)
        if (scheme !== null) problems.push(`${scheme}: URL in ${name} of <${tag}>`)
        if (/^\s*(javascript|data|vbscript):/i.test(value)) problems.push(`scheme in ${name} of <${tag}>`)
      }
    }
    if (tag === 'style') {
      const css = textOf(el)
      if (/javascript:|vbscript:|data:|expression\(|@import|url\(/i.test(css)) problems.push('active CSS in <style>')
    }
  }
  // Markup outside the parse tree that a different parser could read as code.
  if (/<!--|<!\[CDATA\[/i.test(html)) problems.push('comment or CDATA in output')
  return problems
}

// --- catalog fixtures for unit tests ----------------------------------------------------

export function fakeProduct(
  id: string,
  title: string,
  priceCents: number,
  options: { status?: Product['status']; stock?: number[]; currency?: string } = {},
): Product {
  const currency = options.currency ?? 'MAD'
  const stock = options.stock ?? [10]
  const variants: Variant[] = stock.map((qty, i) => ({
    id: `var_${id}_${i}`,
    title: stock.length > 1 ? `Size ${i + 1}` : 'Default',
    sku: `SKU-${id}-${i}`,
    price: money(priceCents + i * 1000, currency),
    compareAtPrice: null,
    inventoryQuantity: qty,
    availableForSale: (options.status ?? 'active') === 'active' && qty > 0,
    options: stock.length > 1 ? [{ name: 'Size', value: `${i + 1}` }] : [],
    position: i + 1,
  }))
  const image = { url: `http://storefront.test/media/${id}.png`, alt: title, width: 480, height: 480 }
  const active = (options.status ?? 'active') === 'active'
  return {
    id,
    handle: id,
    title,
    description: `${title}, described.`,
    vendor: 'Test Vendor',
    productType: 'Thing',
    tags: [],
    status: options.status ?? 'active',
    visibleOnStorefront: active,
    availableForSale: active && stock.some((q) => q > 0),
    featuredImage: image,
    images: [image],
    options: stock.length > 1 ? [{ name: 'Size', values: stock.map((_, i) => `${i + 1}`) }] : [],
    variants,
    priceRange: { min: money(priceCents, currency), max: money(priceCents + (stock.length - 1) * 1000, currency) },
    compareAtPriceRange: null,
    inventory: {
      totalQuantity: stock.reduce((a, b) => a + b, 0),
      inStock: stock.some((q) => q > 0),
      variantsInStock: stock.filter((q) => q > 0).length,
      variantsTotal: stock.length,
    },
    collectionIds: [],
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  }
}

export function fakeCollection(id: string, title: string, productIds: string[]): Collection {
  return {
    id,
    handle: id,
    title,
    description: `${title}, described.`,
    image: { url: `http://storefront.test/media/${id}.png`, alt: title, width: 800, height: 800 },
    productIds,
    productCount: productIds.length,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  }
}

/** An in-memory Catalog over fixed products and collections (same contract as the database one). */
export function memoryCatalog(products: Product[], collections: Collection[]): Catalog {
  const byId = new Map(products.map((p) => [p.id, p]))
  const collById = new Map(collections.map((c) => [c.id, c]))
  const active = () => products.filter((p) => p.status === 'active')
  return {
    productsByIds: async (ids) => [...new Set(ids)].flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
    collectionsByIds: async (ids) => [...new Set(ids)].flatMap((id) => (collById.has(id) ? [collById.get(id)!] : [])),
    product: async (id) => byId.get(id) ?? null,
    collection: async (id) => collById.get(id) ?? null,
    newestProductIds: async (limit) =>
      active()
        .slice(0, limit)
        .map((p) => p.id),
    listing: async (args) => {
      const pool =
        args.collectionId === null
          ? active()
          : (collById.get(args.collectionId)?.productIds ?? []).flatMap((id) =>
              byId.get(id)?.status === 'active' ? [byId.get(id)!] : [],
            )
      return { ids: pool.slice(args.offset, args.offset + args.limit).map((p) => p.id), total: pool.length }
    },
    collectionIds: async (limit) => collections.slice(0, limit).map((c) => c.id),
    productOfVariant: async (variantId) => products.find((p) => p.variants.some((v) => v.id === variantId)) ?? null,
    productByHandle: async (handle) => products.find((p) => p.handle === handle) ?? null,
    collectionByHandle: async (handle) => collections.find((c) => c.handle === handle) ?? null,
    handles: async (productIds, collectionIds) => ({
      products: new Map(productIds.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!.handle] as const] : []))),
      collections: new Map(
        collectionIds.flatMap((id) => (collById.has(id) ? [[id, collById.get(id)!.handle] as const] : [])),
      ),
    }),
    // No media library in memory: images render without copies, as external ones do.
    mediaSizes: async () => new Map(),
  }
}

// --- a document with every section type -----------------------------------------------

export type SampleRefs = { products: string[]; collections: string[]; media: string[] }

const img = (refs: SampleRefs, i: number, alt: string) => ({ url: refs.media[i % refs.media.length]!, alt })

/**
 * A valid theme document using all 17 section types: the 14 general ones on the home page,
 * product-details, collection-products and article in their templates, and two pages.
 */
export function sampleDocument(refs: SampleRefs): ThemeDocument {
  const [p0, p1, p2, p3, p4] = refs.products as [string, string, string, string, string]
  const [c0, c1, c2] = refs.collections as [string, string, string]
  return {
    version: THEME_DOCUMENT_VERSION,
    theme: { theme: 'modern', primaryColor: '#2f4858', secondaryColor: '#f6ae2d', font: 'Inter', logo: null },
    navigation: [
      { label: 'Home', href: '/' },
      {
        label: 'Shop',
        href: '/products',
        children: [
          { label: 'All collections', href: '/collections' },
          { label: 'Best sellers', href: `/collections/${c0}` },
        ],
      },
      { label: 'About', href: '/pages/about' },
      { label: 'Journal', href: '/blog/sample' },
    ],
    templates: {
      home: [
        {
          id: 'home-announcement',
          type: 'announcement-bar',
          settings: {
            text: 'Free delivery on orders over 500 MAD · Pay cash on delivery',
            link: '/products',
            colorScheme: 'secondary',
          },
        },
        {
          id: 'home-hero',
          type: 'hero',
          settings: {
            heading: 'Spring on the trail',
            subheading:
              'Light tents, warm layers and camp kitchens for the High Atlas.\nDelivered to your door, paid in cash.',
            image: img(refs, 1, 'Mountain ridges at sunrise'),
            primaryButton: { label: 'Shop the collection', href: `/collections/${c0}` },
            secondaryButton: { label: 'Our story', href: '/pages/about' },
            alignment: 'left',
            height: 'large',
            overlayOpacity: 40,
          },
        },
        {
          id: 'home-picks',
          type: 'product-grid',
          settings: { heading: 'Staff picks', source: 'manual', productIds: [p0, p1, p2], limit: 3, columns: 3 },
        },
        {
          id: 'home-featured',
          type: 'featured-product',
          settings: { productId: p3, heading: 'Product of the month', imagePosition: 'right', showDescription: true },
        },
        {
          id: 'home-collections',
          type: 'collection-list',
          settings: { heading: 'Shop by collection', collectionIds: [c0, c1, c2], columns: 3 },
        },
        {
          id: 'home-story',
          type: 'image-with-text',
          settings: {
            image: img(refs, 2, 'Desert dunes at dusk'),
            heading: 'Tested on Moroccan trails',
            body: '<p>Every product is tried on <strong>real routes</strong> before it joins the shop.</p><ul><li>Free returns</li><li>Two-year warranty</li></ul>',
            button: { label: 'Read more', href: '/pages/about' },
            imagePosition: 'right',
          },
        },
        {
          id: 'home-best',
          type: 'product-grid',
          settings: { heading: 'Best sellers', source: 'collection', collectionId: c0, limit: 4, columns: 4 },
        },
        {
          id: 'home-banner',
          type: 'image-banner',
          settings: {
            image: img(refs, 3, 'Green foothills'),
            heading: 'Made for the long way round',
            text: 'Gear that lasts for years.',
            button: { label: 'Shop now', href: '/products' },
            height: 'medium',
            alignment: 'center',
            overlayOpacity: 35,
          },
        },
        {
          id: 'home-quotes',
          type: 'testimonials',
          settings: { heading: 'What hikers say', columns: 3 },
          blocks: [
            {
              id: 'q1',
              type: 'testimonial',
              settings: {
                quote: 'The tent survived a night of wind on the plateau.',
                author: 'Salma',
                role: 'Marrakech',
              },
            },
            {
              id: 'q2',
              type: 'testimonial',
              settings: {
                quote: 'Paid cash at the door, delivered in two days.',
                author: 'Youssef',
                role: 'Casablanca',
                avatar: img(refs, 0, 'Portrait of Youssef'),
              },
            },
            {
              id: 'q3',
              type: 'testimonial',
              settings: { quote: 'Great advice on the phone before ordering.', author: 'Imane' },
            },
          ],
        },
        {
          id: 'home-faq',
          type: 'faq',
          settings: { heading: 'Questions' },
          blocks: [
            {
              id: 'f1',
              type: 'question',
              settings: {
                question: 'How do I pay?',
                answer: '<p>In cash, to the courier, when your order arrives.</p>',
              },
            },
            {
              id: 'f2',
              type: 'question',
              settings: {
                question: 'How long is delivery?',
                answer: '<p>One to four days. See <a href="/pages/about">our shipping page</a>.</p>',
              },
            },
          ],
        },
        {
          id: 'home-gallery',
          type: 'gallery',
          settings: { heading: 'On the trail', columns: 3, aspectRatio: 'landscape' },
          blocks: [
            { id: 'g1', type: 'image', settings: { image: img(refs, 1, 'Ridge line'), caption: 'Toubkal, May' } },
            {
              id: 'g2',
              type: 'image',
              settings: { image: img(refs, 2, 'Dunes'), caption: 'Merzouga', href: '/products' },
            },
            { id: 'g3', type: 'image', settings: { image: img(refs, 3, 'Foothills') } },
          ],
        },
        {
          id: 'home-logos',
          type: 'logo-list',
          settings: { heading: 'As seen in', grayscale: true },
          blocks: [
            {
              id: 'l1',
              type: 'logo',
              settings: { image: img(refs, 0, 'Trail Magazine'), href: 'https://press.example.com/' },
            },
            { id: 'l2', type: 'logo', settings: { image: img(refs, 0, 'Outdoor Weekly') } },
          ],
        },
        { id: 'home-space', type: 'spacer', settings: { height: 48, showDivider: true } },
        {
          id: 'home-news',
          type: 'newsletter',
          settings: {
            heading: 'Trail notes, once a month',
            text: 'New gear, routes and offers.',
            buttonLabel: 'Sign me up',
          },
        },
        {
          id: 'home-about',
          type: 'rich-text',
          settings: {
            heading: 'About Atlas',
            body: '<p>A small shop in <em>Casablanca</em>. <a href="/pages/about">Meet the team</a>.</p>',
            alignment: 'center',
            width: 'narrow',
          },
        },
        { id: 'home-newest', type: 'product-grid', settings: { heading: 'Just in', source: 'newest', limit: 4 } },
      ],
      product: [
        {
          id: 'product-details',
          type: 'product-details',
          settings: { galleryStyle: 'grid', showShareLinks: true, buttonLabel: 'Order now, pay on delivery' },
        },
        {
          id: 'product-more',
          type: 'product-grid',
          settings: { heading: 'You may also like', source: 'manual', productIds: [p4, p0], limit: 2, columns: 4 },
        },
      ],
      collection: [
        {
          id: 'collection-products',
          type: 'collection-products',
          settings: { columns: 4, productsPerPage: 8, showFilters: true },
        },
      ],
      blogPost: [
        {
          id: 'blog-post-article',
          type: 'article',
          settings: { body: '<p>Thanks for reading. <a href="/products">Shop the gear</a>.</p>' },
        },
      ],
    },
    pages: [
      {
        id: 'about',
        slug: 'about',
        title: 'About us',
        status: 'published',
        layout: [{ id: 'about-text', type: 'rich-text', settings: { body: '<p>Founded by hikers, for hikers.</p>' } }],
      },
      {
        id: 'lookbook',
        slug: 'lookbook',
        title: 'Lookbook (draft)',
        status: 'draft',
        layout: [{ id: 'lookbook-hero', type: 'hero', settings: { heading: 'Lookbook coming soon' } }],
      },
    ],
  }
}

// --- REST shortcuts ---------------------------------------------------------------------

export async function api(
  app: FastifyInstance,
  key: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const res = await app.inject({
    method,
    url,
    headers: bearer(key),
    ...(payload === undefined ? {} : { payload: payload as never }),
  })
  if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  return res.json().data
}

/** Real ids of a store, read over REST: active products, collections, media paths. */
export async function storeRefs(
  app: FastifyInstance,
  key: string,
): Promise<SampleRefs & { productRecords: Product[]; collectionRecords: Collection[] }> {
  const products = ((await api(app, key, 'GET', '/api/v1/products?limit=100&status=active')) as { products: Product[] })
    .products
  const collections = ((await api(app, key, 'GET', '/api/v1/collections?limit=100')) as { collections: Collection[] })
    .collections
  const media = ((await api(app, key, 'GET', '/api/v1/media?limit=100')) as { media: { url: string }[] }).media
  return {
    products: products.map((p) => p.id),
    collections: collections.map((c) => c.id),
    media: media.map((m) => new URL(m.url).pathname),
    productRecords: products,
    collectionRecords: collections,
  }
}

/** Creates a draft and fills it with `doc` through one batch (the same path an agent takes). */
export async function draftWithDocument(
  app: FastifyInstance,
  key: string,
  doc: ThemeDocument,
  name = 'Spring',
): Promise<string> {
  const theme = (await api(app, key, 'POST', '/api/v1/themes', { name, provider: 'claude' })) as {
    id: string
    document: ThemeDocument
  }
  const operations: unknown[] = []
  for (const s of theme.document.templates.home) operations.push({ op: 'deleteSection', sectionId: s.id })
  for (const section of doc.templates.home)
    operations.push({ op: 'createSection', target: { template: 'home' }, section })
  for (const template of ['product', 'collection', 'blogPost'] as const) {
    const required = theme.document.templates[template][0]!
    const replacement = doc.templates[template].find((s) => s.type === required.type)!
    operations.push({ op: 'updateSection', sectionId: required.id, settings: replacement.settings })
    doc.templates[template].forEach((section, index) => {
      if (section.type !== required.type) operations.push({ op: 'createSection', target: { template }, index, section })
    })
  }
  for (const page of doc.pages) operations.push({ op: 'createPage', page })
  operations.push({ op: 'updateTokens', tokens: doc.theme })
  operations.push({ op: 'setNavigation', navigation: doc.navigation })
  await api(app, key, 'POST', `/api/v1/themes/${theme.id}/batch`, { operations })
  return theme.id
}

/** The preview URL of a theme, as a path on the app (/preview/{token}). */
export async function previewPath(
  app: FastifyInstance,
  key: string,
  themeId: string,
): Promise<{ path: string; token: string; expiresAt: string }> {
  const data = (await api(app, key, 'POST', `/api/v1/themes/${themeId}/preview-token`)) as {
    previewUrl: string
    expiresAt: string
  }
  const path = new URL(data.previewUrl).pathname
  return { path, token: path.split('/')[2]!, expiresAt: data.expiresAt }
}

/** A price as a visitor reads it (white space normalized like textOf). */
export const formatPrice = (locale: string, cents: number, currency: string) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100).replace(/\s+/g, ' ')
