import { randomUUID } from 'node:crypto'
import { sql, type Kysely, type Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type {
  AppendOptions,
  AppendResult,
  AppendToStream,
  DbOrTrx,
  EventMetadata,
  EventStore,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamConflict,
} from './event-store.ts'
import { START } from './event-store.ts'

export type InlineProjector = (trx: Transaction<Database>, events: RecordedEvent[]) => Promise<void>

class Conflict extends Error {
  readonly conflict: StreamConflict
  constructor(conflict: StreamConflict) {
    super(`stream ${conflict.streamId} is at ${conflict.actual}, expected ${conflict.expected}`)
    this.conflict = conflict
  }
}

type EventRow = {
  event_id: string
  stream_id: string
  stream_version: number | string
  global_position: number | string
  transaction_id: string
  store_id: string
  type: string
  schema_version: number
  data: unknown
  metadata: unknown
  recorded_at: Date | string
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    eventId: row.event_id,
    streamId: row.stream_id,
    streamVersion: Number(row.stream_version),
    globalPosition: Number(row.global_position),
    transactionId: String(row.transaction_id),
    storeId: row.store_id,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata as EventMetadata,
    recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
  }
}

const eventColumns = sql`event_id::text as event_id, stream_id, stream_version, global_position,
  transaction_id::text as transaction_id, store_id, type, schema_version, data, metadata, recorded_at`

// Claims the next versions of one stream; the stream row is the first write of the transaction,
// and its row lock serializes appends to the same stream.
async function claimVersions(trx: Transaction<Database>, s: AppendToStream): Promise<number> {
  const n = s.events.length
  const { expected } = s
  let rows: { version: number }[]
  if (expected === 'no_stream') {
    rows = (await sql<{ version: number }>`
      insert into streams (stream_id, stream_type, store_id, version) values (${s.streamId}, ${s.streamType}, ${s.storeId}, ${n})
      on conflict (stream_id) do nothing returning version`.execute(trx)).rows
  } else if (expected === 'any') {
    rows = (await sql<{ version: number }>`
      insert into streams (stream_id, stream_type, store_id, version) values (${s.streamId}, ${s.streamType}, ${s.storeId}, ${n})
      on conflict (stream_id) do update set version = streams.version + excluded.version, updated_at = now()
      returning version`.execute(trx)).rows
  } else if (expected === 'exists') {
    rows = (await sql<{ version: number }>`
      update streams set version = version + ${n}, updated_at = now() where stream_id = ${s.streamId}
      returning version`.execute(trx)).rows
  } else if (expected === 0) {
    return claimVersions(trx, { ...s, expected: 'no_stream' })
  } else {
    rows = (await sql<{ version: number }>`
      update streams set version = version + ${n}, updated_at = now()
      where stream_id = ${s.streamId} and version = ${expected}
      returning version`.execute(trx)).rows
  }
  const row = rows[0]
  if (row) return Number(row.version)
  const current = await trx.selectFrom('streams').select('version').where('stream_id', '=', s.streamId).executeTakeFirst()
  throw new Conflict({ streamId: s.streamId, expected, actual: current ? Number(current.version) : 'no_stream' })
}

export function createPostgresEventStore(db: Kysely<Database>, inline: InlineProjector[] = []): EventStore {
  async function append(streams: AppendToStream[], options: AppendOptions = {}): Promise<AppendResult> {
    const nonEmpty = streams.filter((s) => s.events.length > 0)
    if (nonEmpty.length === 0) return { ok: true, events: [], streams: [] }
    // One lock order for every transaction, so multi-stream appends cannot deadlock.
    const ordered = [...nonEmpty].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0))
    try {
      return await db.transaction().execute(async (trx) => {
        const versions = new Map<string, number>()
        for (const s of ordered) versions.set(s.streamId, await claimVersions(trx, s))
        const sent = nonEmpty.flatMap((s) => s.events)
        const values = nonEmpty.flatMap((s) => {
          const last = versions.get(s.streamId)!
          return s.events.map((e, i) => ({
            event_id: e.eventId ?? randomUUID(),
            stream_id: s.streamId,
            stream_version: last - s.events.length + 1 + i,
            store_id: s.storeId,
            type: e.type,
            schema_version: e.schemaVersion ?? 1,
            data: JSON.stringify(e.data),
            metadata: JSON.stringify(e.metadata),
          }))
        })
        // Only what the database generates comes back; data and metadata are the caller's own
        // objects (events are never mutated, and the rebuild-equality tests hold inline writes
        // to what a replay from the stored JSON produces).
        const rows = await trx
          .insertInto('events')
          .values(values)
          .returning(['event_id', 'global_position', sql<string>`transaction_id::text`.as('transaction_id'), 'recorded_at'])
          .execute()
        const generated = new Map(rows.map((r) => [r.event_id, r]))
        const recorded = values
          .map((v, i) => {
            const g = generated.get(v.event_id)!
            return toRecordedEvent({ ...v, data: sent[i]!.data, metadata: sent[i]!.metadata, global_position: g.global_position, transaction_id: g.transaction_id, recorded_at: g.recorded_at })
          })
          .sort((a, b) => a.globalPosition - b.globalPosition)
        for (const project of inline) await project(trx, recorded)
        if (options.within) await options.within(trx, recorded)
        return { ok: true as const, events: recorded, streams: [...versions].map(([streamId, version]) => ({ streamId, version })) }
      })
    } catch (error) {
      if (error instanceof Conflict) return { ok: false, conflict: error.conflict }
      // Two first appends racing on a new stream: the loser sees a unique violation, which is a conflict.
      if (isUniqueViolation(error) && nonEmpty.length === 1) {
        const s = nonEmpty[0]!
        const current = await db.selectFrom('streams').select('version').where('stream_id', '=', s.streamId).executeTakeFirst()
        return { ok: false, conflict: { streamId: s.streamId, expected: s.expected, actual: current ? Number(current.version) : 'no_stream' } }
      }
      throw error
    }
  }

  async function readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const fromVersion = options.fromVersion ?? 1
    const toPosition = options.toPosition ?? null
    const toTime = options.toTime ?? null
    const { rows } = await sql<EventRow>`
      select ${eventColumns} from events
      where stream_id = ${streamId}
        and stream_version >= ${fromVersion}
        and (${toPosition}::bigint is null or global_position <= ${toPosition}::bigint)
        and (${toTime}::timestamptz is null or recorded_at <= ${toTime}::timestamptz)
      order by stream_version`.execute(db)
    return rows.map(toRecordedEvent)
  }

  async function readAll(options: ReadAllOptions = {}, on: DbOrTrx = db): Promise<{ events: RecordedEvent[]; position: Position }> {
    const after = options.after ?? START
    const limit = options.limit ?? 1000
    const storeId = options.storeId ?? null
    // Stop below the oldest running transaction: events it may still commit sort before later ones.
    // Order by the xid8 column itself, not the text alias in the select list ('1000' < '999').
    const horizon = options.ignoreRunningTransactions
      ? sql`true`
      : sql`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`
    const { rows } = await sql<EventRow>`
      select ${eventColumns} from events
      where (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)
        and ${horizon}
        and (${storeId}::text is null or store_id = ${storeId}::text)
      order by events.transaction_id, events.global_position
      limit ${limit}`.execute(on)
    const events = rows.map(toRecordedEvent)
    const last = events.at(-1)
    return { events, position: last ? { transactionId: last.transactionId, globalPosition: last.globalPosition } : after }
  }

  async function streamVersion(streamId: string): Promise<number | null> {
    const row = await db.selectFrom('streams').select('version').where('stream_id', '=', streamId).executeTakeFirst()
    return row ? Number(row.version) : null
  }

  return { append, readStream, readAll, streamVersion }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
}
