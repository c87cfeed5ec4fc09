// The reads of the theme checks (src/checks/checker.ts): the store's catalogue version and slug,
// the products and collections a theme names (by id or by handle), which product and collection
// the checks render the templates with, and media sizes. Everything is scoped by store id, except
// media blobs, which are content-addressed and shared (see commerce/media-blobs.ts).
import { sql } from 'kysely'
import type { ReadContext } from './read-context.ts'

export type ChecksProbe = { slug: string; catalogVersion: number; menusVersion: number }

/** What decides whether the checks' cached catalogue and store view are still current. */
export async function checksProbe(ctx: ReadContext, storeId: string): Promise<ChecksProbe | null> {
  const row = await ctx.db
    .selectFrom('stores as s')
    .select([
      's.slug',
      's.catalog_version',
      sql<number>`coalesce((select max(n.stream_version) from navigation_menus n where n.store_id = s.store_id), 0)`.as(
        'menus_version',
      ),
    ])
    .where('s.store_id', '=', storeId)
    .executeTakeFirst()
  return row ? { slug: row.slug, catalogVersion: row.catalog_version, menusVersion: Number(row.menus_version) } : null
}

export type ProductFactRow = {
  id: string
  handle: string
  title: string
  status: 'active' | 'draft' | 'archived'
  imagesWithoutAlt: number
}

const altless = (images: unknown): number =>
  Array.isArray(images)
    ? images.filter((i) => i && typeof i === 'object' && String((i as { alt?: unknown }).alt ?? '').trim() === '')
        .length
    : 0

/** The store's products whose id or handle is among keys. */
export async function productFacts(
  ctx: ReadContext,
  storeId: string,
  keys: readonly string[],
): Promise<ProductFactRow[]> {
  if (keys.length === 0) return []
  const unique = [...new Set(keys)]
  const rows = await ctx.db
    .selectFrom('products')
    .select(['product_id', 'handle', 'title', 'status', 'images'])
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb('product_id', 'in', unique), eb('handle', 'in', unique)]))
    .execute()
  return rows.map((r) => ({
    id: r.product_id,
    handle: r.handle,
    title: r.title,
    status: r.status,
    imagesWithoutAlt: altless(r.images),
  }))
}

export type CollectionFactRow = { id: string; handle: string; title: string; visibleProducts: number }

const visibleMembers = sql<number>`(select count(*) from collection_products cp
  join products p on p.product_id = cp.product_id and p.store_id = cp.store_id
  where cp.collection_id = c.collection_id and cp.store_id = c.store_id and p.status = 'active')`

/** The store's collections whose id or handle is among keys, with how many of their products are on sale. */
export async function collectionFacts(
  ctx: ReadContext,
  storeId: string,
  keys: readonly string[],
): Promise<CollectionFactRow[]> {
  if (keys.length === 0) return []
  const unique = [...new Set(keys)]
  const rows = await ctx.db
    .selectFrom('collections as c')
    .select(['c.collection_id', 'c.handle', 'c.title', visibleMembers.as('visible')])
    .where('c.store_id', '=', storeId)
    .where((eb) => eb.or([eb('c.collection_id', 'in', unique), eb('c.handle', 'in', unique)]))
    .execute()
  return rows.map((r) => ({
    id: r.collection_id,
    handle: r.handle,
    title: r.title,
    visibleProducts: Number(r.visible),
  }))
}

export type RenderSubjects = {
  /** Products on sale in the store. */
  visibleProducts: number
  /** The newest product on sale: the product template is rendered with it. */
  productId: string | null
  /** The collection with the most products on sale: the collection template is rendered with it. */
  collectionId: string | null
}

export async function renderSubjects(ctx: ReadContext, storeId: string): Promise<RenderSubjects> {
  const [counted, newest, largest] = await Promise.all([
    ctx.db
      .selectFrom('products')
      .select(sql<number>`count(*)`.as('n'))
      .where('store_id', '=', storeId)
      .where('status', '=', 'active')
      .executeTakeFirst(),
    ctx.db
      .selectFrom('products')
      .select('product_id')
      .where('store_id', '=', storeId)
      .where('status', '=', 'active')
      .orderBy('created_at', 'desc')
      .orderBy('product_id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    ctx.db
      .selectFrom('collections as c')
      .select(['c.collection_id', visibleMembers.as('visible')])
      .where('c.store_id', '=', storeId)
      .orderBy('visible', 'desc')
      .orderBy('c.created_at')
      .orderBy('c.collection_id')
      .limit(1)
      .executeTakeFirst(),
  ])
  return {
    visibleProducts: Number(counted?.n ?? 0),
    productId: newest?.product_id ?? null,
    collectionId: largest?.collection_id ?? null,
  }
}

/** Byte sizes of media blobs by content hash (what GET /media/<sha256>.<ext> sends). */
export async function mediaSizes(ctx: ReadContext, hashes: readonly string[]): Promise<Map<string, number>> {
  const unique = [...new Set(hashes)].filter((h) => /^[0-9a-f]{64}$/.test(h))
  if (unique.length === 0) return new Map()
  const rows = await ctx.db
    .selectFrom('media_blobs')
    .select(['sha256', 'byte_size'])
    .where('sha256', 'in', unique)
    .execute()
  return new Map(rows.map((r) => [r.sha256, r.byte_size]))
}

/** The content hash of a media URL the storefront serves (/media/<sha256>.<ext>), or null. */
export function mediaHash(url: string): string | null {
  return /^\/media\/([0-9a-f]{64})\.(?:png|jpe?g|gif|webp|avif)(?:[?#].*)?$/.exec(url)?.[1] ?? null
}
