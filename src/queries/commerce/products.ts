import { sql, type Kysely } from 'kysely'
import { jsonArrayFrom } from 'kysely/helpers/postgres'
import type { Database } from '../../db/database.ts'
import { existingIds, loadInIdOrder } from '../by-ids.ts'
import { cursorTimestamp, paginate, type Page, type PageArgs } from '../pagination.ts'
import type { ReadContext } from '../read-context.ts'
import { iso, money, toImages } from './money.ts'
import type { Product, Variant } from './schemas.ts'

// Products with variants, price range, inventory summary and collection ids, read in one
// SQL statement per call (variants and collection ids are sub-selects), for one product or a
// batch of ids alike: no N+1. listProducts reads the precomputed cards instead (product-cards.ts),
// which are built from this query.
//
// Order of listProducts: (created_at, product_id) ascending: oldest first, the id breaks
// ties. Stable across pages and filters; the cursor is the last (created_at, id) returned.

export const PRODUCTS_RESOURCE = 'products'

export type ProductStatus = 'active' | 'draft' | 'archived'
export type ListProductsArgs = PageArgs & {
  collectionId?: string | undefined
  status?: ProductStatus | undefined
  query?: string | undefined // case-insensitive substring of the title
}

export function productSelect(db: Kysely<Database>, storeId: string) {
  return db
    .selectFrom('products as p')
    .innerJoin('stores as s', 's.store_id', 'p.store_id')
    .where('p.store_id', '=', storeId)
    .select([
      'p.product_id',
      'p.handle',
      'p.title',
      'p.description',
      'p.vendor',
      'p.product_type',
      'p.tags',
      'p.status',
      'p.images',
      'p.options',
      'p.created_at',
      'p.updated_at',
      's.currency',
      cursorTimestamp('p.created_at').as('cursor_ts'),
    ])
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('product_variants as v')
          .select([
            'v.variant_id',
            'v.title',
            'v.sku',
            'v.price_cents',
            'v.compare_at_cents',
            'v.inventory_quantity',
            'v.options',
            'v.position',
          ])
          .whereRef('v.product_id', '=', 'p.product_id')
          .whereRef('v.store_id', '=', 'p.store_id')
          .orderBy('v.position')
          .orderBy('v.variant_id'),
      ).as('variants'),
      sql<string[]>`array(
        select cp.collection_id from collection_products cp
        join collections c on c.collection_id = cp.collection_id and c.store_id = cp.store_id
        where cp.product_id = p.product_id and cp.store_id = p.store_id
        order by c.created_at, c.collection_id)`.as('collection_ids'),
    ])
}

export type ProductRow = Awaited<ReturnType<ReturnType<typeof productSelect>['execute']>>[number]

function toVariantOptions(v: unknown): { name: string; value: string }[] {
  if (!Array.isArray(v)) return []
  return v.flatMap((o) =>
    o && typeof o.name === 'string' && typeof o.value === 'string' ? [{ name: o.name, value: o.value }] : [],
  )
}

function toProductOptions(v: unknown): { name: string; values: string[] }[] {
  if (!Array.isArray(v)) return []
  return v.flatMap((o) =>
    o && typeof o.name === 'string' && Array.isArray(o.values)
      ? [{ name: o.name, values: o.values.filter((x: unknown): x is string => typeof x === 'string') }]
      : [],
  )
}

export function toProduct(baseUrl: string, row: ProductRow): Product {
  const currency = row.currency
  const active = row.status === 'active'
  const variants: Variant[] = row.variants.map((v) => ({
    id: v.variant_id,
    title: v.title,
    sku: v.sku,
    price: money(v.price_cents, currency),
    compareAtPrice: v.compare_at_cents === null ? null : money(v.compare_at_cents, currency),
    inventoryQuantity: v.inventory_quantity,
    availableForSale: active && v.inventory_quantity > 0,
    options: toVariantOptions(v.options),
    position: v.position,
  }))
  const prices = row.variants.map((v) => v.price_cents)
  const compareAts = row.variants.flatMap((v) => (v.compare_at_cents === null ? [] : [v.compare_at_cents]))
  const inStockCount = row.variants.filter((v) => v.inventory_quantity > 0).length
  const images = toImages(baseUrl, row.images)
  return {
    id: row.product_id,
    handle: row.handle,
    title: row.title,
    description: row.description,
    vendor: row.vendor,
    productType: row.product_type,
    tags: row.tags,
    status: row.status,
    visibleOnStorefront: active,
    availableForSale: active && inStockCount > 0,
    featuredImage: images[0] ?? null,
    images,
    options: toProductOptions(row.options),
    variants,
    priceRange: prices.length
      ? { min: money(Math.min(...prices), currency), max: money(Math.max(...prices), currency) }
      : null,
    compareAtPriceRange: compareAts.length
      ? { min: money(Math.min(...compareAts), currency), max: money(Math.max(...compareAts), currency) }
      : null,
    inventory: {
      totalQuantity: row.variants.reduce((sum, v) => sum + Math.max(0, v.inventory_quantity), 0),
      inStock: inStockCount > 0,
      variantsInStock: inStockCount,
      variantsTotal: row.variants.length,
    },
    collectionIds: row.collection_ids,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }
}

export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`)

// The same list assembled from the commerce tables on every call: what product_cards is built
// from, kept as the reference the read model is tested against.
export async function listProductsFromTables(
  ctx: ReadContext,
  storeId: string,
  args: ListProductsArgs = {},
): Promise<Page<Product>> {
  let q = productSelect(ctx.db, storeId)
  if (args.status !== undefined) q = q.where('p.status', '=', args.status)
  if (args.query !== undefined && args.query.trim() !== '')
    q = q.where(sql<boolean>`p.title ilike ${`%${escapeLike(args.query.trim())}%`}`)
  if (args.collectionId !== undefined) {
    const collectionId = args.collectionId
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('collection_products as f')
          .select('f.product_id')
          .whereRef('f.product_id', '=', 'p.product_id')
          .where('f.collection_id', '=', collectionId)
          .where('f.store_id', '=', storeId),
      ),
    )
  }
  return paginate(ctx, args, {
    scope: { resource: PRODUCTS_RESOURCE, storeId },
    query: q,
    keys: { createdAt: 'p.created_at', id: 'p.product_id', direction: 'asc', idOf: (r) => r.product_id },
    map: (r) => toProduct(ctx.baseUrl, r),
  })
}

export async function getProduct(ctx: ReadContext, storeId: string, productId: string): Promise<Product | null> {
  const row = await productSelect(ctx.db, storeId).where('p.product_id', '=', productId).executeTakeFirst()
  return row ? toProduct(ctx.baseUrl, row) : null
}

// For the renderer: the products of this store among ids, in the order of ids (first
// occurrence), unknown and foreign ids left out. One statement.
export async function getProductsByIds(ctx: ReadContext, storeId: string, ids: readonly string[]): Promise<Product[]> {
  return loadInIdOrder(
    ids,
    (unique) => productSelect(ctx.db, storeId).where('p.product_id', 'in', unique).execute(),
    (r) => r.product_id,
    (r) => toProduct(ctx.baseUrl, r),
  )
}

// For theme validation: which of ids are products of this store (any status).
export async function existingProductIds(
  db: Kysely<Database>,
  storeId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  return existingIds(ids, async (unique) =>
    (
      await db
        .selectFrom('products')
        .select('product_id')
        .where('store_id', '=', storeId)
        .where('product_id', 'in', unique)
        .execute()
    ).map((r) => r.product_id),
  )
}
