import type { QueryCreator } from 'kysely'
import { NAVIGATION_EVENT_TYPES, type NavigationEvent } from '../aggregates/navigation/events.ts'
import type { Database } from '../db/database.ts'
import { byStream, defineProjection } from './projection.ts'

// Prepared (migration 0012): two statements run one after the other by the append, as `apply`
// does: drop the menus older than the event, then insert its menus unless newer ones are still there.
const PREPARED_DELETE = 'select sfts_project_navigation_delete($1, $2, $3, $4)'
const PREPARED_INSERT = 'select sfts_project_navigation_insert($1, $2, $3, $4)'

// The store's navigation menus. Each event carries the full set of menus.
export const navigationProjection = defineProjection<NavigationEvent>({
  name: 'navigation_menus',
  tables: ['navigation_menus'],
  handles: NAVIGATION_EVENT_TYPES,
  async apply(db: QueryCreator<Database>, events) {
    for (const [, list] of byStream(events)) {
      const last = list.at(-1)!
      const current = await db
        .selectFrom('navigation_menus')
        .select('stream_version')
        .where('store_id', '=', last.storeId)
        .executeTakeFirst()
      if (current && current.stream_version >= last.streamVersion) continue
      const { menus, at } = last.data
      await db.deleteFrom('navigation_menus').where('store_id', '=', last.storeId).execute()
      if (menus.length === 0) continue
      await db
        .insertInto('navigation_menus')
        .values(
          menus.map((m) => ({
            store_id: last.storeId,
            handle: m.handle,
            title: m.title,
            items: JSON.stringify(m.items),
            stream_version: last.streamVersion,
            updated_at: at,
          })),
        )
        .execute()
    }
  },
  prepare({ events }) {
    const writes = []
    for (const [, list] of byStream(events)) {
      const last = list.at(-1)!
      const { menus, at } = last.data
      const payload = JSON.stringify({ store_id: last.storeId, ord: last.ord, updated_at: at, menus })
      writes.push({ sql: PREPARED_DELETE, payload }, { sql: PREPARED_INSERT, payload })
    }
    return writes
  },
})
