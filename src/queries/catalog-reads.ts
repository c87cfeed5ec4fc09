import type { ReadContext } from './read-context.ts'

// The catalogue reads other than listProducts and getContext (getStore, getStoreSettings,
// getProduct, listCollections, getCollection): answered from memory with no statement while the
// change feed is healthy, by store, operation and arguments. Their rows move only with the store's
// row (the platform's catalog_version bump, an order's stock, the profile) or its settings, which
// notify `sfts_storefront` for the store (migration 0011): every instance drops the store's
// entries within the feed's 750 ms bound, and while the feed is not healthy every read goes to
// PostgreSQL (src/notifications/store-scoped-cache.ts). What is held is shared: callers must not
// change it. Not found (null) is never held.
export async function warmCatalogRead<T>(
  ctx: ReadContext,
  storeId: string,
  key: readonly unknown[],
  load: () => Promise<T | null>,
): Promise<T | null> {
  const cache = ctx.caches?.catalogReads
  if (!cache) return load()
  const held = await cache.get(
    JSON.stringify([storeId, ...key]),
    async () => {
      const value = await load()
      return value === null ? null : { value }
    },
    () => storeId,
  )
  return held === null ? null : (held.value as T)
}
