import type { QueryCreator } from 'kysely'
import type { Database } from '../db/database.ts'
import { streams, type NavigationEvent } from '../events/theme-events.ts'
import { groupByStream, type Projection } from './projection.ts'

// The store's navigation menus. Each event carries the full set of menus.
export const navigationProjection: Projection = {
  name: 'navigation_menus',
  tables: ['navigation_menus'],
  async apply(db: QueryCreator<Database>, events) {
    for (const [, list] of groupByStream(events, streams.navigation.prefix)) {
      const last = list.at(-1)!
      const current = await db.selectFrom('navigation_menus').select('stream_version').where('store_id', '=', last.storeId).executeTakeFirst()
      if (current && current.stream_version >= last.streamVersion) continue
      const { menus, at } = (last as unknown as NavigationEvent).data
      await db.deleteFrom('navigation_menus').where('store_id', '=', last.storeId).execute()
      if (menus.length === 0) continue
      await db
        .insertInto('navigation_menus')
        .values(menus.map((m) => ({ store_id: last.storeId, handle: m.handle, title: m.title, items: JSON.stringify(m.items), stream_version: last.streamVersion, updated_at: at })))
        .execute()
    }
  },
}
