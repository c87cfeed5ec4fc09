import type { Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'

// What the sitemaps list (issue 35 B 6): the stores, for the sitemap index at /sitemap.xml, and
// a store's active products and its collections, for /s/{slug}/sitemap.xml. A sitemap file
// holds at most 50,000 addresses (sitemaps.org), so each read takes a page of that size.

export const SITEMAP_MAX_URLS = 50_000

export type SitemapRecord = { handle: string; updatedAt: Date }

/** How many stores there are (the index is split into pages of SITEMAP_MAX_URLS). */
export async function sitemapStoreCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('stores')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/** One page of store slugs, oldest store first. */
export async function sitemapStores(db: Kysely<Database>, page: number): Promise<string[]> {
  const rows = await db
    .selectFrom('stores')
    .select('slug')
    .orderBy('created_at')
    .orderBy('store_id')
    .limit(SITEMAP_MAX_URLS)
    .offset((page - 1) * SITEMAP_MAX_URLS)
    .execute()
  return rows.map((r) => r.slug)
}

/** The store's active products and its collections, by handle, with when each last changed. */
export async function sitemapRecords(
  db: Kysely<Database>,
  storeId: string,
  limit: number,
): Promise<{ products: SitemapRecord[]; collections: SitemapRecord[] }> {
  const [products, collections] = await Promise.all([
    db
      .selectFrom('products')
      .select(['handle', 'updated_at'])
      .where('store_id', '=', storeId)
      .where('status', '=', 'active')
      .orderBy('created_at')
      .orderBy('product_id')
      .limit(limit)
      .execute(),
    db
      .selectFrom('collections')
      .select(['handle', 'updated_at'])
      .where('store_id', '=', storeId)
      .orderBy('created_at')
      .orderBy('collection_id')
      .limit(limit)
      .execute(),
  ])
  const record = (r: { handle: string; updated_at: Date | string }) => ({
    handle: r.handle,
    updatedAt: new Date(r.updated_at),
  })
  return { products: products.map(record), collections: collections.map(record) }
}
