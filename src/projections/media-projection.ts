import type { QueryCreator } from 'kysely'
import type { Database } from '../db/database.ts'
import type { MediaEvent } from '../events/theme-events.ts'
import type { Projection } from './projection.ts'

const rowsOf = (events: readonly { type: string; storeId: string; data: unknown }[]) =>
  events
    .filter((e) => e.type === 'MediaAssetRegistered')
    .map((e) => {
      const d = (e as unknown as MediaEvent).data
      return {
        asset_id: d.assetId,
        store_id: e.storeId,
        url: d.url,
        source: d.source,
        content_type: d.contentType,
        byte_size: d.byteSize,
        width: d.width,
        height: d.height,
        sha256: d.sha256,
        alt: d.alt,
        created_at: d.at,
      }
    })

// Prepared: migration 0012.
const PREPARED_INSERT = 'select sfts_project_media_insert($1, $2, $3, $4)'

// The store's registered media assets (the bytes of uploads live in media_blobs, not in events).
export const mediaProjection: Projection = {
  name: 'media_assets',
  tables: ['media_assets'],
  async apply(db: QueryCreator<Database>, events) {
    const rows = rowsOf(events)
    if (rows.length === 0) return
    await db
      .insertInto('media_assets')
      .values(rows)
      .onConflict((oc) => oc.column('asset_id').doNothing())
      .execute()
  },
  prepare({ events }) {
    const rows = rowsOf(events)
    return rows.length === 0 ? [] : [{ sql: PREPARED_INSERT, payload: JSON.stringify(rows) }]
  },
}
