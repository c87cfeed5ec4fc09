import type { QueryCreator } from 'kysely'
import type { Database } from '../db/database.ts'
import { streams, type NavigationEvent } from '../events/theme-events.ts'
import { groupByStream, groupPending, type Projection } from './projection.ts'

// Prepared: two statements run one after the other by the append, as `apply` does: drop the menus
// older than the event, then insert its menus unless newer ones are still there.
const PREPARED_DELETE = `
  delete from navigation_menus m
  using jsonb_to_record($4) as r(store_id text, ord integer)
  where m.store_id = r.store_id and m.stream_version < $2[r.ord]`
const PREPARED_INSERT = `
  insert into navigation_menus (store_id, handle, title, items, stream_version, updated_at)
  select r.store_id, x.handle, x.title, x.items, $2[r.ord], r.updated_at
  from jsonb_to_record($4) as r(store_id text, ord integer, updated_at timestamptz, menus jsonb)
  cross join jsonb_to_recordset(r.menus) as x(handle text, title text, items jsonb)
  where not exists (select 1 from navigation_menus m where m.store_id = r.store_id)`

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
  prepare({ events }) {
    const writes = []
    for (const [, list] of groupPending(events, streams.navigation.prefix)) {
      const last = list.at(-1)!
      const { menus, at } = (last as unknown as NavigationEvent).data
      const payload = JSON.stringify({ store_id: last.storeId, ord: last.ord, updated_at: at, menus })
      writes.push({ sql: PREPARED_DELETE, payload }, { sql: PREPARED_INSERT, payload })
    }
    return writes
  },
}
