import type { QueryCreator } from 'kysely'
import type { Database } from '../db/database.ts'
import { streams, type StoreThemesEvent } from '../events/theme-events.ts'
import { groupByStream, groupPending, type Projection } from './projection.ts'

// Prepared: migration 0012.
const PREPARED_UPSERT = 'select sfts_project_live_themes_upsert($1, $2, $3, $4)'

// The live theme of each store: what the storefront renders.
export const liveThemesProjection: Projection = {
  name: 'live_themes',
  tables: ['live_themes'],
  async apply(db: QueryCreator<Database>, events) {
    for (const [, list] of groupByStream(events, streams.storeThemes.prefix)) {
      const last = [...list].reverse().find((e) => e.type === 'LiveThemeChanged')
      if (!last) continue
      const data = (last as unknown as StoreThemesEvent & { type: 'LiveThemeChanged' }).data
      await db
        .insertInto('live_themes')
        .values({
          store_id: last.storeId,
          theme_id: data.themeId,
          stream_version: last.streamVersion,
          changed_at: data.at,
        })
        .onConflict((oc) =>
          oc
            .column('store_id')
            .doUpdateSet((eb) => ({
              theme_id: eb.ref('excluded.theme_id'),
              stream_version: eb.ref('excluded.stream_version'),
              changed_at: eb.ref('excluded.changed_at'),
            }))
            .where('live_themes.stream_version', '<', (eb) => eb.ref('excluded.stream_version')),
        )
        .execute()
    }
  },
  prepare({ events }) {
    const writes = []
    for (const [, list] of groupPending(events, streams.storeThemes.prefix)) {
      const last = [...list].reverse().find((e) => e.type === 'LiveThemeChanged')
      if (!last) continue
      const data = last.data as (StoreThemesEvent & { type: 'LiveThemeChanged' })['data']
      writes.push({
        sql: PREPARED_UPSERT,
        payload: JSON.stringify({ store_id: last.storeId, theme_id: data.themeId, changed_at: data.at, ord: last.ord }),
      })
    }
    return writes
  },
}
