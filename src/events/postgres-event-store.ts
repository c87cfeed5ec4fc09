import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely'
import { pgArray } from '../db/pg-array.ts'
import { PREPARED_MARK } from '../db/prepared.ts'
import { newEventId } from '../ids.ts'
import type { Database } from '../db/database.ts'
import type {
  AppendOptions,
  AppendResult,
  AppendToStream,
  EventMetadata,
  EventShape,
  EventStore,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  Recorded,
  RecordedEvent,
} from './event-store.ts'
import { START } from './event-store.ts'
import { appendGroups, type GroupedRow } from './append-groups.ts'

export type DbOrTrx = Kysely<Database> | Transaction<Database>
export type PostgresEventStore = EventStore<Transaction<Database>, DbOrTrx>
export type PostgresAppendOptions = AppendOptions<Transaction<Database>>

// An event about to be appended, as an inline projection sees it before the append: everything
// but the columns the database generates. ord is its 1-based position in the append's input.
export type PendingEvent = {
  ord: number
  streamId: string
  storeId: string
  type: string
  data: unknown
  metadata: EventMetadata
}
export type PendingAppend = { streams: readonly AppendToStream[]; events: readonly PendingEvent[] }

// A projection's write decided before the append, run by the append's own statement right after
// the events are inserted (migration 0009). `sql` reads the events' generated columns by ord: $1
// global positions (bigint[]), $2 stream versions (bigint[]), $3 the time they were recorded
// (timestamptz, one per transaction); and its `payload` (JSON text) as $4 (jsonb).
export type PreparedWrite = { sql: string; payload: string }

// What an inline projector can write within the append statement, and what it still has to apply
// to the recorded events in a transaction (projections that need to read first), if anything.
export type InlinePlan = {
  writes: PreparedWrite[]
  remaining: ((trx: Transaction<Database>, events: RecordedEvent[]) => Promise<void>) | null
}

export type InlineProjector = ((trx: Transaction<Database>, events: RecordedEvent[]) => Promise<void>) & {
  prepare?: (pending: PendingAppend) => InlinePlan
}

type EventRow = {
  event_id: string
  stream_id: string
  stream_version: number | string
  global_position: number | string
  epoch: number
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
    epoch: Number(row.epoch),
    transactionId: String(row.transaction_id),
    storeId: row.store_id,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata as EventMetadata,
    recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
  }
}

const eventColumns = sql`events.event_id::text as event_id, events.stream_id, events.stream_version, events.global_position, events.epoch,
  events.transaction_id::text as transaction_id, events.store_id, events.type, events.schema_version, events.data, events.metadata, events.recorded_at`

// What event_store_append (migration 0005) returns: a conflict ('c', nothing written), the new
// version of each stream ('s'), then the generated columns of each event in input order ('e').
type AppendRow = {
  kind: 'c' | 's' | 'e'
  stream_id: string | null
  version: number | string | null
  global_position: number | string | null
  transaction_id: string | null
  recorded_at: Date | string | null
  epoch: number | null
}

// The whole append is one statement, so one round trip; the function's own statements are
// planned once per connection (PL/pgSQL keeps their plans for the session). Prepared inline writes
// run within it (event_store_append_projected, migration 0009). Its text never changes, so it is a
// named statement (src/db/prepared.ts): parsed and planned once per connection, not per append
// (35-45 µs of PostgreSQL's CPU per append, measured on the call alone). A group statement
// (append-groups.ts) calls it once per member, its parameters numbered from p.
const appendCall = (
  p: number,
) => `event_store_append_projected($${p}::text[], $${p + 1}::text[], $${p + 2}::text[], $${p + 3}::text[], $${p + 4}::integer[],
  $${p + 5}::integer[], $${p + 6}::uuid[], $${p + 7}::text[], $${p + 8}::integer[], $${p + 9}::jsonb, $${p + 10}::jsonb, $${p + 11}::integer[], $${p + 12}::text[], $${p + 13}::jsonb)`
const APPEND = `${PREPARED_MARK}select * from ${appendCall(1)}`
// A group statement's first part: every member's stream locked in the append's own order (by hash,
// event_store_lock_streams), before any member runs; the members take them again (they are held).
const lockAllCall = (
  p: number,
) => `select 0 as member, null::text as kind, null::text as stream_id, null::bigint as version, null::bigint as global_position,
  null::text as transaction_id, null::timestamptz as recorded_at, null::integer as epoch, null::bigint as ordinality from event_store_lock_streams($${p}::text[])`

function appendStatement(
  streams: AppendToStream[],
  eventIds: string[],
  writes: PreparedWrite[] = [],
): CompiledQuery<AppendRow> {
  const events = streams.flatMap((s, k) => s.events.map((e) => ({ k: k + 1, e })))
  // A command's events share one metadata object: sent once.
  const metadata = new Map<EventMetadata, number>()
  for (const x of events) if (!metadata.has(x.e.metadata)) metadata.set(x.e.metadata, metadata.size + 1)
  const jsonArray = (items: Iterable<string>) => `[${[...items].join(',')}]`
  return CompiledQuery.raw(APPEND, [
    pgArray(streams.map((s) => s.streamId)),
    pgArray(streams.map((s) => s.streamType)),
    pgArray(streams.map((s) => s.storeId)),
    pgArray(streams.map((s) => String(s.expected))),
    pgArray(streams.map((s) => s.events.length)),
    pgArray(events.map((x) => x.k)),
    pgArray(eventIds),
    pgArray(events.map((x) => x.e.type)),
    pgArray(events.map((x) => x.e.schemaVersion ?? 1)),
    jsonArray(events.map((x) => JSON.stringify(x.e.data))),
    jsonArray([...metadata.keys()].map((m) => JSON.stringify(m))),
    pgArray(events.map((x) => metadata.get(x.e.metadata)!)),
    pgArray(writes.map((w) => w.sql)),
    jsonArray(writes.map((w) => w.payload)),
  ]) as CompiledQuery<AppendRow>
}

function pendingAppend(streams: AppendToStream[]): PendingAppend {
  let ord = 0
  const events = streams.flatMap((s) =>
    s.events.map(
      (e): PendingEvent => ({
        ord: ++ord,
        streamId: s.streamId,
        storeId: s.storeId,
        type: e.type,
        data: e.data,
        metadata: e.metadata,
      }),
    ),
  )
  return { streams, events }
}

// Errors after which the append is tried again the transaction way: a prepared write met a row it
// did not expect (unique_violation: the projection must read and merge), or the statement, which
// locks the projection tables when it is planned, met a projection rebuild's swap (deadlock). The
// failed statement wrote nothing.
const retryable = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code
  return code === '23505' || code === '40P01'
}

function appended(streams: AppendToStream[], eventIds: string[], rows: AppendRow[]): AppendResult {
  const conflict = rows.find((r) => r.kind === 'c')
  if (conflict) {
    const s = streams.find((x) => x.streamId === conflict.stream_id)!
    return {
      ok: false,
      conflict: {
        streamId: s.streamId,
        expected: s.expected,
        actual: conflict.version === null ? 'no_stream' : Number(conflict.version),
      },
    }
  }
  const versions = rows
    .filter((r) => r.kind === 's')
    .map((r) => ({ streamId: r.stream_id!, version: Number(r.version) }))
  const generated = rows.filter((r) => r.kind === 'e')
  // Data and metadata are the caller's own objects (events are never mutated, and the
  // rebuild-equality tests hold inline writes to what a replay from the stored JSON produces).
  const events = streams.flatMap((s) => s.events.map((e) => ({ s, e })))
  const recorded = events.map(({ s, e }, i): RecordedEvent => {
    const g = generated[i]!
    return {
      eventId: eventIds[i]!,
      streamId: s.streamId,
      streamVersion: Number(g.version),
      globalPosition: Number(g.global_position),
      epoch: Number(g.epoch),
      transactionId: g.transaction_id!,
      storeId: s.storeId,
      type: e.type,
      schemaVersion: e.schemaVersion ?? 1,
      data: e.data,
      metadata: e.metadata,
      recordedAt: g.recorded_at instanceof Date ? g.recorded_at : new Date(g.recorded_at!),
    }
  })
  return { ok: true, events: recorded.sort((a, b) => a.globalPosition - b.globalPosition), streams: versions }
}

// Holds the append locks of these streams until the transaction ends: no other writer can append
// to them in between (what a command deciding on fresh state needs).
export async function lockStreams(trx: Transaction<Database>, streamIds: string[]): Promise<void> {
  await sql`select event_store_lock_streams(${streamIds}::text[])`.execute(trx)
}

// Statements at a time for single-stream appends (append-groups.ts): two, so that one long append
// (a large import) does not hold up every other, while concurrent ones still share statements.
const APPEND_GROUPS_IN_FLIGHT = 2
const APPEND_GROUP_MEMBERS = 16

export function createPostgresEventStore(db: Kysely<Database>, inline: InlineProjector[] = []): PostgresEventStore {
  // Within a caller's transaction a failed statement could not be tried again: nothing is grouped.
  const grouped = db.isTransaction
    ? null
    : appendGroups({
        call: appendCall,
        lockAll: lockAllCall,
        prefix: PREPARED_MARK,
        execute: async (q) => (await db.executeQuery(q)).rows,
        inFlight: APPEND_GROUPS_IN_FLIGHT,
        maxMembers: APPEND_GROUP_MEMBERS,
      })
  // A group's member is a single-stream append (its key is its stream); a multi-stream one (publish) goes alone.
  const statementRows = async (streams: AppendToStream[], statement: CompiledQuery<AppendRow>): Promise<AppendRow[]> =>
    grouped && streams.length === 1
      ? ((await grouped(streams[0]!.streamId, statement as CompiledQuery<GroupedRow>)) as AppendRow[])
      : (await db.executeQuery(statement)).rows

  async function append(
    streams: AppendToStream[],
    options: AppendOptions<Transaction<Database>> = {},
  ): Promise<AppendResult> {
    const nonEmpty = streams.filter((s) => s.events.length > 0)
    if (nonEmpty.length === 0) return { ok: true, events: [], streams: [] }
    if (new Set(nonEmpty.map((s) => s.streamId)).size !== nonEmpty.length)
      throw new Error('append: a stream appears once per append')
    const eventIds = nonEmpty.flatMap((s) => s.events.map((e) => e.eventId ?? newEventId()))
    const within = options.within
    // Nothing else to write: the statement is the whole transaction.
    if (inline.length === 0 && !within)
      return appended(nonEmpty, eventIds, await statementRows(nonEmpty, appendStatement(nonEmpty, eventIds)))
    // The transaction way: append, then every projector reads what it needs and writes.
    const run = async (trx: Transaction<Database>): Promise<AppendResult> => {
      const result = appended(nonEmpty, eventIds, (await trx.executeQuery(appendStatement(nonEmpty, eventIds))).rows)
      if (!result.ok) return result
      for (const project of inline) await project(trx, result.events)
      if (within) await within(trx, result.events)
      return result
    }
    // Called inside a transaction (a command holding its streams' locks): append there, the
    // transaction way, since a failed statement could not be tried again in it.
    if (db.isTransaction) return run(db as Transaction<Database>)
    const plans = inline.map((p) => (p.prepare ? p.prepare(pendingAppend(nonEmpty)) : { writes: [], remaining: p }))
    const writes = plans.flatMap((p) => p.writes)
    const remaining = plans.flatMap((p) => (p.remaining ? [p.remaining] : []))
    const statement = appendStatement(nonEmpty, eventIds, writes)
    try {
      // Every projection wrote within the statement: one round trip, its own implicit transaction.
      if (remaining.length === 0 && !within)
        return appended(nonEmpty, eventIds, await statementRows(nonEmpty, statement))
      return await db.transaction().execute(async (trx) => {
        const result = appended(nonEmpty, eventIds, (await trx.executeQuery(statement)).rows)
        if (!result.ok) return result
        for (const project of remaining) await project(trx, result.events)
        if (within) await within(trx, result.events)
        return result
      })
    } catch (error) {
      if (!retryable(error)) throw error
      return db.transaction().execute(run)
    }
  }

  async function readStream<E extends EventShape = EventShape>(
    streamId: string,
    options: ReadStreamOptions = {},
  ): Promise<Recorded<E>[]> {
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
    // A stream holds only the events its writers append to it: the one place that trusts that.
    return rows.map(toRecordedEvent) as Recorded<E>[]
  }

  async function readAll(
    options: ReadAllOptions = {},
    on: DbOrTrx = db,
  ): Promise<{ events: RecordedEvent[]; position: Position }> {
    const after = options.after ?? START
    const limit = options.limit ?? 1000
    const storeId = options.storeId ?? null
    // Stop below the oldest running transaction of the current epoch: events it may still commit
    // sort before later ones. Every event of an older epoch was committed by a cluster that no
    // longer writes. Order by the columns themselves, not text aliases ('1000' < '999').
    const horizon = options.ignoreRunningTransactions
      ? sql`true`
      : sql`(events.epoch < horizon.current_epoch or events.transaction_id < horizon.xmin)`
    // "After" is written as >= the position and not that event (positions are unique): the same
    // rows, but PostgreSQL estimates a row comparison by its first column alone, and `epoch > n`
    // says almost no row matches. Over the partitions (decision 0165) that estimate chose to read
    // every partition's matching rows and sort them for each page; `epoch >= n` says many, and the
    // plan merges the partitions' commit-order index scans, reading only the page.
    const { rows } = await sql<EventRow>`
      with horizon as materialized (select event_store_epoch() as current_epoch, pg_snapshot_xmin(pg_current_snapshot()) as xmin)
      select ${eventColumns} from events, horizon
      where (events.epoch, events.transaction_id, events.global_position) >= (${after.epoch}::integer, ${after.transactionId}::xid8, ${after.globalPosition}::bigint)
        and events.global_position <> ${after.globalPosition}::bigint
        and ${horizon}
        and (${storeId}::text is null or events.store_id = ${storeId}::text)
      order by events.epoch, events.transaction_id, events.global_position
      limit ${limit}`.execute(on)
    const events = rows.map(toRecordedEvent)
    const last = events.at(-1)
    return {
      events,
      position: last
        ? { epoch: last.epoch, transactionId: last.transactionId, globalPosition: last.globalPosition }
        : after,
    }
  }

  async function streamVersion(streamId: string): Promise<number | null> {
    const row = await db.selectFrom('streams').select('version').where('stream_id', '=', streamId).executeTakeFirst()
    return row ? Number(row.version) : null
  }

  return { append, readStream, readAll, streamVersion }
}
