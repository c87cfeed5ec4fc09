import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { pgArray } from '../db/pg-array.ts'
import type { Position } from '../events/event-store.ts'
import { START } from '../events/event-store.ts'
import type { PostgresEventStore as EventStore } from '../events/postgres-event-store.ts'
import { codeVersion } from './lag.ts'
import type { Projection } from './projection.ts'

// One store's rows of one projection rebuilt from that store's events, while every other store
// keeps reading and writing (docs/decisions/0161-per-store-rebuilds.md).
//
// 1. Build: on one connection, into temporary tables (`create temp table … like`, gone with the
//    session), from `readAll({ storeId })` in commit order (the store's index: no other store's
//    event is read).
// 2. Swap, in one transaction: take the append locks of every stream of the store
//    (event_store_lock_streams, the very locks every append takes first), so the store's writers
//    wait for the swap, and its writers already in flight have committed; delete the store's live
//    rows, insert the built ones, then apply the store's events committed after the build's last
//    position (the tail) to the live rows. Other stores' rows and locks are not touched.
//    A write that opens a new stream of the store (a new theme, order, menu: no lock to wait on)
//    during the swap writes rows the swap does not hold: committed before the tail is read it is
//    in the tail; later, its own inline projection writes its rows after the swap's delete.
// 3. Record which code version built the store's rows (`projection_store_versions`), for
//    `projections:status --store`, and notify the store's caches.

export type StoreRebuildResult = { projection: string; storeId: string; events: number; rows: number; tail: number }

export async function rebuildStoreProjection(
  db: Kysely<Database>,
  eventStore: EventStore,
  projection: Projection,
  storeId: string,
  options: { batchSize?: number; onProgress?: (applied: number) => void } = {},
): Promise<StoreRebuildResult> {
  const batchSize = options.batchSize ?? 2000
  return db.connection().execute(async (conn) => {
    try {
      return await build(conn)
    } catch (error) {
      for (const table of projection.tables)
        await sql`drop table if exists ${sql.id('pg_temp', table)}`.execute(conn).catch(() => {})
      throw error
    }
  })

  async function build(conn: Kysely<Database>): Promise<StoreRebuildResult> {
    for (const table of projection.tables) {
      await sql`drop table if exists ${sql.id('pg_temp', table)}`.execute(conn)
      await sql`create temp table ${sql.id(table)} (like ${sql.id('public', table)} including all)`.execute(conn)
    }
    const built = conn.withSchema('pg_temp')
    let position: Position = START
    let events = 0
    for (;;) {
      const page = await eventStore.readAll({ after: position, limit: batchSize, storeId }, conn)
      if (page.events.length === 0) break
      await projection.apply(built, page.events)
      events += page.events.length
      position = page.position
      options.onProgress?.(events)
    }

    const swapped = await conn.transaction().execute(async (trx) => {
      const { rows: streams } = await sql<{ stream_id: string }>`
        select stream_id from streams where store_id = ${storeId}`.execute(trx)
      await sql`select event_store_lock_streams(${pgArray(streams.map((s) => s.stream_id))}::text[])`.execute(trx)
      let rows = 0
      for (const table of projection.tables) {
        await sql`delete from ${sql.id('public', table)} where store_id = ${storeId}`.execute(trx)
        const inserted =
          await sql`insert into ${sql.id('public', table)} select * from ${sql.id('pg_temp', table)}`.execute(trx)
        rows += Number(inserted.numAffectedRows ?? 0)
        // pg_temp comes first in this session's search path: gone, no later statement can write it.
        await sql`drop table ${sql.id('pg_temp', table)}`.execute(trx)
      }
      // Under the store's locks its appends to existing streams have committed: the tail is read
      // whole, without the running-transaction horizon (a writer of a new stream still running is
      // applied by its own inline projection).
      let tail = 0
      for (;;) {
        const page = await eventStore.readAll(
          { after: position, limit: batchSize, storeId, ignoreRunningTransactions: true },
          trx,
        )
        if (page.events.length === 0) break
        await projection.apply(trx.withSchema('public'), page.events)
        tail += page.events.length
        position = page.position
      }
      await sql`
        insert into projection_store_versions (name, store_id, code_version, events, built_at)
        values (${projection.name}, ${storeId}, ${codeVersion(projection)}, ${events + tail}, now())
        on conflict (name, store_id) do update set code_version = excluded.code_version, events = excluded.events, built_at = now()`.execute(
        trx,
      )
      await sql`select pg_notify('sfts_storefront', ${`${storeId}|rebuild`})`.execute(trx)
      return { rows, tail }
    })
    return {
      projection: projection.name,
      storeId,
      events: events + swapped.tail,
      rows: swapped.rows,
      tail: swapped.tail,
    }
  }
}

export type StoreProjectionState = {
  name: string
  storeId: string
  // The store's events in the log, and its rows in the projection's tables now.
  events: number
  rows: number
  builtVersion: number
  codeVersion: number
  rebuildNeeded: boolean
  // When a per-store rebuild last swapped the store's rows in (null: built with the whole table).
  rebuiltAt: Date | null
}

// `projections:status --store <id>`: per projection, the store's events and rows, and which code
// version built its rows (its own per-store rebuild's, or else the whole table's).
export async function storeProjectionStates(
  db: Kysely<Database>,
  list: readonly Projection[],
  storeId: string,
): Promise<StoreProjectionState[]> {
  const events = Number(
    (await sql<{ n: string }>`select count(*)::text as n from events where store_id = ${storeId}`.execute(db)).rows[0]
      ?.n ?? 0,
  )
  const { rows: perStore } = await sql<{ name: string; code_version: number; built_at: Date }>`
    select name, code_version, built_at from projection_store_versions where store_id = ${storeId}`.execute(db)
  const { rows: whole } = await sql<{ name: string; code_version: number }>`
    select name, code_version from projection_versions`.execute(db)
  const states: StoreProjectionState[] = []
  for (const p of list) {
    let rows = 0
    for (const table of p.tables)
      rows += Number(
        (
          await sql<{
            n: string
          }>`select count(*)::text as n from ${sql.id('public', table)} where store_id = ${storeId}`.execute(db)
        ).rows[0]?.n ?? 0,
      )
    const own = perStore.find((r) => r.name === p.name)
    const builtVersion = own?.code_version ?? whole.find((r) => r.name === p.name)?.code_version ?? 1
    states.push({
      name: p.name,
      storeId,
      events,
      rows,
      builtVersion,
      codeVersion: codeVersion(p),
      rebuildNeeded: builtVersion !== codeVersion(p),
      rebuiltAt: own ? new Date(own.built_at) : null,
    })
  }
  return states
}
