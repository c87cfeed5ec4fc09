import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'
import { compiledOnce, executeCompiled } from '../../db/prepared.ts'
import { decodeCursor, keysetAfter, resolveLimit, toPage, type Page } from '../pagination.ts'
import type { ReadContext } from '../read-context.ts'
import { refreshCatalogReadModels } from './catalog-read-models.ts'
import { escapeLike, PRODUCTS_RESOURCE, type ListProductsArgs } from './products.ts'
import type { Product } from './schemas.ts'

// listProducts from product_cards: the page, and whether the cards are current for the store's
// catalog_version and this service's base URL, in one statement. Only after a catalogue change does
// a reader first rebuild the cards (catalog-read-models.ts) and read again.
//
// Order: (created_at, product_id) ascending, as listProductsFromTables; the cursor is the same.

type PageValues = {
  storeId: string
  baseUrl: string
  rows: number
  status?: string
  pattern?: string
  collectionId?: string
  afterCreatedAt?: string
  afterId?: string
}

const pageQuery = compiledOnce((db: Kysely<Database>, v: PageValues) =>
  db
    .selectFrom('stores as s')
    .leftJoin('product_cards_state as st', 'st.store_id', 's.store_id')
    .leftJoinLateral(
      (eb) => {
        let q = eb
          .selectFrom('product_cards as pc')
          .select(['pc.product_id', 'pc.cursor_ts', 'pc.card', 'pc.created_at'])
          .whereRef('pc.store_id', '=', 's.store_id')
        if (v.status !== undefined) q = q.where('pc.status', '=', v.status)
        if (v.pattern !== undefined) q = q.where(sql<boolean>`pc.title ilike ${v.pattern}`)
        if (v.collectionId !== undefined) q = q.where(sql<boolean>`${v.collectionId}::text = any(pc.collection_ids)`)
        if (v.afterCreatedAt !== undefined && v.afterId !== undefined)
          q = q.where(
            keysetAfter('pc.created_at', 'pc.product_id', 'asc', { createdAt: v.afterCreatedAt, id: v.afterId }),
          )
        return q.orderBy('pc.created_at').orderBy('pc.product_id').limit(v.rows).as('pc')
      },
      (join) => join.onTrue(),
    )
    .select(['pc.product_id', 'pc.cursor_ts', 'pc.card'])
    .select(
      sql<boolean>`st.catalog_version is not distinct from s.catalog_version and st.base_url is not distinct from ${v.baseUrl}`.as(
        'current',
      ),
    )
    .where('s.store_id', '=', v.storeId)
    .orderBy('pc.created_at')
    .orderBy('pc.product_id'),
)

async function readPage(ctx: ReadContext, storeId: string, args: ListProductsArgs, limit: number) {
  const after =
    args.cursor === undefined
      ? null
      : decodeCursor(ctx.cursorSecret, { resource: PRODUCTS_RESOURCE, storeId }, args.cursor)
  const values: PageValues = { storeId, baseUrl: ctx.baseUrl, rows: limit + 1 }
  if (args.status !== undefined) values.status = args.status
  if (args.query !== undefined && args.query.trim() !== '') values.pattern = `%${escapeLike(args.query.trim())}%`
  if (args.collectionId !== undefined) values.collectionId = args.collectionId
  if (after) {
    values.afterCreatedAt = after.createdAt
    values.afterId = after.id
  }
  // The shape: which of the optional values are present.
  const shape = Object.keys(values).join(',')
  return executeCompiled(ctx.db, pageQuery(ctx.db, shape, values))
}

// A page of products as the API's JSON text of each product: REST sends them on as they are. With
// the service's page cache, from memory until the change feed says the store changed (the cards
// move only with stores.catalog_version, a store row update the feed notifies).
export async function listProductsJson(
  ctx: ReadContext,
  storeId: string,
  args: ListProductsArgs = {},
): Promise<Page<string>> {
  const cache = ctx.caches?.productPages
  if (!cache) return readProductsJson(ctx, storeId, args)
  const key = JSON.stringify([
    storeId,
    args.limit ?? null,
    args.cursor ?? null,
    args.status ?? null,
    args.query ?? null,
    args.collectionId ?? null,
  ])
  return (await cache.get(
    key,
    () => readProductsJson(ctx, storeId, args),
    () => storeId,
  ))!
}

async function readProductsJson(ctx: ReadContext, storeId: string, args: ListProductsArgs): Promise<Page<string>> {
  const limit = resolveLimit(args.limit)
  let rows = await readPage(ctx, storeId, args, limit)
  if (rows.length > 0 && !rows[0]!.current) {
    // Written on the primary and read back there (a replica may not have the refresh yet).
    const primary = ctx.primary ?? ctx
    await refreshCatalogReadModels(primary, storeId)
    rows = await readPage(primary, storeId, args, limit)
  }
  const items = rows.filter(
    (r): r is typeof r & { product_id: string; cursor_ts: string; card: string } => r.product_id !== null,
  )
  return toPage(items, limit, {
    secret: ctx.cursorSecret,
    scope: { resource: PRODUCTS_RESOURCE, storeId },
    position: (r) => ({ createdAt: r.cursor_ts, id: r.product_id }),
    map: (r) => r.card,
  })
}

export async function listProducts(
  ctx: ReadContext,
  storeId: string,
  args: ListProductsArgs = {},
): Promise<Page<Product>> {
  const page = await listProductsJson(ctx, storeId, args)
  return { items: page.items.map((card) => JSON.parse(card) as Product), pagination: page.pagination }
}
