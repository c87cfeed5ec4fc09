import type { Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'
import { toCollection, collectionSelect } from '../commerce/collections.ts'
import { productSelect, toProduct } from '../commerce/products.ts'
import type { Collection, Product } from '../commerce/schemas.ts'
import type { ReadContext } from '../read-context.ts'

// Customers see products and collections by handle (/products/<handle>); themes link them by id,
// and the renderer turns those links into handle URLs (issue 35 B 8). One statement each,
// scoped by store id; a handle is unique in its store.

export async function getProductByHandle(ctx: ReadContext, storeId: string, handle: string): Promise<Product | null> {
  const row = await productSelect(ctx.db, storeId).where('p.handle', '=', handle).executeTakeFirst()
  return row ? toProduct(ctx.baseUrl, row) : null
}

export async function getCollectionByHandle(
  ctx: ReadContext,
  storeId: string,
  handle: string,
): Promise<Collection | null> {
  const row = await collectionSelect(ctx.db, storeId).where('c.handle', '=', handle).executeTakeFirst()
  return row ? toCollection(ctx.baseUrl, row) : null
}

export type HandleMaps = { products: Map<string, string>; collections: Map<string, string> }

/** The handles of this store's products and collections among ids (unknown and foreign ids left out). */
export async function handlesByIds(
  db: Kysely<Database>,
  storeId: string,
  productIds: readonly string[],
  collectionIds: readonly string[],
): Promise<HandleMaps> {
  const [products, collections] = await Promise.all([
    productIds.length === 0
      ? []
      : db
          .selectFrom('products')
          .select(['product_id as id', 'handle'])
          .where('store_id', '=', storeId)
          .where('product_id', 'in', [...productIds])
          .execute(),
    collectionIds.length === 0
      ? []
      : db
          .selectFrom('collections')
          .select(['collection_id as id', 'handle'])
          .where('store_id', '=', storeId)
          .where('collection_id', 'in', [...collectionIds])
          .execute(),
  ])
  return {
    products: new Map(products.map((r) => [r.id, r.handle])),
    collections: new Map(collections.map((r) => [r.id, r.handle])),
  }
}
