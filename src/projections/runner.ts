import { sql, type Kysely, type Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { Position } from '../events/event-store.ts'
import type { PostgresEventStore as EventStore } from '../events/postgres-event-store.ts'
import { START } from '../events/event-store.ts'
import { catchUpEvents, catchUpSeconds } from '../metrics/registry.ts'
import type { Projection } from './projection.ts'

export type CatchUpOptions = {
  checkpoint?: string
  // Write into shadow tables of this schema instead of the live ones (rebuilds).
  schema?: string
  batchSize?: number
  signal?: AbortSignal
  onBatch?: (applied: number, position: Position) => void
}

type CheckpointRow = { epoch: number; transaction_id: string; global_position: number }
const toPosition = (row: CheckpointRow): Position => ({
  epoch: Number(row.epoch),
  transactionId: row.transaction_id,
  globalPosition: Number(row.global_position),
})

async function readCheckpoint(trx: Transaction<Database>, name: string): Promise<Position> {
  await trx
    .insertInto('projection_checkpoints')
    .values({ name, epoch: 0, transaction_id: '0', global_position: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  // The row lock makes a second runner of the same projection wait instead of double-applying.
  const { rows } = await sql<CheckpointRow>`
    select epoch, transaction_id::text as transaction_id, global_position from projection_checkpoints where name = ${name} for update`.execute(
    trx,
  )
  const row = rows[0]
  return row ? toPosition(row) : START
}

export async function writeCheckpoint(trx: Transaction<Database>, name: string, position: Position): Promise<void> {
  await sql`
    insert into projection_checkpoints (name, epoch, transaction_id, global_position, updated_at)
    values (${name}, ${position.epoch}, ${position.transactionId}::xid8, ${position.globalPosition}, now())
    on conflict (name) do update set epoch = excluded.epoch, transaction_id = excluded.transaction_id, global_position = excluded.global_position, updated_at = now()`.execute(
    trx,
  )
}

// One batch: read past the checkpoint in commit order, apply, move the checkpoint — all in one
// transaction, so a runner killed at any moment resumes exactly where its last commit left it.
export async function catchUpOnce(
  db: Kysely<Database>,
  eventStore: EventStore,
  projection: Projection,
  options: CatchUpOptions = {},
): Promise<{ applied: number; position: Position }> {
  const name = options.checkpoint ?? projection.name
  return db.transaction().execute(async (trx) => {
    const after = await readCheckpoint(trx, name)
    const page = await eventStore.readAll({ after, limit: options.batchSize ?? 1000 }, trx)
    if (page.events.length === 0) return { applied: 0, position: after }
    await projection.apply(options.schema ? trx.withSchema(options.schema) : trx, page.events)
    await writeCheckpoint(trx, name, page.position)
    return { applied: page.events.length, position: page.position }
  })
}

export async function catchUp(
  db: Kysely<Database>,
  eventStore: EventStore,
  projection: Projection,
  options: CatchUpOptions = {},
): Promise<{ applied: number; position: Position }> {
  let applied = 0
  let position = START
  const labels = { projection: projection.name, mode: options.schema ? 'rebuild' : 'catch-up' }
  for (;;) {
    if (options.signal?.aborted) break
    const started = performance.now()
    const batch = await catchUpOnce(db, eventStore, projection, options)
    position = batch.position
    if (batch.applied === 0) break
    catchUpEvents.inc(labels, batch.applied)
    catchUpSeconds.inc(labels, (performance.now() - started) / 1000)
    applied += batch.applied
    options.onBatch?.(applied, position)
  }
  return { applied, position }
}

export async function readProjectionCheckpoint(db: Kysely<Database>, name: string): Promise<Position | null> {
  const { rows } = await sql<CheckpointRow>`
    select epoch, transaction_id::text as transaction_id, global_position from projection_checkpoints where name = ${name}`.execute(
    db,
  )
  const row = rows[0]
  return row ? toPosition(row) : null
}
