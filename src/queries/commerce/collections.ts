import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'
import { existingIds, loadInIdOrder } from '../by-ids.ts'
import { cursorTimestamp, paginate, type Page, type PageArgs } from '../pagination.ts'
import type { ReadContext } from '../read-context.ts'
import { iso, toImage } from './money.ts'
import type { Collection } from './schemas.ts'

// Collections with their product ids (merchandising order: position, then id) and count.
// Order of listCollections: (created_at, collection_id) ascending: oldest first, id breaks ties.

export const COLLECTIONS_RESOURCE = 'collections'

export function collectionSelect(db: Kysely<Database>, storeId: string) {
  return db
    .selectFrom('collections as c')
    .where('c.store_id', '=', storeId)
    .select([
      'c.collection_id',
      'c.handle',
      'c.title',
      'c.description',
      'c.image',
      'c.created_at',
      'c.updated_at',
      cursorTimestamp('c.created_at').as('cursor_ts'),
      sql<string[]>`array(
        select cp.product_id from collection_products cp
        join products p on p.product_id = cp.product_id and p.store_id = cp.store_id
        where cp.collection_id = c.collection_id and cp.store_id = c.store_id
        order by cp.position, cp.product_id)`.as('product_ids'),
    ])
}

type CollectionRow = Awaited<ReturnType<ReturnType<typeof collectionSelect>['execute']>>[number]

export function toCollection(baseUrl: string, row: CollectionRow): Collection {
  return {
    id: row.collection_id,
    handle: row.handle,
    title: row.title,
    description: row.description,
    image: toImage(baseUrl, row.image),
    productIds: row.product_ids,
    productCount: row.product_ids.length,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }
}

export async function listCollections(
  ctx: ReadContext,
  storeId: string,
  args: PageArgs = {},
): Promise<Page<Collection>> {
  return paginate(ctx, args, {
    scope: { resource: COLLECTIONS_RESOURCE, storeId },
    query: collectionSelect(ctx.db, storeId),
    keys: { createdAt: 'c.created_at', id: 'c.collection_id', direction: 'asc', idOf: (r) => r.collection_id },
    map: (r) => toCollection(ctx.baseUrl, r),
  })
}

export async function getCollection(
  ctx: ReadContext,
  storeId: string,
  collectionId: string,
): Promise<Collection | null> {
  const row = await collectionSelect(ctx.db, storeId).where('c.collection_id', '=', collectionId).executeTakeFirst()
  return row ? toCollection(ctx.baseUrl, row) : null
}

// For the renderer: this store's collections among ids, in the order of ids; one statement.
export async function getCollectionsByIds(
  ctx: ReadContext,
  storeId: string,
  ids: readonly string[],
): Promise<Collection[]> {
  return loadInIdOrder(
    ids,
    (unique) => collectionSelect(ctx.db, storeId).where('c.collection_id', 'in', unique).execute(),
    (r) => r.collection_id,
    (r) => toCollection(ctx.baseUrl, r),
  )
}

// For theme validation: which of ids are collections of this store.
export async function existingCollectionIds(
  db: Kysely<Database>,
  storeId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  return existingIds(ids, async (unique) =>
    (
      await db
        .selectFrom('collections')
        .select('collection_id')
        .where('store_id', '=', storeId)
        .where('collection_id', 'in', unique)
        .execute()
    ).map((r) => r.collection_id),
  )
}
