import { type MediaFile, parseMediaFile } from '../images/variants.ts'
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
  /** The newest product on sale: the product template is rendered with it (at its handle). */
  productId: string | null
  productHandle: string | null
  /** The collection with the most products on sale: the collection template is rendered with it. */
  collectionId: string | null
  collectionHandle: string | null
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
      .select(['product_id', 'handle'])
      .where('store_id', '=', storeId)
      .where('status', '=', 'active')
      .orderBy('created_at', 'desc')
      .orderBy('product_id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    ctx.db
      .selectFrom('collections as c')
      .select(['c.collection_id', 'c.handle', visibleMembers.as('visible')])
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
    productHandle: newest?.handle ?? null,
    collectionId: largest?.collection_id ?? null,
    collectionHandle: largest?.handle ?? null,
  }
}

/** The media-library file a site-relative URL names (an original or one of its copies), or null. */
export function mediaFileOf(url: string): MediaFile | null {
  const path = url.split(/[?#]/)[0]!
  return path.startsWith('/media/') ? parseMediaFile(path.slice('/media/'.length)) : null
}

/** The content hash of the original a media URL shows (the original itself or a copy of it), or null. */
export const mediaHash = (url: string): string | null => mediaFileOf(url)?.sha256 ?? null

/**
 * Bytes of the media files a page loads, by URL: an original's as stored; a copy's as stored once
 * made, and before that the original's bytes scaled to the copy's area (copies are made on a
 * shopper's first request, never by a check; AVIF and WebP copies weigh less than that bound).
 */
export async function mediaFileSizes(ctx: ReadContext, urls: readonly string[]): Promise<Map<string, number>> {
  const files = urls.flatMap((url) => {
    const file = mediaFileOf(url)
    return file ? [{ url, file }] : []
  })
  if (files.length === 0) return new Map()
  const hashes = [...new Set(files.map((f) => f.file.sha256))]
  const originals = new Map(
    (
      await ctx.db
        .selectFrom('media_blobs')
        .select(['sha256', 'byte_size', 'width'])
        .where('sha256', 'in', hashes)
        .execute()
    ).map((r) => [r.sha256, r]),
  )
  const made = new Map(
    (
      await ctx.db
        .selectFrom('media_derivatives')
        .select(['sha256', 'width', 'format', 'byte_size'])
        .where('sha256', 'in', hashes)
        .where('byte_size', 'is not', null)
        .execute()
    ).map((r) => [`${r.sha256}-${r.width}.${r.format}`, r.byte_size!]),
  )
  const out = new Map<string, number>()
  for (const { url, file } of files) {
    const original = originals.get(file.sha256)
    if (!original) continue
    if (file.kind === 'original') {
      out.set(url, original.byte_size)
      continue
    }
    const stored = made.get(`${file.sha256}-${file.width}.${file.format}`)
    const scale = original.width ? Math.min(1, file.width / original.width) ** 2 : 1
    out.set(url, stored ?? Math.round(original.byte_size * scale))
  }
  return out
}
