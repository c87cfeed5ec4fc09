import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'

// The storefront's own catalog lookups, beside the commerce reads it shares with the API
// (src/queries/commerce): newest products, a sorted and filtered listing page, every collection,
// the product of a variant. One statement each, scoped by store id.

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

/** Ids of the store's active products, most recently added first. */
export async function newestProductIds(db: Kysely<Database>, storeId: string, limit: number): Promise<string[]> {
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
}

/** One page of active product ids, and how many match in all. */
export async function productListing(
  db: Kysely<Database>,
  storeId: string,
  args: ListingArgs,
): Promise<{ ids: string[]; total: number }> {
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
}

/** Ids of the store's collections, oldest first. */
export async function collectionIds(db: Kysely<Database>, storeId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('collections')
    .select('collection_id')
    .where('store_id', '=', storeId)
    .orderBy('created_at')
    .orderBy('collection_id')
    .limit(limit)
    .execute()
  return rows.map((r) => r.collection_id)
}

/** The id of the product a variant belongs to, in this store. */
export async function productIdOfVariant(
  db: Kysely<Database>,
  storeId: string,
  variantId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('product_variants')
    .select('product_id')
    .where('variant_id', '=', variantId)
    .where('store_id', '=', storeId)
    .executeTakeFirst()
  return row?.product_id ?? null
}
