// The store and design a cart, checkout or order confirmation page is shown in: the live store of
// a slug with its active theme, or a preview token's store with the previewed theme. These pages
// are per shopper and never cached, so each request reads them afresh (a few small reads).
import { verifyPreviewToken } from '../preview/tokens.ts'
import { currentThemeDocument, probeLiveStore, probeStoreTheme } from '../queries/storefront/probes.ts'
import { defaultThemeDocument } from '../theme/document.ts'
import type { Mode } from './env.ts'
import type { PreviewInfo } from './layout.ts'
import { previewRejectedPage, type ServicePage, storeNotFoundPage } from './service-pages.ts'
import { loadStoreView, type StoreView } from './store.ts'
import type { StorefrontServices } from './storefront.ts'
import { createUrls, type Urls } from './urls.ts'

export type ShopTarget = { slug: string } | { token: string }

export type ShopContext = {
  storeId: string
  store: StoreView
  // The theme document whose design (tokens, header, footer) the page takes.
  document: unknown
  mode: Mode
  // '/s/{slug}' or '/preview/{token}': where the shop's links, forms and cookies live.
  basePath: string
  urls: Urls
  preview: PreviewInfo | null
}

export async function shopContext(
  services: StorefrontServices,
  target: ShopTarget,
): Promise<{ ok: true; shop: ShopContext } | { ok: false; page: ServicePage; mode: Mode }> {
  const db = services.read.db
  if ('slug' in target) {
    const probe = await probeLiveStore(db, target.slug)
    const store = probe ? await loadStoreView(services.read, probe.storeId) : null
    if (probe === null || store === null) return { ok: false, page: storeNotFoundPage(), mode: 'live' }
    const row = probe.themeId === null ? undefined : await currentThemeDocument(db, probe.storeId, probe.themeId)
    const basePath = `/s/${encodeURIComponent(probe.slug)}`
    return {
      ok: true,
      shop: {
        storeId: probe.storeId,
        store,
        document: row?.document ?? defaultThemeDocument(store.identity),
        mode: 'live',
        basePath,
        urls: createUrls(basePath, services.baseUrl),
        preview: null,
      },
    }
  }
  const verified = await verifyPreviewToken(services.signingSecret, target.token, services.clock())
  if (!verified.ok)
    return {
      ok: false,
      page: previewRejectedPage(verified.error.code === 'PREVIEW_TOKEN_EXPIRED' ? 'expired' : 'invalid'),
      mode: 'preview',
    }
  const { storeId, themeId, expiresAt } = verified.claims
  const probe = await probeStoreTheme(db, storeId, themeId)
  const store = probe && probe.themeStatus !== 'archived' ? await loadStoreView(services.read, storeId) : null
  const row = store ? await currentThemeDocument(db, storeId, themeId) : undefined
  if (probe === null || store === null || row === undefined)
    return { ok: false, page: previewRejectedPage('theme-gone'), mode: 'preview' }
  const basePath = `/preview/${target.token}`
  return {
    ok: true,
    shop: {
      storeId,
      store,
      document: row.document,
      mode: 'preview',
      basePath,
      urls: createUrls(basePath, services.baseUrl),
      preview: {
        themeName: probe.themeName ?? 'theme',
        expiresAt,
        version: row.version,
        live: probe.themeStatus === 'active',
      },
    },
  }
}
