import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { Position } from '../events/event-store.ts'
import type { PostgresEventStore as EventStore } from '../events/postgres-event-store.ts'
import { recordBuiltVersion } from './lag.ts'
import type { Projection } from './projection.ts'
import { catchUp, readProjectionCheckpoint, writeCheckpoint } from './runner.ts'

const SHADOW = 'projection_rebuild'

export type RebuildOptions = { batchSize?: number; signal?: AbortSignal; onProgress?: (applied: number) => void }
export type RebuildResult = { projection: string; events: number; resumed: boolean; swapped: boolean }

async function shadowTablesExist(db: Kysely<Database>, tables: readonly string[]): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from information_schema.tables where table_schema = ${SHADOW} and table_name in (${sql.join(tables)})`.execute(
    db,
  )
  return Number(rows[0]?.n ?? 0) === tables.length
}

// Rebuilds a projection from position 0 without readers ever seeing empty tables: the new tables
// are built aside (resumable from their own checkpoint if the rebuild is killed), then swapped in
// one transaction under an EXCLUSIVE lock, which lets readers through and holds writers back.
export async function rebuildProjection(
  db: Kysely<Database>,
  eventStore: EventStore,
  projection: Projection,
  options: RebuildOptions = {},
): Promise<RebuildResult> {
  const checkpoint = `rebuild:${projection.name}`
  await sql`create schema if not exists ${sql.id(SHADOW)}`.execute(db)
  const resumed =
    (await readProjectionCheckpoint(db, checkpoint)) !== null && (await shadowTablesExist(db, projection.tables))
  if (!resumed) {
    for (const table of projection.tables) {
      await sql`drop table if exists ${sql.id(SHADOW, table)}`.execute(db)
      await sql`create table ${sql.id(SHADOW, table)} (like ${sql.id('public', table)} including all)`.execute(db)
      await copyStorageOptions(db, table)
    }
    await db.deleteFrom('projection_checkpoints').where('name', '=', checkpoint).execute()
  }

  const built = await catchUp(db, eventStore, projection, {
    checkpoint,
    schema: SHADOW,
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onBatch: (n: number) => options.onProgress!(n) } : {}),
  })
  if (options.signal?.aborted) return { projection: projection.name, events: built.applied, resumed, swapped: false }

  let finalEvents = 0
  await db.transaction().execute(async (trx) => {
    await sql`lock table ${sql.join(projection.tables.map((t) => sql.id('public', t)))} in exclusive mode`.execute(trx)
    // Under the lock every transaction that wrote the live tables has committed and every other
    // writer waits, so the tail can be read without the running-transaction horizon.
    const start = (await readProjectionCheckpoint(trx, checkpoint))!
    let position: Position = start
    for (;;) {
      const page = await eventStore.readAll({ after: position, limit: 1000, ignoreRunningTransactions: true }, trx)
      if (page.events.length === 0) break
      await projection.apply(trx.withSchema(SHADOW), page.events)
      finalEvents += page.events.length
      position = page.position
    }
    for (const table of projection.tables) {
      await sql`drop table ${sql.id('public', table)}`.execute(trx)
      await sql`alter table ${sql.id(SHADOW, table)} set schema public`.execute(trx)
    }
    // The swapped-in tables have no triggers (create table … like does not copy them): attach the
    // change notifications again (migration 0011), and tell every cache that anything may differ.
    await sql`select change_notifications_attach()`.execute(trx)
    await sql`select pg_notify('sfts_storefront', '*')`.execute(trx)
    await writeCheckpoint(trx, projection.name, position)
    await recordBuiltVersion(trx, projection)
    // Every store's rows are now the whole build's (src/projections/store-rebuild.ts).
    await sql`delete from projection_store_versions where name = ${projection.name}`.execute(trx)
    await trx.deleteFrom('projection_checkpoints').where('name', '=', checkpoint).execute()
  })
  return { projection: projection.name, events: built.applied + finalEvents, resumed, swapped: true }
}

// `like … including all` copies columns, defaults, constraints and indexes but not the table's
// storage parameters (the fillfactor of migration 0013): the built table takes them over.
async function copyStorageOptions(db: Kysely<Database>, table: string): Promise<void> {
  const { rows } = await sql<{
    options: string[] | null
  }>`select reloptions as options from pg_class where oid = ${`public.${table}`}::regclass`.execute(db)
  const options = rows[0]?.options ?? []
  if (options.length > 0)
    await sql`alter table ${sql.id(SHADOW, table)} set (${sql.raw(options.join(', '))})`.execute(db)
}
