import { z } from 'zod'
import { absoluteUrl, type ReadContext } from './read-context.ts'
import { cursorTimestamp, decodeCursor, keysetAfter, resolveLimit, toPage, type Page, type PageArgs } from './pagination.ts'

export const MEDIA_RESOURCE = 'media'

export const mediaAssetSchema = z.object({
  id: z.string(),
  url: z.string().meta({ description: 'Absolute URL, to look at the image.' }),
  themeUrl: z.string().meta({ description: 'The value to put in theme image settings (section images, logo): a site-relative path for uploads, the https URL for registered URLs.' }),
  source: z.enum(['upload', 'url']),
  contentType: z.string().nullable(),
  byteSize: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  alt: z.string(),
  createdAt: z.string(),
})
export type MediaAssetView = z.output<typeof mediaAssetSchema>

type Row = { asset_id: string; url: string; source: 'upload' | 'url'; content_type: string | null; byte_size: number | null; width: number | null; height: number | null; alt: string; created_at: Date; cursor_ts: string }

export function mediaAssetView(baseUrl: string, a: { assetId: string; url: string; source: 'upload' | 'url'; contentType: string | null; byteSize: number | null; width: number | null; height: number | null; alt: string; createdAt: string }): MediaAssetView {
  return { id: a.assetId, url: absoluteUrl(baseUrl, a.url), themeUrl: a.url, source: a.source, contentType: a.contentType, byteSize: a.byteSize, width: a.width, height: a.height, alt: a.alt, createdAt: a.createdAt }
}

// Oldest first by (created_at, id), like products and collections.
export async function listMediaAssets(ctx: ReadContext, storeId: string, args: PageArgs = {}): Promise<Page<MediaAssetView>> {
  const limit = resolveLimit(args.limit)
  const scope = { resource: MEDIA_RESOURCE, storeId }
  const after = args.cursor === undefined ? null : decodeCursor(ctx.cursorSecret, scope, args.cursor)
  let q = ctx.db
    .selectFrom('media_assets as m')
    .select(['m.asset_id', 'm.url', 'm.source', 'm.content_type', 'm.byte_size', 'm.width', 'm.height', 'm.alt', 'm.created_at', cursorTimestamp('m.created_at').as('cursor_ts')])
    .where('m.store_id', '=', storeId)
  if (after) q = q.where(keysetAfter('m.created_at', 'm.asset_id', 'asc', after))
  const rows = (await q.orderBy('m.created_at', 'asc').orderBy('m.asset_id', 'asc').limit(limit + 1).execute()) as Row[]
  return toPage(rows, limit, {
    secret: ctx.cursorSecret,
    scope,
    position: (r) => ({ createdAt: r.cursor_ts, id: r.asset_id }),
    map: (r) => mediaAssetView(ctx.baseUrl, { assetId: r.asset_id, url: r.url, source: r.source, contentType: r.content_type, byteSize: r.byte_size, width: r.width, height: r.height, alt: r.alt, createdAt: new Date(r.created_at).toISOString() }),
  })
}
