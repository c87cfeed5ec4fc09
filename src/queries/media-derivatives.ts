import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { DerivativeFormat } from '../images/variants.ts'

// Reads of the media library's originals' sizes and of their stored copies
// (src/operations/media-derivatives.ts makes the copies). Blobs and copies are content-addressed
// and shared by all stores, like GET /media itself.

export type DerivativeKey = { sha256: string; width: number; format: DerivativeFormat }
export type StoredDerivative = { contentType: string; bytes: Uint8Array }
export type MediaSize = { contentType: string; width: number | null; height: number | null }

/** A copy's bytes, or null while it is not made (no row, or only a claim). */
export async function storedDerivative(db: Kysely<Database>, key: DerivativeKey): Promise<StoredDerivative | null> {
  const row = await db
    .selectFrom('media_derivatives')
    .select(['content_type', 'bytes'])
    .where('sha256', '=', key.sha256)
    .where('width', '=', key.width)
    .where('format', '=', key.format)
    .executeTakeFirst()
  return row?.bytes ? { contentType: row.content_type, bytes: row.bytes } : null
}

/** Type and pixel size of originals by content hash (what a page needs for srcset, width and height). */
export async function mediaSizes(db: Kysely<Database>, hashes: readonly string[]): Promise<Map<string, MediaSize>> {
  if (hashes.length === 0) return new Map()
  const rows = await db
    .selectFrom('media_blobs')
    .select(['sha256', 'content_type', 'width', 'height'])
    .where('sha256', 'in', [...hashes])
    .execute()
  return new Map(rows.map((r) => [r.sha256, { contentType: r.content_type, width: r.width, height: r.height }]))
}
