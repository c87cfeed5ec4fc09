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
  }
}
