// The renderer: a theme document plus the store's catalog to a complete HTML page. The same
// function serves the live storefront and previews; only the base path of links and the
// preview banner differ. Pure apart from the catalog reads: no clock (now is an input), no
// global state, so what a test renders is what a visitor gets.
import type { Collection, Product } from '../queries/commerce/schemas.ts'
import { SECTION_DEFAULTS } from '../theme/section-defaults.ts'
import type { Catalog, ListingSort } from './catalog.ts'
import { arr, int, readDocument, text, type DocumentView, type SectionView } from './document.ts'
import { createReporter, type Env, type Listing, type Mode, type PageData, type PageQuery } from './env.ts'
import { html, joinHtml, type Html } from '../web/html.ts'
import { documentShell, previewBanner, siteFooter, siteHeader, type PreviewInfo } from './layout.ts'
import { mediaHash } from '../images/variants.ts'
import { leadPreload } from './images.ts'
import { canonicalQuery, routePath, SAMPLE_POST_SLUG, type Route } from './routes.ts'
import { metaDescription, seoHead, type SeoSubject, type ShareImage } from './seo.ts'
import { allCollectionsSection, announcementBar, canLeadPage, renderSection, type BlogPost } from './sections.ts'
import type { StoreView } from './store.ts'
import { inlineStyle, PageStyles } from './styles.ts'
import { createUrls, type Handles } from './urls.ts'

export type RenderRequest = {
  store: StoreView
  /** The stored theme document; read defensively, whatever its shape. */
  document: unknown
  catalog: Catalog
  route: Route
  query: PageQuery
  mode: Mode
  /** '' (tests), '/s/{slug}' or '/preview/{token}'. */
  basePath: string
  /** The service's public base URL (catalog image URLs on it become site-relative). */
  serviceBaseUrl: string
  preview?: PreviewInfo | undefined
  now: Date
}

export type RenderedPage = {
  status: 200 | 301 | 404
  /** 301: the store path the page lives at now (a product or collection by handle); the caller adds the base path and query. */
  redirect?: string
  html: string
  /** CSP source for the page's one inline <style> ('sha256-...'). */
  styleHash: string
  /** References the catalog no longer has, as kind:id. */
  missingRefs: string[]
  /** Notes for the theme author (missing or inactive references, unknown section types, dropped URLs). */
  notes: string[]
}

const MAX_COLLECTION_PRODUCTS = 200

type Plan = { productIds: Set<string>; collectionIds: Set<string>; newest: number; collectionGrids: Set<string> }

// `onProductPage`: the page's own product is left out of its grids, so a newest grid reads one more.
function planFor(sections: readonly SectionView[], onProductPage: boolean): Plan {
  const plan: Plan = { productIds: new Set(), collectionIds: new Set(), newest: 0, collectionGrids: new Set() }
  for (const section of sections) {
    const s = section.settings
    if (section.type === 'featured-product' && typeof s.productId === 'string') plan.productIds.add(s.productId)
    if (section.type === 'collection-list')
      for (const id of arr(s.collectionIds)) if (typeof id === 'string') plan.collectionIds.add(id)
    if (section.type === 'product-grid') {
      const limit = int(s.limit, 1, 48, SECTION_DEFAULTS.productGrid.limit)
      if (s.source === 'manual') {
        for (const id of arr(s.productIds)) if (typeof id === 'string') plan.productIds.add(id)
      } else if (s.source === 'collection') {
        if (typeof s.collectionId === 'string') {
          plan.collectionIds.add(s.collectionId)
          plan.collectionGrids.add(s.collectionId)
        }
      } else {
        plan.newest = Math.max(plan.newest, onProductPage ? limit + 1 : limit)
      }
    }
  }
  return plan
}

async function loadData(plan: Plan, catalog: Catalog, base: Partial<PageData>): Promise<PageData> {
  const ids = [...plan.productIds].slice(0, 500)
  const [products, collections, newest] = await Promise.all([
    ids.length > 0 ? catalog.productsByIds(ids) : Promise.resolve([]),
    plan.collectionIds.size > 0 ? catalog.collectionsByIds([...plan.collectionIds].slice(0, 200)) : Promise.resolve([]),
    plan.newest > 0 ? catalog.newestProductIds(plan.newest) : Promise.resolve([]),
  ])
  const productMap = new Map<string, Product>(products.map((p) => [p.id, p]))
  const collectionMap = new Map<string, Collection>(collections.map((c) => [c.id, c]))
  // Second round: the products of collection-sourced grids and of the newest list.
  const more = new Set<string>(newest)
  for (const id of plan.collectionGrids)
    for (const pid of (collectionMap.get(id)?.productIds ?? []).slice(0, MAX_COLLECTION_PRODUCTS)) more.add(pid)
  for (const id of productMap.keys()) more.delete(id)
  if (more.size > 0) for (const p of await catalog.productsByIds([...more])) productMap.set(p.id, p)
  return {
    products: productMap,
    collections: collectionMap,
    newest,
    product: base.product ?? null,
    listing: base.listing ?? null,
    allCollections: base.allCollections ?? [],
  }
}

/** Makes sure a template has the section it is built around (a corrupted document may not). */
function withRequired(layout: readonly SectionView[], type: SectionView['type'], fallback: SectionView): SectionView[] {
  return layout.some((s) => s.type === type) ? [...layout] : [fallback, ...layout]
}

const FALLBACK = {
  product: { id: 'fallback-product-details', type: 'product-details', settings: {}, blocks: [] } as SectionView,
  collection: {
    id: 'fallback-collection-products',
    type: 'collection-products',
    settings: {},
    blocks: [],
  } as SectionView,
  article: { id: 'fallback-article', type: 'article', settings: {}, blocks: [] } as SectionView,
}

function samplePost(store: StoreView, cover: Product | null): BlogPost {
  return {
    title: `Notes from ${store.name}`,
    author: `The ${store.name} team`,
    date: new Date('2025-01-15T00:00:00Z'),
    cover: cover?.featuredImage ?? null,
    paragraphs: [
      store.description,
      'Every order is packed by hand and delivered to your door. You pay in cash when it arrives, so there is nothing to pay online and nothing to worry about.',
      'Have a question about a product, sizes or delivery times? Write to us and a member of the team will answer within a day.',
    ],
    sample: true,
  }
}

async function listingFor(
  catalog: Catalog,
  collection: Collection | null,
  layout: readonly SectionView[],
  query: PageQuery,
): Promise<Listing> {
  const section = layout.find((s) => s.type === 'collection-products')
  const perPage = int(section?.settings.productsPerPage, 4, 48, SECTION_DEFAULTS.collectionProducts.productsPerPage)
  const sort: ListingSort = query.sort ?? 'featured'
  const fetchPage = (page: number) =>
    catalog.listing({
      collectionId: collection?.id ?? null,
      sort,
      inStockOnly: query.inStock,
      minCents: query.minPrice === null ? null : query.minPrice * 100,
      maxCents: query.maxPrice === null ? null : query.maxPrice * 100 + 99,
      offset: (page - 1) * perPage,
      limit: perPage,
    })
  let page = query.page
  let result = await fetchPage(page)
  const pageCount = Math.max(1, Math.ceil(result.total / perPage))
  if (page > pageCount) {
    page = pageCount
    result = await fetchPage(page)
  }
  return {
    collection,
    title: collection?.title ?? 'All products',
    description: collection?.description ?? '',
    products: (await catalog.productsByIds(result.ids)).filter((p) => p.visibleOnStorefront),
    total: result.total,
    page,
    pageCount,
    perPage,
    sort,
    basePath: collection ? `/collections/${encodeURIComponent(collection.handle)}` : '/products',
  }
}

type Resolved = {
  status: 200 | 301 | 404
  redirect?: string
  /** What search engines and link previews are told about the page. */
  subject: SeoSubject
  /** The canonical store path (without query); null: not indexable (404, sample content). */
  canonicalPath: string | null
  title: string
  description: string
  layout: SectionView[]
  base: Partial<PageData>
  /** A heading for the page when no section provides the h1. */
  pageHeading: { text: string; visible: boolean }
  /** Whether the page's own sections may be a page's lead (home, custom pages). */
  leadFromFirst: boolean
  leadType: SectionView['type'] | null
  extra: 'collections' | 'not-found' | null
  post: BlogPost | null
}

const ID_SHAPED = /_/

/** A record by its handle; failing that, by its id when the reference looks like one (handles have no _). */
async function byHandleOrId<T>(
  ref: string,
  byHandle: (handle: string) => Promise<T | null>,
  byId: (id: string) => Promise<T | null>,
): Promise<T | null> {
  return (await byHandle(ref)) ?? (ID_SHAPED.test(ref) ? await byId(ref) : null)
}

async function resolve(req: RenderRequest, doc: DocumentView): Promise<Resolved> {
  const { store, catalog, route, query } = req
  const notFound: Resolved = {
    status: 404,
    title: `Page not found – ${store.name}`,
    description: store.description,
    layout: [],
    base: {},
    pageHeading: { text: 'Page not found', visible: false },
    leadFromFirst: false,
    leadType: null,
    extra: 'not-found',
    post: null,
    subject: { kind: 'other' },
    canonicalPath: null,
  }
  const moved = (path: string): Resolved => ({ ...notFound, status: 301, redirect: path })
  const plain = { status: 200 as const, base: {}, leadFromFirst: false, extra: null, post: null }
  switch (route.kind) {
    case 'home':
      return {
        ...plain,
        title: store.name,
        description: store.tagline || store.description,
        subject: { kind: 'home' },
        canonicalPath: '',
        layout: doc.templates.home,
        pageHeading: { text: store.name, visible: false },
        leadFromFirst: true,
        leadType: null,
      }
    case 'product': {
      const product = await byHandleOrId(route.ref, catalog.productByHandle, catalog.product)
      if (product === null || !product.visibleOnStorefront) return notFound
      const path = `/products/${encodeURIComponent(product.handle)}`
      if (product.handle !== route.ref) return moved(path)
      return {
        ...plain,
        title: `${product.title} – ${store.name}`,
        description: product.description,
        subject: { kind: 'product', product },
        canonicalPath: path,
        layout: withRequired(doc.templates.product, 'product-details', FALLBACK.product),
        base: { product },
        pageHeading: { text: product.title, visible: false },
        leadType: 'product-details',
      }
    }
    case 'products':
    case 'collection': {
      const collection =
        route.kind === 'collection'
          ? await byHandleOrId(route.ref, catalog.collectionByHandle, catalog.collection)
          : null
      if (route.kind === 'collection' && collection === null) return notFound
      if (collection !== null && route.kind === 'collection' && collection.handle !== route.ref)
        return moved(`/collections/${encodeURIComponent(collection.handle)}`)
      const layout = withRequired(doc.templates.collection, 'collection-products', FALLBACK.collection)
      const listing = await listingFor(catalog, collection, layout, query)
      return {
        ...plain,
        subject: { kind: 'listing', listing },
        canonicalPath: listing.basePath,
        title: `${listing.title}${listing.page > 1 ? ` (page ${listing.page})` : ''} – ${store.name}`,
        description: listing.description || store.description,
        layout,
        base: { listing },
        pageHeading: { text: listing.title, visible: false },
        leadType: 'collection-products',
      }
    }
    case 'collections': {
      const ids = await catalog.collectionIds(100)
      return {
        ...plain,
        title: `Collections – ${store.name}`,
        description: store.description,
        subject: { kind: 'other' },
        canonicalPath: '/collections',
        layout: [],
        base: { allCollections: ids },
        pageHeading: { text: 'Collections', visible: true },
        leadType: null,
        extra: 'collections',
      }
    }
    case 'page': {
      const page = doc.pages.find((p) => p.slug === route.slug && (p.status === 'published' || req.mode === 'preview'))
      if (page === undefined) return notFound
      return {
        ...plain,
        title: `${page.title} – ${store.name}`,
        description: store.description,
        subject: { kind: 'page', title: page.title },
        canonicalPath: `/pages/${encodeURIComponent(page.slug)}`,
        layout: page.layout,
        pageHeading: { text: page.title, visible: true },
        leadFromFirst: true,
        leadType: null,
      }
    }
    case 'blog': {
      if (route.slug !== SAMPLE_POST_SLUG) return notFound
      const [newest] = await catalog.newestProductIds(1)
      const [cover] = newest ? await catalog.productsByIds([newest]) : []
      const post = samplePost(store, cover ?? null)
      return {
        ...plain,
        title: `${post.title} – ${store.name}`,
        description: store.description,
        // A sample of the template, not content: shown, never indexed.
        subject: { kind: 'other' },
        canonicalPath: null,
        layout: withRequired(doc.templates.blogPost, 'article', FALLBACK.article),
        pageHeading: { text: post.title, visible: false },
        leadType: 'article',
        post,
      }
    }
    default:
      return notFound
  }
}

const RECORD_LINK = /^\/(products|collections)\/([A-Za-z0-9_-]{1,64})(?:[?#].*)?$/

/** Every string of a value (section settings, blocks), depth-first, bounded. */
function strings(value: unknown, out: string[], depth = 0): void {
  if (depth > 6 || out.length > 2000) return
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const v of value) strings(v, out, depth + 1)
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out, depth + 1)
}

/** Products and collections the page's theme links to by path (/products/<id>): their handles are read. */
function linkedRecords(doc: DocumentView, store: StoreView, layout: readonly SectionView[]) {
  const found: string[] = []
  strings([layout.map((s) => [s.settings, s.blocks.map((b) => b.settings)]), doc.navigation, store.footerMenu], found)
  const products = new Set<string>()
  const collections = new Set<string>()
  for (const value of found) {
    const m = RECORD_LINK.exec(value)
    if (m) (m[1] === 'products' ? products : collections).add(m[2]!)
  }
  return { products: [...products].slice(0, 200), collections: [...collections].slice(0, 200) }
}

const sitePathOf = (url: string, origin: string) =>
  origin !== '' && url.startsWith(`${origin}/`) ? url.slice(origin.length) : url

/** Content hashes of the media-library images the page may show (theme images, logo, catalog images). */
function mediaHashes(
  doc: DocumentView,
  layout: readonly SectionView[],
  data: PageData,
  origin: string,
  cover: string | undefined,
): string[] {
  const found: string[] = cover === undefined ? [] : [cover]
  strings([layout.map((s) => [s.settings, s.blocks.map((b) => b.settings)]), doc.tokens.logo], found)
  const products = [
    ...data.products.values(),
    ...(data.product ? [data.product] : []),
    ...(data.listing?.products ?? []),
  ]
  for (const p of products) for (const image of p.images) found.push(image.url)
  for (const c of data.collections.values()) if (c.image) found.push(c.image.url)
  const hashes = new Set<string>()
  for (const value of found) {
    const sha = mediaHash(sitePathOf(value, origin))
    if (sha !== null) hashes.add(sha)
  }
  return [...hashes]
}

/** The canonical path with the query that makes a different page (a listing's page number). */
function sitePathWithQuery(path: string, route: Route, query: PageQuery): string {
  const q = canonicalQuery(route, query)
  return q.page === undefined ? path : `${path}?page=${q.page}`
}

/** The image link previews show: the product's, the collection's, else the page's first theme image, else the logo. */
function shareImage(
  subject: SeoSubject,
  doc: DocumentView,
  layout: readonly SectionView[],
  data: PageData,
  env: Env,
  origin: string,
): ShareImage | null {
  const catalog = (image: { url: string; alt: string; width: number | null; height: number | null } | null) =>
    image ? { url: image.url, alt: image.alt, width: image.width, height: image.height } : null
  if (subject.kind === 'product') return catalog(subject.product.featuredImage)
  if (subject.kind === 'listing')
    return catalog(subject.listing.collection?.image ?? subject.listing.products[0]?.featuredImage ?? null)
  if (subject.kind === 'collections') return catalog(subject.collections.find((c) => c.image)?.image ?? null)
  const themed: { url: unknown; alt: unknown }[] = []
  for (const section of layout) {
    const image = section.settings.image as { url?: unknown; alt?: unknown } | undefined
    if (image && typeof image === 'object') themed.push({ url: image.url, alt: image.alt })
  }
  themed.push({ url: doc.tokens.logo, alt: env.store.name })
  for (const candidate of themed) {
    const safe = env.urls.image(candidate.url)
    if (safe === null) continue
    const path = safe.value
    const sha = mediaHash(path)
    const size = sha ? env.media.get(sha) : undefined
    return {
      url: path.startsWith('/') ? `${origin}${path}` : path,
      alt: typeof candidate.alt === 'string' ? candidate.alt : '',
      width: size?.width ?? null,
      height: size?.height ?? null,
    }
  }
  const newest = data.newest.map((id) => data.products.get(id)).find((p) => p?.featuredImage)
  return catalog(newest?.featuredImage ?? null)
}

/** Renders one storefront page. Never throws on document data; catalog errors propagate. */
export async function renderStorefrontPage(req: RenderRequest): Promise<RenderedPage> {
  const doc = readDocument(req.document)
  const resolved = await resolve(req, doc)
  if (resolved.status === 301 && resolved.redirect !== undefined) {
    return { status: 301, redirect: resolved.redirect, html: '', styleHash: '', missingRefs: [], notes: [] }
  }
  const layout = resolved.layout
  const data = await loadData(planFor(layout, Boolean(resolved.base.product)), req.catalog, resolved.base)
  if (resolved.extra === 'collections' && data.allCollections.length > 0) {
    for (const c of await req.catalog.collectionsByIds(data.allCollections)) data.collections.set(c.id, c)
  }
  const origin = req.serviceBaseUrl.replace(/\/+$/, '')
  const links = linkedRecords(doc, req.store, layout)
  const [handles, media] = await Promise.all([
    links.products.length + links.collections.length > 0
      ? req.catalog.handles(links.products, links.collections)
      : Promise.resolve<Handles>({ products: new Map(), collections: new Map() }),
    req.catalog.mediaSizes(mediaHashes(doc, layout, data, origin, resolved.post?.cover?.url)),
  ])
  const urls = createUrls(req.basePath, req.serviceBaseUrl, handles)
  const styles = new PageStyles()
  const report = createReporter()
  let counter = 0
  const env: Env = {
    store: req.store,
    urls,
    styles,
    mode: req.mode,
    data,
    report,
    query: req.query,
    now: req.now,
    liveUrl: `${origin}/s/${encodeURIComponent(req.store.slug)}`,
    nextId: (prefix) => `${prefix}${++counter}`,
    media,
    lead: { taken: false, preload: null },
  }

  // Announcement bars at the very top of a layout sit above the header, like a shop's top bar.
  let start = 0
  const topBars: Html[] = []
  while (start < layout.length && layout[start]?.type === 'announcement-bar') {
    const section = layout[start]!
    const bar = announcementBar(section.settings, env)
    if (bar)
      topBars.push(
        html`<div class="sf-section" data-section-type="${section.type}" data-section-id="${section.id}">${bar}</div>`,
      )
    start++
  }
  const body = layout.slice(start)

  // One h1 per page: the template's own section (product, collection, article), else a
  // leading hero or banner with a heading, else the page title (hidden on home).
  const content = body.filter((s) => s.type !== 'spacer' && s.type !== 'announcement-bar')
  let leadIndex = -1
  if (resolved.leadType !== null) leadIndex = body.findIndex((s) => s.type === resolved.leadType)
  else if (resolved.leadFromFirst && content[0] && canLeadPage(content[0]) && content[0].type !== 'newsletter')
    leadIndex = body.indexOf(content[0])
  const sections: Html[] = []
  body.forEach((section, i) => {
    const rendered = renderSection(
      section,
      env,
      { level: i === leadIndex ? 1 : 2, first: i === 0 },
      { post: resolved.post },
    )
    if (rendered)
      sections.push(
        html`<div class="sf-section" data-section-type="${section.type}" data-section-id="${section.id}">${rendered}</div>`,
      )
  })
  let mainContent: Html
  const ownHeading =
    leadIndex === -1
      ? resolved.pageHeading.visible
        ? html`<div class="container page-title"><h1>${resolved.pageHeading.text}</h1></div>`
        : html`<h1 class="visually-hidden">${resolved.pageHeading.text}</h1>`
      : null
  if (resolved.extra === 'not-found') {
    mainContent = html`<section class="not-found"><div class="container narrow">
<p class="code" aria-hidden="true">404</p>
<h1>Page not found</h1>
<p>The page you are looking for does not exist or is no longer available.</p>
<div class="buttons"><a class="btn" href="${urls.path('/products')}">Continue shopping</a><a class="btn btn-outline" href="${urls.path('/')}">Back to the home page</a></div>
</div></section>`
  } else if (resolved.extra === 'collections') {
    const collections = data.allCollections.flatMap((id) => {
      const c = data.collections.get(id)
      return c ? [c] : []
    })
    mainContent = html`${ownHeading}${collections.length > 0 ? allCollectionsSection(collections, env) : html`<div class="container"><p class="empty">No collections yet.</p></div>`}`
  } else {
    mainContent = html`${ownHeading}${joinHtml(sections)}`
  }

  for (const unknown of doc.unknownSections) report.notes.push(`section type ${unknown} is unknown and is not shown`)
  if (urls.dropped.length > 0) report.notes.push(`${urls.dropped.length} unsafe or invalid URL(s) were dropped`)

  const currentPath = routePath(req.route)
  const header = siteHeader(doc, env, currentPath)
  const footer = siteFooter(req.store, doc, env)
  const banner = req.mode === 'preview' && req.preview ? previewBanner(req.preview, report.notes) : null
  const style = inlineStyle(doc.tokens, styles)
  const description = metaDescription(text(resolved.description) ?? req.store.name)
  const subject: SeoSubject =
    resolved.extra === 'collections'
      ? { kind: 'collections', collections: data.allCollections.flatMap((id) => data.collections.get(id) ?? []) }
      : resolved.subject
  const canonicalPath =
    resolved.canonicalPath === null ? null : sitePathWithQuery(resolved.canonicalPath, req.route, req.query)
  const seo =
    canonicalPath === null
      ? null
      : seoHead({
          store: req.store,
          liveUrl: env.liveUrl,
          path: canonicalPath,
          title: resolved.title,
          description,
          image: shareImage(subject, doc, layout, data, env, origin),
          subject,
          canonical: req.mode === 'live' ? urls.own(`/s/${encodeURIComponent(req.store.slug)}${canonicalPath}`) : null,
        })
  const page = documentShell({
    title: resolved.title,
    description,
    style: style.element,
    bodyClass: `preset-${doc.tokens.preset}`,
    urls,
    preload: leadPreload(env),
    head: seo,
    noindex: req.mode === 'preview' || canonicalPath === null,
    body: html`${banner}
${topBars.length > 0 ? html`<div class="top-bars">${topBars}</div>` : null}
${header}
<main id="main" tabindex="-1"${report.missingRefs.size > 0 ? html` data-missing-refs="${[...report.missingRefs].join(' ')}"` : null}>
${mainContent}
</main>
${footer}`,
  })
  return {
    status: resolved.status,
    html: page,
    styleHash: style.hash,
    missingRefs: [...report.missingRefs],
    notes: report.notes,
  }
}
