// The storefront service: resolves a request (a live store by slug, or a preview token) to
// a theme and a catalog, renders through page.ts and caches the result.
//
// Caching. A request needs the store's probe (its catalog_version, the version of its live
// theme or of the previewed theme, the version of its navigation menus). Live probes are kept in
// memory (src/notifications/store-scoped-cache.ts), invalidated by the change feed's notifications on every instance, so
// a cached live page costs no PostgreSQL statement; while the feed is unhealthy, and for every
// preview (whose token is verified on every request), the probe is one small query. A rendered
// page is cached under
//   store id | generation | base path | theme id @ theme version | catalog version | menus version | path | page query
// so a new theme version, a publish, a catalog change (the platform bumps
// stores.catalog_version on every catalog or stock change) or a menu change makes new keys,
// and old entries age out of the LRU. The generation moves with every notification for the
// store (store profile, settings, checkout terms have no version of their own). The store id
// leads every key: nothing is ever shared between stores. Everything is also bounded by a
// time-to-live (60 s by default). Preview pages are keyed by their base path, which holds the
// token, because their links and banner are the token's.
//
// HTTP caching. Cached live pages carry a strong ETag (a hash of the page's bytes, the same on
// every instance; `-gzip` appended for the compressed copy) and, on 200,
// `Cache-Control: public, max-age=0, s-maxage=N, stale-while-revalidate=N` (N =
// STOREFRONT_SHARED_MAX_AGE_SECONDS, 10 by default; 0: `public, no-cache`): browsers revalidate
// every time (a 304 from memory), a CDN in front may serve a page up to N s old, and N more
// while it revalidates in the background. Previews are `private, no-store`.
import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { ChangeFeed } from '../notifications/change-feed.ts'
import { verifyPreviewToken } from '../preview/tokens.ts'
import type { ReadContext } from '../queries/read-context.ts'
import {
  currentThemeDocument,
  probeLiveStore,
  probeStoreTheme,
  type StorefrontProbe as Probe,
} from '../queries/storefront/probes.ts'
import { defaultThemeDocument } from '../theme/document.ts'
import { RenderCache } from './cache.ts'
import { StoreScopedCache } from '../notifications/store-scoped-cache.ts'
import { storefrontProbes } from '../metrics/registry.ts'
import { databaseCatalog } from './catalog.ts'
import type { Mode } from './env.ts'
import type { PreviewInfo } from './layout.ts'
import { renderStorefrontPage, type RenderedPage } from './page.ts'
import { pageRequest, routePath, type PageRequest } from './routes.ts'
import {
  checkoutPage,
  newsletterPage,
  previewRejectedPage,
  storeNotFoundPage,
  type ServicePage,
} from './service-pages.ts'
import { loadStoreView, type StoreView } from './store.ts'
import { createUrls } from './urls.ts'
import { readDocument } from './document.ts'
import { robotsTxt, sitemapIndexXml, sitemapXml, type SitemapUrl } from './sitemaps.ts'
import { SITEMAP_MAX_URLS, sitemapRecords, sitemapStoreCount, sitemapStores } from '../queries/storefront/sitemap.ts'
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { gzip as gzipCallback } from 'node:zlib'

const gzipAsync = promisify(gzipCallback)

export type StorefrontOptions = {
  /** Upper bound on how long a rendered page is reused (ms). Default 60 000. */
  cacheTtlMs?: number
  cacheMaxEntries?: number
  cacheMaxBytes?: number
}

type Headers = Readonly<Record<string, string>>

export type StorefrontResponse = {
  status: number
  /** The page; cached pages are kept UTF-8 encoded, so a cache hit sends bytes without re-encoding. */
  html: string | Buffer
  /** The same page gzip-compressed (cached pages only), for clients that accept it. */
  gzip?: Buffer
  /** The headers when `html` is sent (or a 304 to a client that does not accept gzip). */
  headers: Headers
  /** The headers when `gzip` is sent (or a 304 to one that does): its own ETag, Content-Encoding. */
  gzipHeaders?: Headers
  /** For logs: references the page could not resolve. */
  missingRefs: string[]
  cache: 'hit' | 'miss' | 'none'
}

// `servedLive`: the response of a live cache hit, built on the first one. Every later hit sends
// the same header objects, so a page served from memory builds nothing per request.
type CachedPage = Omit<RenderedPage, 'html'> & {
  body: Buffer
  gzip: Buffer
  etag: string
  servedLive?: StorefrontResponse
}

/** The strong ETag of a cached page's compressed copy. */
export const gzipEtag = (etag: string) => `${etag.slice(0, -1)}-gzip"`

/** If-None-Match (a list, weak comparison) against a page's ETag, either encoding. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  if (ifNoneMatch.trim() === '*') return true
  const gz = gzipEtag(etag)
  return ifNoneMatch.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '')
    return tag === etag || tag === gz
  })
}

const CSP_BASE = [
  "default-src 'none'",
  "script-src 'none'",
  "img-src 'self' https:",
  "font-src 'self'",
  // No script runs, so nothing on the page can connect; 'self' lets crawlers' and auditors' tools
  // read /robots.txt from the page's context (Lighthouse does; docs/decisions/0144-seo-and-structured-data.md).
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
]
const FRAME_SELF = "frame-ancestors 'self'"

const CSP_PREFIX = [...CSP_BASE, FRAME_SELF].join('; ')
// Built once per style hash (a few per theme version): cached pages send it on every request.
const cspByStyleHash = new Map<string, string>()

/** The Content-Security-Policy of a page: no script at all, styles from this origin plus the page's one hashed <style>. */
export function contentSecurityPolicy(styleHash: string): string {
  let csp = cspByStyleHash.get(styleHash)
  if (csp === undefined) {
    if (cspByStyleHash.size >= 1000) cspByStyleHash.clear()
    csp = `${CSP_PREFIX}; style-src 'self' ${styleHash}`
    cspByStyleHash.set(styleHash, csp)
  }
  return csp
}

/**
 * A signed-token preview may be framed by any origin: the merchant's review view (an MCP App in a
 * chat host's sandbox, src/mcp/theme-review) shows it, and a token preview carries no action with
 * an effect (its checkout places nothing). Live pages and the dashboard's session previews keep
 * `frame-ancestors 'self'` (docs/decisions/0170-token-previews-framable.md).
 */
export function framableByAnyOrigin(response: StorefrontResponse): StorefrontResponse {
  // A redirect (an id URL answering 301 to its handle) has no policy to open.
  const open = (headers: Headers): Headers => {
    const csp = headers['content-security-policy']
    return csp === undefined ? headers : { ...headers, 'content-security-policy': csp.replace(`; ${FRAME_SELF}`, '') }
  }
  return {
    ...response,
    headers: open(response.headers),
    ...(response.gzipHeaders ? { gzipHeaders: open(response.gzipHeaders) } : {}),
  }
}

const DEFAULT_THEME_KEY = 'default'

// What the storefront needs of the service. src/services.ts holds one storefront and passes
// itself, so this side names the parts instead of importing the Services type.
export type StorefrontServices = {
  read: ReadContext
  // Where a store's page data is read now: a replica, or `read` (src/services.ts). Absent: `read`.
  readFor?: (storeId: string) => ReadContext
  changeFeed: ChangeFeed
  config: Config
  baseUrl: string
  clock: () => Date
  logger: Logger
  signingSecret: string
}

export function createStorefront(services: StorefrontServices, options: StorefrontOptions = {}) {
  const ttl = options.cacheTtlMs ?? 60_000
  const pages = new RenderCache<CachedPage>({
    maxEntries: options.cacheMaxEntries ?? 2000,
    maxBytes: options.cacheMaxBytes ?? 64 * 1024 * 1024,
    ttlMs: ttl,
    sizeOf: (p) => p.body.length + p.gzip.length + 512,
  })
  const storeViews = new RenderCache<StoreView>({
    maxEntries: 500,
    maxBytes: 16 * 1024 * 1024,
    ttlMs: ttl,
    sizeOf: () => 8192,
  })
  const sitemaps = new RenderCache<string>({
    maxEntries: 200,
    maxBytes: 32 * 1024 * 1024,
    ttlMs: ttl,
    sizeOf: (xml) => xml.length,
  })
  const documents = new RenderCache<unknown>({
    maxEntries: 200,
    maxBytes: 64 * 1024 * 1024,
    ttlMs: 10 * 60_000,
    sizeOf: () => 64 * 1024,
  })
  // The live probes (slug → store, live theme and versions) read the primary: a probe is kept until
  // the feed says the store changed, so it must not come from a replica that lacks a change already
  // announced. The page data keyed by the probe's versions may come from a replica.
  const db = services.read.db
  const readFor = services.readFor ?? (() => services.read)
  const probes = new StoreScopedCache<Probe>({
    feed: services.changeFeed,
    maxAgeMs: ttl,
    count: (result) => storefrontProbes.inc({ result }),
  })
  const sharedMaxAge = services.config.storefront.sharedMaxAgeSeconds
  const liveCacheControl =
    sharedMaxAge > 0
      ? `public, max-age=0, s-maxage=${sharedMaxAge}, stale-while-revalidate=${sharedMaxAge}`
      : 'public, no-cache'

  const probeLive = (slug: string) => probeLiveStore(db, slug)
  const probePreview = (storeId: string, themeId: string) => probeStoreTheme(db, storeId, themeId)

  async function storeView(probe: Probe): Promise<StoreView | null> {
    const key = `${probe.storeId}|g${probes.generation(probe.storeId)}|c${probe.catalogVersion}|m${probe.menusVersion}`
    try {
      return (
        await storeViews.getOrCreate(key, async () => {
          const view = await loadStoreView(readFor(probe.storeId), probe.storeId)
          if (view === null) throw new StoreGone()
          return { value: view, store: true }
        })
      ).value
    } catch (error) {
      if (error instanceof StoreGone) return null
      throw error
    }
  }

  // A store without an active theme shows the default theme made from its own identity.
  async function themeDocument(probe: Probe, store: StoreView): Promise<unknown> {
    if (probe.themeId === null || probe.themeVersion === null) return defaultThemeDocument(store.identity)
    const themeId = probe.themeId
    const key = `${probe.storeId}|${themeId}@${probe.themeVersion}`
    return (
      await documents.getOrCreate(key, async () => {
        const row = await currentThemeDocument(readFor(probe.storeId).db, probe.storeId, themeId)
        // Only keep a document read at the probed version (a newer one gets its own key).
        return {
          value: row?.document ?? defaultThemeDocument(store.identity),
          store: row?.version === probe.themeVersion,
        }
      })
    ).value
  }

  function headersFor(mode: Mode, styleHash: string, extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(styleHash),
      ...extra,
    }
    if (mode === 'preview') {
      headers['cache-control'] = 'private, no-store'
      headers['x-robots-tag'] = 'noindex, nofollow'
    } else if (!('cache-control' in headers)) {
      headers['cache-control'] = 'public, no-cache'
    }
    return headers
  }

  function servicePageResponse(page: ServicePage, mode: Mode, extra: Record<string, string> = {}): StorefrontResponse {
    const base: Record<string, string> = mode === 'preview' ? {} : { 'cache-control': 'no-store' }
    return {
      status: page.status,
      html: page.html,
      headers: headersFor(mode, page.styleHash, { ...base, ...extra }),
      missingRefs: [],
      cache: 'none',
    }
  }

  // `document`: an earlier version's document (merchant previews of a version); the probe then carries that version.
  type Target = { probe: Probe; mode: Mode; basePath: string; preview: PreviewInfo | null; document?: unknown }

  // Renders a page for the cache (the store view and theme document are read only here).
  async function renderPage(
    target: Target,
    route: PageRequest['route'],
    query: PageRequest['query'],
  ): Promise<{ value: CachedPage; store: boolean }> {
    const { probe, mode, basePath, preview } = target
    const store = await storeView(probe)
    if (store === null) throw new StoreGone()
    const rendered = await renderStorefrontPage({
      store,
      document: target.document ?? (await themeDocument(probe, store)),
      catalog: databaseCatalog(readFor(probe.storeId), probe.storeId),
      route,
      query,
      mode,
      basePath,
      serviceBaseUrl: services.baseUrl,
      preview: preview ?? undefined,
      now: services.clock(),
    })
    if (rendered.missingRefs.length > 0) {
      services.logger.warn(
        {
          storeId: probe.storeId,
          themeId: probe.themeId,
          themeVersion: probe.themeVersion,
          path: routePath(route),
          missingRefs: rendered.missingRefs,
        },
        'storefront page references catalog records that no longer exist',
      )
    }
    const body = Buffer.from(rendered.html, 'utf8')
    const gzip = await gzipAsync(body, { level: 6 })
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
    const { html: _html, ...rest } = rendered
    return { value: { ...rest, body, gzip, etag }, store: true }
  }

  async function serve(
    target: Target,
    subpath: string,
    search: string,
    ifNoneMatch: string | undefined,
  ): Promise<StorefrontResponse> {
    const { probe, mode, basePath, preview } = target
    const { route, query, pageKey } = pageRequest(subpath, search)

    if (route.kind === 'checkout') {
      const store = await storeView(probe)
      if (store === null) return servicePageResponse(storeNotFoundPage(), mode)
      const catalog = databaseCatalog(services.read, probe.storeId)
      const urls = createUrls(basePath, services.baseUrl)
      const product = query.variant ? await catalog.productOfVariant(query.variant) : null
      const quantityParam = Number(new URLSearchParams(search).get('quantity') ?? '1')
      const quantity = Number.isInteger(quantityParam) && quantityParam >= 1 && quantityParam <= 10 ? quantityParam : 1
      return servicePageResponse(
        checkoutPage({ store, urls, product, variantId: query.variant, quantity, preview }),
        mode,
        { 'cache-control': 'no-store' },
      )
    }

    const theme = probe.themeId === null ? DEFAULT_THEME_KEY : `${probe.themeId}@${probe.themeVersion}`
    // Publishing changes no version but the preview banner's words ("not live" / "live"): part of the key.
    const key = `${probe.storeId}|g${probes.generation(probe.storeId)}|${basePath}|${theme}${preview?.live ? '|live' : ''}|c${probe.catalogVersion}|m${probe.menusVersion}|${pageKey}`
    let page: CachedPage
    let hit: boolean
    try {
      ;({ value: page, hit } = await pages.getOrCreate(key, () => renderPage(target, route, query)))
    } catch (error) {
      if (error instanceof StoreGone) return servicePageResponse(storeNotFoundPage(), mode)
      throw error
    }
    if (page.status === 301 && page.redirect !== undefined) {
      // An id URL (what themes store) answers with the handle URL customers see, query and base path kept.
      const location = `${basePath}${page.redirect}${search === '' ? '' : `?${search}`}`
      return {
        status: 301,
        html: '',
        headers: {
          location,
          'cache-control': mode === 'preview' ? 'private, no-store' : liveCacheControl,
          ...(mode === 'preview' ? { 'x-robots-tag': 'noindex, nofollow' } : {}),
        },
        missingRefs: [],
        cache: hit ? 'hit' : 'miss',
      }
    }
    if (mode === 'live') {
      if (page.status === 200 && etagMatches(ifNoneMatch, page.etag)) {
        const { headers } = pageResponse(page, mode, hit)
        return {
          status: 304,
          html: '',
          headers,
          gzipHeaders: { ...headers, etag: gzipEtag(page.etag) },
          missingRefs: page.missingRefs,
          cache: 'hit',
        }
      }
      if (hit) return (page.servedLive ??= pageResponse(page, mode, true))
    }
    return pageResponse(page, mode, hit)
  }

  function pageResponse(page: CachedPage, mode: Mode, hit: boolean): StorefrontResponse {
    const extra: Record<string, string> = { 'x-storefront-cache': hit ? 'hit' : 'miss', vary: 'accept-encoding' }
    if (page.missingRefs.length > 0) extra['x-missing-references'] = page.missingRefs.join(', ')
    if (mode === 'live') {
      extra.etag = page.etag
      if (page.status === 200) extra['cache-control'] = liveCacheControl
    }
    const headers = headersFor(mode, page.styleHash, extra)
    const gzipHeaders = {
      ...headers,
      'content-encoding': 'gzip',
      ...(mode === 'live' ? { etag: gzipEtag(page.etag) } : {}),
    }
    return {
      status: page.status,
      html: page.body,
      gzip: page.gzip,
      headers,
      gzipHeaders,
      missingRefs: page.missingRefs,
      cache: hit ? 'hit' : 'miss',
    }
  }

  return {
    /** /s/{slug}{subpath}: the store's active theme, or the default theme when none is active. */
    async live(slug: string, subpath: string, search: string, ifNoneMatch?: string): Promise<StorefrontResponse> {
      const probe = await probes.get(
        slug,
        () => probeLive(slug),
        (p) => p.storeId,
      )
      if (probe === null) return servicePageResponse(storeNotFoundPage(), 'live')
      return serve(
        { probe, mode: 'live', basePath: `/s/${encodeURIComponent(probe.slug)}`, preview: null },
        subpath,
        search,
        ifNoneMatch,
      )
    },

    /** /preview/{token}{subpath}: the token's theme, checked on every request. */
    async preview(token: string, subpath: string, search: string): Promise<StorefrontResponse> {
      const verified = await verifyPreviewToken(services.signingSecret, token, services.clock())
      if (!verified.ok)
        return servicePageResponse(
          previewRejectedPage(verified.error.code === 'PREVIEW_TOKEN_EXPIRED' ? 'expired' : 'invalid'),
          'preview',
        )
      const { storeId, themeId, expiresAt } = verified.claims
      const probe = await probePreview(storeId, themeId)
      if (probe === null || probe.themeStatus === 'archived')
        return servicePageResponse(previewRejectedPage('theme-gone'), 'preview')
      const preview: PreviewInfo = {
        themeName: probe.themeName ?? 'theme',
        expiresAt,
        version: probe.themeVersion,
        live: probe.themeStatus === 'active',
      }
      return serve({ probe, mode: 'preview', basePath: `/preview/${token}`, preview }, subpath, search, undefined)
    },

    /**
     * /dashboard/themes/{id}/preview{subpath}: a signed-in merchant's own theme, any state; the store comes from the session.
     * With `at`, the theme as it was at that version (the caller replays it from the history); a version never
     * changes, so its pages are cached under theme@version like the current one.
     */
    async merchantPreview(
      input: {
        storeId: string
        themeId: string
        basePath: string
        until: Date
        at?: { version: number; document: unknown }
      },
      subpath: string,
      search: string,
    ): Promise<StorefrontResponse | null> {
      const found = await probePreview(input.storeId, input.themeId)
      if (found === null) return null
      const probe = input.at ? { ...found, themeVersion: input.at.version } : found
      const preview: PreviewInfo = {
        themeName: probe.themeName ?? 'theme',
        expiresAt: input.until,
        version: probe.themeVersion,
        // A live theme cannot be edited, so its current version is the one visitors see.
        live: found.themeStatus === 'active' && probe.themeVersion === found.themeVersion,
      }
      return serve(
        {
          probe,
          mode: 'preview',
          basePath: input.basePath,
          preview,
          ...(input.at ? { document: input.at.document } : {}),
        },
        subpath,
        search,
        undefined,
      )
    },

    /** The answer to the newsletter form (POST .../newsletter). */
    async newsletter(target: { slug: string } | { token: string }): Promise<StorefrontResponse> {
      if ('slug' in target) {
        const probe = await probes.get(
          target.slug,
          () => probeLive(target.slug),
          (p) => p.storeId,
        )
        const store = probe ? await storeView(probe) : null
        if (probe === null || store === null) return servicePageResponse(storeNotFoundPage(), 'live')
        return servicePageResponse(
          newsletterPage(store, createUrls(`/s/${encodeURIComponent(probe.slug)}`, services.baseUrl), null),
          'live',
        )
      }
      const verified = await verifyPreviewToken(services.signingSecret, target.token, services.clock())
      if (!verified.ok)
        return servicePageResponse(
          previewRejectedPage(verified.error.code === 'PREVIEW_TOKEN_EXPIRED' ? 'expired' : 'invalid'),
          'preview',
        )
      const probe = await probePreview(verified.claims.storeId, verified.claims.themeId)
      const store = probe && probe.themeStatus !== 'archived' ? await storeView(probe) : null
      if (probe === null || store === null) return servicePageResponse(previewRejectedPage('theme-gone'), 'preview')
      const preview: PreviewInfo = {
        themeName: probe.themeName ?? 'theme',
        expiresAt: verified.claims.expiresAt,
        version: probe.themeVersion,
      }
      return servicePageResponse(
        newsletterPage(store, createUrls(`/preview/${target.token}`, services.baseUrl), preview),
        'preview',
      )
    },

    /** /s/{slug}/sitemap.xml: home, listings, products, collections and the live theme's published pages; null: no such store. */
    async sitemap(slug: string): Promise<string | null> {
      const probe = await probes.get(
        slug,
        () => probeLive(slug),
        (p) => p.storeId,
      )
      if (probe === null) return null
      const key = `${probe.storeId}|g${probes.generation(probe.storeId)}|${probe.themeId}@${probe.themeVersion}|c${probe.catalogVersion}`
      return (
        await sitemaps.getOrCreate(key, async () => {
          const store = await storeView(probe)
          if (store === null) return { value: '', store: false }
          const live = `${services.baseUrl}/s/${encodeURIComponent(probe.slug)}`
          const doc = readDocument(await themeDocument(probe, store))
          const pages = doc.pages.filter((p) => p.status === 'published')
          // Room for the fixed addresses and the pages within the 50,000 of one sitemap.
          const room = SITEMAP_MAX_URLS - 3 - pages.length
          const records = await sitemapRecords(db, probe.storeId, Math.max(0, Math.floor(room / 2)))
          const urls: SitemapUrl[] = [
            { loc: live },
            { loc: `${live}/products` },
            { loc: `${live}/collections` },
            ...records.products.map((r) => ({
              loc: `${live}/products/${encodeURIComponent(r.handle)}`,
              lastmod: r.updatedAt,
            })),
            ...records.collections.map((r) => ({
              loc: `${live}/collections/${encodeURIComponent(r.handle)}`,
              lastmod: r.updatedAt,
            })),
            ...pages.map((p) => ({ loc: `${live}/pages/${encodeURIComponent(p.slug)}` })),
          ]
          return { value: sitemapXml(urls), store: true }
        })
      ).value
    },

    /** /sitemap.xml[?page=N]: the stores' sitemaps, 50,000 a page; null past the last page. */
    async sitemapIndex(page: number): Promise<string | null> {
      const count = await sitemapStoreCount(db)
      if (page > Math.max(1, Math.ceil(count / SITEMAP_MAX_URLS))) return null
      return sitemapIndexXml(services.baseUrl, await sitemapStores(db, page))
    },

    /** /robots.txt */
    async robots(): Promise<string> {
      return robotsTxt(services.baseUrl, Math.ceil((await sitemapStoreCount(db)) / SITEMAP_MAX_URLS))
    },

    close: () => probes.close(),
    stats: () => ({ pages: pages.stats(), storeViews: storeViews.stats(), documents: documents.stats() }),
    clear(): void {
      pages.clear()
      sitemaps.clear()
      storeViews.clear()
      documents.clear()
    },
  }
}

class StoreGone extends Error {}

export type Storefront = ReturnType<typeof createStorefront>
