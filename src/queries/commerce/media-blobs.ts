import type { Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'

// Image bytes for GET /media/<sha256>.<ext>. Blobs are content-addressed and shared by all
// stores (a URL only reveals the hash of public catalog imagery), so there is no store filter.

export type MediaBlob = {
  sha256: string
  contentType: string
  byteSize: number
  width: number | null
  height: number | null
  bytes: Uint8Array
  createdAt: Date
}

const SHA256_HEX = /^[0-9a-f]{64}$/

// null for an unknown hash or anything that is not 64 lowercase hex characters.
export async function getMediaBlob(db: Kysely<Database>, sha256: string): Promise<MediaBlob | null> {
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) return null
  const row = await db
    .selectFrom('media_blobs')
    .select(['sha256', 'content_type', 'byte_size', 'width', 'height', 'bytes', 'created_at'])
    .where('sha256', '=', sha256)
    .executeTakeFirst()
  if (!row) return null
  return {
    sha256: row.sha256,
    contentType: row.content_type,
    byteSize: row.byte_size,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    createdAt: row.created_at,
  }
}
