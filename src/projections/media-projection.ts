import type { QueryCreator } from 'kysely'
import { MEDIA_EVENT_TYPES, type MediaEvent } from '../aggregates/media/events.ts'
import type { Database } from '../db/database.ts'
import { defineProjection } from './projection.ts'

const rowsOf = (events: readonly { storeId: string; data: MediaEvent['data'] }[]) =>
  events.map(({ storeId, data: d }) => ({
    asset_id: d.assetId,
    store_id: storeId,
    url: d.url,
    source: d.source,
    content_type: d.contentType,
    byte_size: d.byteSize,
    width: d.width,
    height: d.height,
    sha256: d.sha256,
    alt: d.alt,
    created_at: d.at,
  }))

// Prepared: migration 0012.
const PREPARED_INSERT = 'select sfts_project_media_insert($1, $2, $3, $4)'

// The store's registered media assets (the bytes of uploads live in media_blobs, not in events).
export const mediaProjection = defineProjection<MediaEvent>({
  name: 'media_assets',
  tables: ['media_assets'],
  handles: MEDIA_EVENT_TYPES,
  async apply(db: QueryCreator<Database>, events) {
    await db
      .insertInto('media_assets')
      .values(rowsOf(events))
      .onConflict((oc) => oc.column('asset_id').doNothing())
      .execute()
  },
  prepare({ events }) {
    return events.length === 0 ? [] : [{ sql: PREPARED_INSERT, payload: JSON.stringify(rowsOf(events)) }]
  },
})
