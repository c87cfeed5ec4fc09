import { z } from 'zod'
import { absoluteUrl, type ReadContext } from './read-context.ts'
import { cursorTimestamp, paginate, type Page, type PageArgs } from './pagination.ts'

export const MEDIA_RESOURCE = 'media'

export const mediaAssetSchema = z.object({
  id: z.string(),
  url: z.string().meta({ description: 'Absolute URL, to look at the image.' }),
  themeUrl: z.string().meta({
    description:
      'The value to put in theme image settings (section images, logo): a site-relative path for uploads, the https URL for registered URLs.',
  }),
  source: z.enum(['upload', 'url']),
  contentType: z.string().nullable(),
  byteSize: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  alt: z.string(),
  createdAt: z.string(),
})
export type MediaAssetView = z.output<typeof mediaAssetSchema>

export function mediaAssetView(
  baseUrl: string,
  a: {
    assetId: string
    url: string
    source: 'upload' | 'url'
    contentType: string | null
    byteSize: number | null
    width: number | null
    height: number | null
    alt: string
    createdAt: string
  },
): MediaAssetView {
  return {
    id: a.assetId,
    url: absoluteUrl(baseUrl, a.url),
    themeUrl: a.url,
    source: a.source,
    contentType: a.contentType,
    byteSize: a.byteSize,
    width: a.width,
    height: a.height,
    alt: a.alt,
    createdAt: a.createdAt,
  }
}

// Oldest first by (created_at, id), like products and collections.
export async function listMediaAssets(
  ctx: ReadContext,
  storeId: string,
  args: PageArgs = {},
): Promise<Page<MediaAssetView>> {
  const query = ctx.db
    .selectFrom('media_assets as m')
    .select([
      'm.asset_id',
      'm.url',
      'm.source',
      'm.content_type',
      'm.byte_size',
      'm.width',
      'm.height',
      'm.alt',
      'm.created_at',
      cursorTimestamp('m.created_at').as('cursor_ts'),
    ])
    .where('m.store_id', '=', storeId)
  return paginate(ctx, args, {
    scope: { resource: MEDIA_RESOURCE, storeId },
    query,
    keys: { createdAt: 'm.created_at', id: 'm.asset_id', direction: 'asc', idOf: (r) => r.asset_id },
    map: (r) =>
      mediaAssetView(ctx.baseUrl, {
        assetId: r.asset_id,
        url: r.url,
        source: r.source,
        contentType: r.content_type,
        byteSize: r.byte_size,
        width: r.width,
        height: r.height,
        alt: r.alt,
        createdAt: new Date(r.created_at).toISOString(),
      }),
  })
}
