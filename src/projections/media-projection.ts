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

const PREPARED_INSERT = `
  insert into media_assets (asset_id, store_id, url, source, content_type, byte_size, width, height, sha256, alt, created_at)
  select r.asset_id, r.store_id, r.url, r.source, r.content_type, r.byte_size, r.width, r.height, r.sha256, r.alt, r.created_at
  from jsonb_populate_recordset(null::media_assets, $4) r
  on conflict (asset_id) do nothing`

// The store's registered media assets (the bytes of uploads live in media_blobs, not in events).
export const mediaProjection: Projection = {
  name: 'media_assets',
  tables: ['media_assets'],
  async apply(db: QueryCreator<Database>, events) {
    const rows = rowsOf(events)
    if (rows.length === 0) return
    await db.insertInto('media_assets').values(rows).onConflict((oc) => oc.column('asset_id').doNothing()).execute()
  },
  prepare({ events }) {
    const rows = rowsOf(events)
    return rows.length === 0 ? [] : [{ sql: PREPARED_INSERT, payload: JSON.stringify(rows) }]
  },
}
