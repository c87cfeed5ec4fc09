// What the renderer reads from the catalog, behind one interface so the page code does not
// know about SQL (and unit tests can hand it an in-memory catalog). The database version
// reuses the commerce read queries (src/queries/commerce) for the records themselves; the
// few storefront-only lookups (newest products, a sorted and filtered listing page, the
// product of a variant) are single statements here. Everything is scoped by store id.
import { sql } from 'kysely'
import type { Collection, Product } from '../queries/commerce/schemas.ts'
import { getCollection, getCollectionsByIds, getProduct, getProductsByIds } from '../queries/commerce/index.ts'
import type { ReadContext } from '../queries/read-context.ts'

export const LISTING_SORTS = ['featured', 'newest', 'price-asc', 'price-desc', 'title-asc'] as const
export type ListingSort = (typeof LISTING_SORTS)[number]

export type ListingArgs = {
  /** Null: every product of the store. */
  collectionId: string | null
  sort: ListingSort
  inStockOnly: boolean
  minCents: number | null
  maxCents: number | null
  offset: number
  limit: number
}

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
  const db = ctx.db
  return {
    productsByIds: (ids) => getProductsByIds(ctx, storeId, ids),
    collectionsByIds: (ids) => getCollectionsByIds(ctx, storeId, ids),
    product: (id) => getProduct(ctx, storeId, id),
    collection: (id) => getCollection(ctx, storeId, id),
    async newestProductIds(limit) {
      const rows = await db
        .selectFrom('products')
        .select('product_id')
        .where('store_id', '=', storeId)
        .where('status', '=', 'active')
        .orderBy('created_at', 'desc')
        .orderBy('product_id', 'desc')
        .limit(limit)
        .execute()
      return rows.map((r) => r.product_id)
    },
    async listing(args) {
      const minPrice = sql`(select min(v.price_cents) from product_variants v where v.product_id = p.product_id and v.store_id = p.store_id)`
      const conditions = [sql`p.store_id = ${storeId}`, sql`p.status = 'active'`]
      if (args.inStockOnly) {
        conditions.push(
          sql`exists (select 1 from product_variants v where v.product_id = p.product_id and v.store_id = p.store_id and v.inventory_quantity > 0)`,
        )
      }
      if (args.minCents !== null) conditions.push(sql`${minPrice} >= ${args.minCents}`)
      if (args.maxCents !== null) conditions.push(sql`${minPrice} <= ${args.maxCents}`)
      const join =
        args.collectionId === null
          ? sql``
          : sql`join collection_products cp on cp.product_id = p.product_id and cp.store_id = p.store_id and cp.collection_id = ${args.collectionId}`
      const featured =
        args.collectionId === null ? sql`p.created_at desc, p.product_id desc` : sql`cp.position asc, p.product_id asc`
      const order = {
        featured,
        newest: sql`p.created_at desc, p.product_id desc`,
        'price-asc': sql`${minPrice} asc nulls last, p.product_id asc`,
        'price-desc': sql`${minPrice} desc nulls last, p.product_id asc`,
        'title-asc': sql`lower(p.title) asc, p.product_id asc`,
      }[args.sort]
      const where = sql.join(conditions, sql` and `)
      const result = await sql<{ product_id: string; total: string | number }>`
        select p.product_id, count(*) over () as total
        from products p ${join}
        where ${where}
        order by ${order}
        limit ${args.limit} offset ${args.offset}`.execute(db)
      const first = result.rows[0]
      if (first !== undefined) return { ids: result.rows.map((r) => r.product_id), total: Number(first.total) }
      if (args.offset === 0) return { ids: [], total: 0 }
      // Past the last page: the window count is not there, count on its own.
      const counted = await sql<{
        total: string | number
      }>`select count(*) as total from products p ${join} where ${where}`.execute(db)
      return { ids: [], total: Number(counted.rows[0]?.total ?? 0) }
    },
    async collectionIds(limit) {
      const rows = await db
        .selectFrom('collections')
        .select('collection_id')
        .where('store_id', '=', storeId)
        .orderBy('created_at')
        .orderBy('collection_id')
        .limit(limit)
        .execute()
      return rows.map((r) => r.collection_id)
    },
    async productOfVariant(variantId) {
      const row = await db
        .selectFrom('product_variants')
        .select('product_id')
        .where('variant_id', '=', variantId)
        .where('store_id', '=', storeId)
        .executeTakeFirst()
      return row ? getProduct(ctx, storeId, row.product_id) : null
    },
  }
}
