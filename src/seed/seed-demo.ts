import type { CommandContext } from '../commands/context.ts'
import { createApiKey, ensureApp } from '../auth/credentials.ts'
import { giveDemoPasswords } from '../auth/merchant-accounts.ts'
import { DEFAULT_AGENT_SCOPES, SCOPES } from '../auth/scopes.ts'
import { getMediaBlob } from '../queries/commerce/media-blobs.ts'
import { loadStoreIdentity } from '../queries/store-identity.ts'
import type { Services } from '../services.ts'
import { buildDemoCatalog } from './demo-catalog.ts'
import { demoThemeDocument, editsBetween } from './demo-themes.ts'
import { seedDemoCommerce } from './seed-commerce.ts'
import { registerMedia } from '../commands/media.ts'
import { updateNavigation } from '../commands/navigation.ts'
import { applyThemeEdits, createTheme, publishTheme } from '../commands/theme.ts'

export type DemoMerchant = { email: string; password: string; stores: string[] }
export type DemoKey = { storeId: string; storeName: string; name: string; key: string; scopes: readonly string[] }

const seedContext = (storeId: string, operation: string): CommandContext => ({
  storeId,
  actor: { kind: 'system', credentialId: null, appId: null },
  channel: 'seed',
  operation,
})

// Commerce rows, then the event-sourced parts (menus, media, a live starter theme) through the
// same commands agents use, then one app with two API keys per store (shown once).
export async function seedDemo(
  services: Services,
): Promise<{ keys: DemoKey[]; merchants: DemoMerchant[]; stores: { storeId: string; name: string; slug: string }[] }> {
  const seeded = await seedDemoCommerce(services.db)
  const keys: DemoKey[] = []
  for (const store of seeded.stores) {
    const hasEvents = await services.eventStore.streamVersion(`navigation-${store.storeId}`)
    if (hasEvents === null) {
      await updateNavigation(services.commands, seedContext(store.storeId, 'updateNavigation'), {
        menus: store.navigationMenus.map((m) => ({ handle: m.handle, title: m.title, items: m.items })),
      })
      for (const asset of store.mediaAssets) {
        const blob = await getMediaBlob(services.db, asset.sha256)
        if (!blob) continue
        await registerMedia(services.commands, seedContext(store.storeId, 'uploadMedia'), {
          source: 'upload',
          bytes: blob.bytes,
          sha256: asset.sha256,
          contentType: asset.contentType,
          width: asset.width,
          height: asset.height,
          alt: asset.alt,
        })
      }
      const starter = await createTheme(services.commands, seedContext(store.storeId, 'createTheme'), {
        name: 'Starter',
        provider: 'platform',
      })
      const identity = await loadStoreIdentity(services.read, store.storeId)
      const demo = buildDemoCatalog().find((s) => s.storeId === store.storeId)
      if (starter.ok && identity && demo) {
        const banners = store.mediaAssets
          .filter((m) => m.width >= m.height * 1.5)
          .map((m) => ({ url: m.url, alt: m.alt }))
        const designed = await applyThemeEdits(
          services.commands,
          seedContext(store.storeId, 'applyThemeBatch'),
          starter.value.themeId,
          {
            operations: editsBetween(starter.value.document, demoThemeDocument(demo, identity, banners)) as never,
          },
        )
        if (!designed.ok)
          throw new Error(`the demo theme of ${store.slug} is invalid: ${JSON.stringify(designed.error)}`)
        await publishTheme(services.commands, seedContext(store.storeId, 'publishTheme'), starter.value.themeId, {})
      }
    }
    const existing = await services.db
      .selectFrom('api_keys')
      .select('key_id')
      .where('store_id', '=', store.storeId)
      .executeTakeFirst()
    if (!existing) {
      const appId = await ensureApp(services.db, { storeId: store.storeId, name: 'Demo agent app' })
      const agent = await createApiKey(services.db, {
        storeId: store.storeId,
        appId,
        name: 'Demo agent (default scopes)',
        scopes: DEFAULT_AGENT_SCOPES,
      })
      const publisher = await createApiKey(services.db, {
        storeId: store.storeId,
        appId,
        name: 'Demo agent (all scopes, can publish)',
        scopes: SCOPES,
      })
      keys.push({
        storeId: store.storeId,
        storeName: store.name,
        name: 'default scopes',
        key: agent.key,
        scopes: agent.scopes,
      })
      keys.push({
        storeId: store.storeId,
        storeName: store.name,
        name: 'all scopes, can publish',
        key: publisher.key,
        scopes: publisher.scopes,
      })
    }
  }
  // One merchant per demo store, with a generated password (printed once by the caller).
  const merchants = await giveDemoPasswords(services.db)
  return { keys, merchants, stores: seeded.stores.map((s) => ({ storeId: s.storeId, name: s.name, slug: s.slug })) }
}
