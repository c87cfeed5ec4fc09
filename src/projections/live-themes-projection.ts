import type { QueryCreator } from 'kysely'
import type { StoreThemesEvent } from '../aggregates/store-themes/events.ts'
import type { Database } from '../db/database.ts'
import { byStream, defineProjection } from './projection.ts'

// Prepared: migration 0012.
const PREPARED_UPSERT = 'select sfts_project_live_themes_upsert($1, $2, $3, $4)'

type LiveThemeChanged = Extract<StoreThemesEvent, { type: 'LiveThemeChanged' }>

// The live theme of each store: what the storefront renders.
export const liveThemesProjection = defineProjection<LiveThemeChanged>({
  name: 'live_themes',
  tables: ['live_themes'],
  handles: ['LiveThemeChanged'],
  async apply(db: QueryCreator<Database>, events) {
    for (const [, list] of byStream(events)) {
      const last = list.at(-1)!
      await db
        .insertInto('live_themes')
        .values({
          store_id: last.storeId,
          theme_id: last.data.themeId,
          stream_version: last.streamVersion,
          changed_at: last.data.at,
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
    return [...byStream(events).values()].map((list) => {
      const last = list.at(-1)!
      return {
        sql: PREPARED_UPSERT,
        payload: JSON.stringify({
          store_id: last.storeId,
          theme_id: last.data.themeId,
          changed_at: last.data.at,
          ord: last.ord,
        }),
      }
    })
  },
})
