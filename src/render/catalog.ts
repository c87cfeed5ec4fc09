// What the renderer reads from the catalog, behind one interface so the page code does not
// know about queries (and unit tests can hand it an in-memory catalog). The database version
// reuses the commerce read queries (src/queries/commerce) for the records themselves and the
// storefront's own lookups (src/queries/storefront/catalog.ts) for the rest. Everything is
// scoped by store id.
import type { Collection, Product } from '../queries/commerce/schemas.ts'
import { getCollection, getCollectionsByIds, getProduct, getProductsByIds } from '../queries/commerce/index.ts'
import type { ReadContext } from '../queries/read-context.ts'
import {
  collectionIds,
  newestProductIds,
  productIdOfVariant,
  productListing,
  type ListingArgs,
} from '../queries/storefront/catalog.ts'

import { getCollectionByHandle, getProductByHandle, handlesByIds } from '../queries/storefront/handles.ts'
import { mediaSizes, type MediaSize } from '../queries/media-derivatives.ts'
import type { Handles } from './urls.ts'

export { LISTING_SORTS, type ListingArgs, type ListingSort } from '../queries/storefront/catalog.ts'

export type Catalog = {
  productsByIds(ids: readonly string[]): Promise<Product[]>
  collectionsByIds(ids: readonly string[]): Promise<Collection[]>
  product(id: string): Promise<Product | null>
  collection(id: string): Promise<Collection | null>
  /** Ids of the store's active products, most recently added first. */
  newestProductIds(limit: number): Promise<string[]>
  /** One page of active product ids, and how many match in all. */
  listing(args: ListingArgs): Promise<{ ids: string[]; total: number }>
  /** Ids of every collection of the store, oldest first. */
  collectionIds(limit: number): Promise<string[]>
  /** The product a variant belongs to, in this store. */
  productOfVariant(variantId: string): Promise<Product | null>
  productByHandle(handle: string): Promise<Product | null>
  collectionByHandle(handle: string): Promise<Collection | null>
  /** Handles of products and collections a theme links to by id. */
  handles(productIds: readonly string[], collectionIds: readonly string[]): Promise<Handles>
  /** Type and size of media-library originals by content hash. */
  mediaSizes(hashes: readonly string[]): Promise<ReadonlyMap<string, MediaSize>>
}

// An original's type and size never change (its address is its hash): known ones are kept, bounded.
const knownSizes = new Map<string, MediaSize>()
const KNOWN_SIZES_MAX = 20_000

async function mediaSizesOf(ctx: ReadContext, hashes: readonly string[]): Promise<ReadonlyMap<string, MediaSize>> {
  const out = new Map<string, MediaSize>()
  const missing: string[] = []
  for (const h of new Set(hashes)) {
    const known = knownSizes.get(h)
    if (known) out.set(h, known)
    else missing.push(h)
  }
  if (missing.length === 0) return out
  const found = await mediaSizes(ctx.db, missing)
  if (knownSizes.size + found.size > KNOWN_SIZES_MAX) knownSizes.clear()
  for (const [h, size] of found) {
    knownSizes.set(h, size)
    out.set(h, size)
  }
  return out
}

export function databaseCatalog(ctx: ReadContext, storeId: string): Catalog {
  return {
    productsByIds: (ids) => getProductsByIds(ctx, storeId, ids),
    collectionsByIds: (ids) => getCollectionsByIds(ctx, storeId, ids),
    product: (id) => getProduct(ctx, storeId, id),
    collection: (id) => getCollection(ctx, storeId, id),
    newestProductIds: (limit) => newestProductIds(ctx.db, storeId, limit),
    listing: (args) => productListing(ctx.db, storeId, args),
    collectionIds: (limit) => collectionIds(ctx.db, storeId, limit),
    async productOfVariant(variantId) {
      const productId = await productIdOfVariant(ctx.db, storeId, variantId)
      return productId === null ? null : getProduct(ctx, storeId, productId)
    },
    productByHandle: (handle) => getProductByHandle(ctx, storeId, handle),
    collectionByHandle: (handle) => getCollectionByHandle(ctx, storeId, handle),
    handles: (productIds, collectionIds) => handlesByIds(ctx.db, storeId, productIds, collectionIds),
    mediaSizes: (hashes) => mediaSizesOf(ctx, hashes),
  }
}
