import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'
import type { ReadContext } from '../read-context.ts'
import { collectionSelect, toCollection } from './collections.ts'
import { productSelect, toProduct } from './products.ts'

// The catalogue's read models: product_cards (each product as the API returns it) and the
// catalogue part of store_context (the first page of products and collections as summaries).
// The commerce tables belong to the platform, which bumps stores.catalog_version on every catalogue
// or stock change; both read models record the version (and the base URL their absolute URLs were
// made with) they were built at, and a reader that finds them behind calls refreshCatalogReadModels
// before answering. A refresh rebuilds one store's cards and summary in one transaction.

export const CONTEXT_PAGE = 20
const INSERT_CHUNK = 200

export type Position = { createdAt: string; id: string }
export type ProductSummary = {
  id: string
  title: string
  handle: string
  status: string
  image: string | null
  inStock: boolean
}
export type CollectionSummary = { id: string; title: string; handle: string; productCount: number }

export async function refreshCatalogReadModels(ctx: ReadContext, storeId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    // One refresher per store at a time: the second waits, then finds the models current.
    await sql`select pg_advisory_xact_lock(hashtext(${`catalog-read-models:${storeId}`}))`.execute(trx)
    const store = await trx
      .selectFrom('stores')
      .select('catalog_version')
      .where('store_id', '=', storeId)
      .executeTakeFirst()
    if (!store) return
    const version = store.catalog_version
    const cards = await trx
      .selectFrom('product_cards_state')
      .select(['catalog_version', 'base_url'])
      .where('store_id', '=', storeId)
      .executeTakeFirst()
    const context = await trx
      .selectFrom('store_context')
      .select(['catalog_version', 'base_url'])
      .where('store_id', '=', storeId)
      .executeTakeFirst()
    const cardsCurrent = cards?.catalog_version === version && cards.base_url === ctx.baseUrl
    const contextCurrent = context?.catalog_version === version && context.base_url === ctx.baseUrl
    if (cardsCurrent && contextCurrent) return
    const rows = await productSelect(trx, storeId).orderBy('p.created_at').orderBy('p.product_id').execute()
    const products = rows.map((r) => ({ row: r, product: toProduct(ctx.baseUrl, r) }))
    if (!cardsCurrent) await writeCards(trx, storeId, version, ctx.baseUrl, products)
    if (!contextCurrent) {
      const collections = await collectionSelect(trx, storeId)
        .orderBy('c.created_at')
        .orderBy('c.collection_id')
        .limit(CONTEXT_PAGE + 1)
        .execute()
      const firstProducts = products.slice(0, CONTEXT_PAGE)
      const lastProduct = firstProducts.at(-1)
      const firstCollections = collections.slice(0, CONTEXT_PAGE)
      const lastCollection = firstCollections.at(-1)
      const values = {
        catalog_version: version,
        base_url: ctx.baseUrl,
        products: JSON.stringify(
          firstProducts.map(
            ({ product: p }): ProductSummary => ({
              id: p.id,
              title: p.title,
              handle: p.handle,
              status: p.status,
              image: p.images[0]?.url ?? null,
              inStock: p.inventory.inStock,
            }),
          ),
        ),
        products_after:
          products.length > CONTEXT_PAGE && lastProduct
            ? JSON.stringify({
                createdAt: lastProduct.row.cursor_ts,
                id: lastProduct.row.product_id,
              } satisfies Position)
            : null,
        collections: JSON.stringify(
          firstCollections.map((r): CollectionSummary => {
            const c = toCollection(ctx.baseUrl, r)
            return { id: c.id, title: c.title, handle: c.handle, productCount: c.productCount }
          }),
        ),
        collections_after:
          collections.length > CONTEXT_PAGE && lastCollection
            ? JSON.stringify({
                createdAt: lastCollection.cursor_ts,
                id: lastCollection.collection_id,
              } satisfies Position)
            : null,
      }
      await trx
        .insertInto('store_context')
        .values({ store_id: storeId, ...values })
        .onConflict((oc) => oc.column('store_id').doUpdateSet(values))
        .execute()
    }
  })
}

async function writeCards(
  db: Kysely<Database>,
  storeId: string,
  version: number,
  baseUrl: string,
  products: {
    row: { cursor_ts: string; product_id: string }
    product: { title: string; status: string; collectionIds: string[] }
  }[],
): Promise<void> {
  await db.deleteFrom('product_cards').where('store_id', '=', storeId).execute()
  for (let i = 0; i < products.length; i += INSERT_CHUNK) {
    await db
      .insertInto('product_cards')
      .values(
        products.slice(i, i + INSERT_CHUNK).map(({ row, product }) => ({
          product_id: row.product_id,
          store_id: storeId,
          // The microseconds of the keyset, which a JS Date would drop.
          created_at: row.cursor_ts,
          cursor_ts: row.cursor_ts,
          status: product.status,
          title: product.title,
          collection_ids: product.collectionIds,
          card: JSON.stringify(product),
        })),
      )
      .execute()
  }
  const state = { catalog_version: version, base_url: baseUrl }
  await db
    .insertInto('product_cards_state')
    .values({ store_id: storeId, ...state })
    .onConflict((oc) => oc.column('store_id').doUpdateSet(state))
    .execute()
}

// The platform's change signal, for demos and tests: the next read rebuilds the catalogue's read models.
export async function bumpCatalogVersion(db: Kysely<Database>, storeId: string): Promise<number | null> {
  const row = await db
    .updateTable('stores')
    .set({ catalog_version: sql`catalog_version + 1` })
    .where('store_id', '=', storeId)
    .returning('catalog_version')
    .executeTakeFirst()
  return row?.catalog_version ?? null
}
