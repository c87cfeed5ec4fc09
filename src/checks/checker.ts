// The theme checks as the operations run them: gathers what the rules read (checker input) and
// keeps what does not change between edits. The rules are pure (run.ts); this is their I/O:
// - the store's view, the render subjects and every catalogue read of the renderer, kept per
//   catalogue and menu version (stores.catalog_version moves on every catalogue or stock change),
//   so checking the next version of a theme renders from memory;
// - media file sizes by address and decoded image grids by content hash (media are content-addressed);
// - the findings of a stored theme version, kept per catalogue version.
// Each template and page is rendered by the storefront's renderer, as a phone would get it.
import { gzipSync } from 'node:zlib'
import type { Logger } from 'pino'
import sharp from 'sharp'
import { getMediaBlob } from '../queries/commerce/media-blobs.ts'
import type { ReadContext } from '../queries/read-context.ts'
import {
  checksProbe,
  collectionFacts,
  mediaHash,
  mediaFileSizes,
  productFacts,
  renderSubjects,
  type ChecksProbe,
  type RenderSubjects,
} from '../queries/theme-checks.ts'
import { RenderCache } from '../render/cache.ts'
import { databaseCatalog, type Catalog } from '../render/catalog.ts'
import { renderStorefrontPage } from '../render/page.ts'
import { readQuery, SAMPLE_POST_SLUG, type Route } from '../render/routes.ts'
import { loadStoreView, type StoreView } from '../render/store.ts'
import { STYLESHEET, STYLESHEET_PATH } from '../render/styles.ts'
import type { ThemeDocument } from '../theme/document.ts'
import { FAVICON_PATH, FAVICON_SVG } from '../web/favicon.ts'
import { documentLinks, linkedRecords } from './content/links.ts'
import { overlaidImage } from './contrast/over-image.ts'
import type { Found } from './finding.ts'
import { parseHtml, sectionWrappers, type El } from './html.ts'
import type { ImageGrid } from './image-grid.ts'
import type { CatalogueFacts, CheckInput, CollectionFact, PageWeight, ProductFact, RenderedPage } from './input.ts'
import { layoutsOf, referencesOf } from './layouts.ts'
import { RULES } from './rules.ts'
import { runChecks } from './run.ts'
import { imagesFor, linkedAssets } from './weigh.ts'

export type CheckerDeps = { read: ReadContext; baseUrl: string; clock: () => Date; logger: Logger }

/** A theme version the checks may keep the findings of (dry runs are not stored versions). */
export type StoredVersion = { themeId: string; version: number }

// The files the storefront serves itself, as it sends them (src/storefront/plugin.ts: the
// stylesheet and icon uncompressed; pages gzip-compressed, level 6 as in render/storefront.ts).
const ASSET_BYTES = new Map([
  [STYLESHEET_PATH, Buffer.byteLength(STYLESHEET)],
  [FAVICON_PATH, Buffer.byteLength(FAVICON_SVG)],
])
const GZIP_LEVEL = 6

// What a store's catalogue and menus version decide: its view, the render subjects, the catalogue
// reads of the renderer, and the facts of the records themes name (null: not in the catalogue).
type StoreEnv = {
  key: string
  store: StoreView
  catalog: Catalog
  subjects: RenderSubjects
  products: Map<string, ProductFact | null>
  collections: Map<string, CollectionFact | null>
}

// Every read the renderer makes through the catalogue, answered once per catalogue version.
function memoCatalog(catalog: Catalog): Catalog {
  const held = new Map<string, Promise<unknown>>()
  const memo =
    <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const key = `${name}:${JSON.stringify(args)}`
      let p = held.get(key) as Promise<R> | undefined
      if (p === undefined) {
        if (held.size > 5000) held.clear()
        p = fn(...args)
        p.catch(() => held.delete(key))
        held.set(key, p)
      }
      return p
    }
  return {
    productsByIds: memo('productsByIds', catalog.productsByIds),
    collectionsByIds: memo('collectionsByIds', catalog.collectionsByIds),
    product: memo('product', catalog.product),
    collection: memo('collection', catalog.collection),
    newestProductIds: memo('newestProductIds', catalog.newestProductIds),
    listing: memo('listing', catalog.listing),
    collectionIds: memo('collectionIds', catalog.collectionIds),
    productOfVariant: memo('productOfVariant', catalog.productOfVariant),
    productByHandle: memo('productByHandle', catalog.productByHandle),
    collectionByHandle: memo('collectionByHandle', catalog.collectionByHandle),
    handles: memo('handles', catalog.handles),
    mediaSizes: memo('mediaSizes', catalog.mediaSizes),
  }
}

async function decodeGrid(bytes: Uint8Array): Promise<ImageGrid | null> {
  try {
    const image = sharp(bytes, { limitInputPixels: 50_000_000 })
    const meta = await image.metadata()
    if (!meta.width || !meta.height) return null
    const cols = 32
    const rows = 32
    // Transparent parts show the hero's own background (stylesheet: .hero.has-image, .banner).
    const { data } = await image
      .flatten({ background: '#1b1b1b' })
      .removeAlpha()
      .toColourspace('srgb')
      .resize(cols, rows, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true })
    return { width: meta.width, height: meta.height, cols, rows, means: [...data] }
  } catch {
    return null
  }
}

export type ThemeChecker = ReturnType<typeof createThemeChecker>

export function createThemeChecker(deps: CheckerDeps) {
  const envs = new RenderCache<StoreEnv>({ maxEntries: 64, maxBytes: 64, ttlMs: 60_000, sizeOf: () => 1 })
  const results = new RenderCache<Found[]>({ maxEntries: 500, maxBytes: 500, ttlMs: 60_000, sizeOf: () => 1 })
  const grids = new RenderCache<ImageGrid | null>({
    maxEntries: 2000,
    maxBytes: 2000,
    ttlMs: 24 * 3600_000,
    sizeOf: () => 1,
  })
  const sizes = new Map<string, number>()
  let envGeneration = 0
  const renders = new RenderCache<{ root: El; weight: PageWeight } | null>({
    maxEntries: 300,
    maxBytes: 300,
    ttlMs: 10 * 60_000,
    sizeOf: () => 1,
  })

  async function storeEnv(storeId: string, probe: ChecksProbe): Promise<StoreEnv | null> {
    const key = `${storeId}|c${probe.catalogVersion}|m${probe.menusVersion}`
    const { value } = await envs.getOrCreate(key, async () => {
      // The store view has no version of its own: pages rendered with an earlier env are not reused.
      const generation = ++envGeneration
      const [store, subjects] = await Promise.all([
        loadStoreView(deps.read, storeId),
        renderSubjects(deps.read, storeId),
      ])
      const env: StoreEnv | null = store
        ? {
            key: `${key}|g${generation}`,
            store,
            subjects,
            catalog: memoCatalog(databaseCatalog(deps.read, storeId)),
            products: new Map(),
            collections: new Map(),
          }
        : null
      return { value: env as StoreEnv, store: env !== null }
    })
    return value
  }

  async function catalogueFacts(doc: ThemeDocument, env: StoreEnv, storeId: string): Promise<CatalogueFacts> {
    const linked = linkedRecords(documentLinks(doc))
    const products = new Set(linked.products)
    const collections = new Set(linked.collections)
    for (const layout of layoutsOf(doc))
      for (const section of layout.sections)
        for (const ref of referencesOf(section)) (ref.kind === 'product' ? products : collections).add(ref.id)
    // Keys (ids or handles) this catalogue version has not been asked about yet.
    const newProducts = [...products].filter((k) => !env.products.has(k))
    const newCollections = [...collections].filter((k) => !env.collections.has(k))
    const [productRows, collectionRows] = await Promise.all([
      productFacts(deps.read, storeId, newProducts),
      collectionFacts(deps.read, storeId, newCollections),
    ])
    for (const k of newProducts) env.products.set(k, null)
    for (const row of productRows) {
      const fact: ProductFact = { ...row, visible: row.status === 'active' }
      env.products.set(row.id, fact)
      env.products.set(row.handle, fact)
    }
    for (const k of newCollections) env.collections.set(k, null)
    for (const row of collectionRows) {
      env.collections.set(row.id, row)
      env.collections.set(row.handle, row)
    }
    const byId = { products: new Map<string, ProductFact>(), collections: new Map<string, CollectionFact>() }
    const byHandle = { products: new Map<string, ProductFact>(), collections: new Map<string, CollectionFact>() }
    for (const k of products) {
      const p = env.products.get(k)
      if (p) (p.id === k ? byId : byHandle).products.set(k, p)
    }
    for (const k of collections) {
      const c = env.collections.get(k)
      if (c) (c.id === k ? byId : byHandle).collections.set(k, c)
    }
    const facts: CatalogueFacts = {
      products: byId.products,
      productsByHandle: byHandle.products,
      collections: byId.collections,
      collectionsByHandle: byHandle.collections,
      visibleProducts: env.subjects.visibleProducts,
    }
    return facts
  }

  function routesOf(doc: ThemeDocument, subjects: RenderSubjects) {
    const routes: { place: RenderedPage['place']; route: Route; subject: string | null }[] = [
      { place: 'home', route: { kind: 'home' }, subject: 'The home page' },
    ]
    // By handle: the address a shopper sees (an id address answers 301 to it).
    if (subjects.productId && subjects.productHandle)
      routes.push({
        place: 'product',
        route: { kind: 'product', ref: subjects.productHandle },
        subject: `The product page (of ${subjects.productId}, the newest product)`,
      })
    routes.push(
      subjects.collectionId && subjects.collectionHandle
        ? {
            place: 'collection',
            route: { kind: 'collection', ref: subjects.collectionHandle },
            subject: `The collection page (of ${subjects.collectionId}, the largest collection)`,
          }
        : { place: 'collection', route: { kind: 'products' }, subject: 'The all-products page' },
    )
    routes.push({ place: 'blogPost', route: { kind: 'blog', slug: SAMPLE_POST_SLUG }, subject: 'The blog post page' })
    for (const page of doc.pages)
      routes.push({
        place: `page:${page.id}`,
        route: { kind: 'page', slug: page.slug },
        subject: `The page ${page.slug}`,
      })
    return routes
  }

  async function weigh(root: RenderedPage['root'], html: string): Promise<PageWeight> {
    const images = imagesFor(root)
    const unknown = images.filter((url) => mediaHash(url) !== null && !sizes.has(url))
    if (unknown.length > 0) {
      if (sizes.size > 20_000) sizes.clear()
      for (const [url, bytes] of await mediaFileSizes(deps.read, unknown)) sizes.set(url, bytes)
    }
    const counted: { url: string; bytes: number }[] = []
    const unknownImages: string[] = []
    for (const url of images) {
      const bytes = sizes.get(url)
      if (bytes === undefined) unknownImages.push(url)
      else counted.push({ url, bytes })
    }
    return {
      htmlBytes: gzipSync(html, { level: GZIP_LEVEL }).length,
      assetBytes: linkedAssets(root).reduce((sum, url) => sum + (ASSET_BYTES.get(url) ?? 0), 0),
      imageBytes: counted.reduce((sum, i) => sum + i.bytes, 0),
      images: counted.length,
      unknownImages,
      heaviest: counted.sort((a, b) => b.bytes - a.bytes).slice(0, 3),
    }
  }

  // What the renderer reads for one page: the tokens, the menu, the pages (the menu hides links
  // to missing ones) and that page's layout. A page whose inputs did not change since the last
  // check (the templates an edit did not touch) is not rendered, parsed or weighed again; its
  // parsed tree also keys the rules' own per-page memos.
  function layoutOf(doc: ThemeDocument, place: RenderedPage['place']) {
    if (place.startsWith('page:')) return doc.pages.find((p) => `page:${p.id}` === place)?.layout
    return doc.templates[place as keyof ThemeDocument['templates']]
  }

  async function render(probe: ChecksProbe, env: StoreEnv, doc: ThemeDocument) {
    const query = readQuery(new URLSearchParams())
    const frame = JSON.stringify([doc.theme, doc.navigation, doc.pages.map((p) => [p.id, p.slug, p.title, p.status])])
    const pages = await Promise.all(
      routesOf(doc, env.subjects).map(async ({ place, route, subject }) => {
        const key = `${env.key}|${place}|${frame}|${JSON.stringify(layoutOf(doc, place))}`
        const { value } = await renders.getOrCreate(key, async () => {
          // Preview mode without the banner: draft pages render as well, nothing is added.
          const rendered = await renderStorefrontPage({
            store: env.store,
            document: doc,
            catalog: env.catalog,
            route,
            query,
            mode: 'preview',
            basePath: `/s/${encodeURIComponent(probe.slug)}`,
            serviceBaseUrl: deps.baseUrl,
            now: deps.clock(),
          })
          if (rendered.status !== 200) return { value: null, store: true }
          const root = parseHtml(rendered.html)
          return { value: { root, weight: await weigh(root, rendered.html) }, store: true }
        })
        return value === null ? null : ({ place, subject, ...value } satisfies RenderedPage)
      }),
    )
    return pages.filter((p) => p !== null)
  }

  // The hero and banner images text is laid over, decoded once per content.
  async function overlaidImages(pages: readonly RenderedPage[]): Promise<Map<string, ImageGrid | null>> {
    const out = new Map<string, ImageGrid | null>()
    for (const page of pages)
      for (const wrapper of sectionWrappers(page.root).values()) {
        const src = overlaidImage(wrapper)?.src
        if (src === undefined || out.has(src)) continue
        const hash = mediaHash(src)
        if (hash === null) {
          out.set(src, null)
          continue
        }
        const { value } = await grids.getOrCreate(hash, async () => {
          const blob = await getMediaBlob(deps.read.db, hash)
          return { value: blob ? await decodeGrid(blob.bytes) : null, store: blob !== null }
        })
        out.set(src, value)
      }
    return out
  }

  async function gather(storeId: string, doc: ThemeDocument, probe: ChecksProbe): Promise<CheckInput | null> {
    const env = await storeEnv(storeId, probe)
    if (env === null) return null
    const [catalogue, rendered] = await Promise.all([catalogueFacts(doc, env, storeId), render(probe, env, doc)])
    return { document: doc, catalogue, rendered, images: await overlaidImages(rendered) }
  }

  /** The findings of a theme version (unsorted, with subjects); [] for a store that is gone. */
  async function findings(storeId: string, doc: ThemeDocument, stored?: StoredVersion): Promise<Found[]> {
    const probe = await checksProbe(deps.read, storeId)
    if (probe === null) return []
    const run = async () => {
      const input = await gather(storeId, doc, probe)
      return input === null ? [] : runChecks(input)
    }
    if (!stored) return run()
    const key = `${storeId}|${stored.themeId}@${stored.version}|c${probe.catalogVersion}|m${probe.menusVersion}`
    return (await results.getOrCreate(key, async () => ({ value: await run(), store: true }))).value
  }

  /** Never throws: checks that fail say so in an info finding, and the change they follow stands. */
  async function safely(work: () => Promise<Found[]>): Promise<Found[]> {
    try {
      return await work()
    } catch (error) {
      deps.logger.error({ err: error }, 'theme checks failed')
      return [
        {
          rule: 'checks-unavailable',
          severity: RULES['checks-unavailable'].severity,
          template: 'theme',
          message: 'The theme checks could not run this time.',
          fix: 'Call check_theme (GET /api/v1/themes/{id}/checks) again; the change itself was made.',
        },
      ]
    }
  }

  return { findings, safely }
}

// One checker per service instance: its caches live as long as the services.
const checkers = new WeakMap<object, ThemeChecker>()

export function themeChecker(services: CheckerDeps): ThemeChecker {
  let checker = checkers.get(services)
  if (!checker) {
    checker = createThemeChecker(services)
    checkers.set(services, checker)
  }
  return checker
}
