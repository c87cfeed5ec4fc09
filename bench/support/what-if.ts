// What-if copies: each is a piece of src/ with ONE change, used only to measure what a suggested
// fix is worth in the same harness and run as the original. src/ is not changed; when src adopts
// a fix, delete its copy here. Every copy names the file it mirrors.
import { randomUUID } from 'node:crypto'
import { sql, type Kysely, type QueryCreator } from 'kysely'
import type { Database } from '../../src/db/database.ts'
import type { AppendToStream, DbOrTrx, EventStore, ReadAllOptions, RecordedEvent } from '../../src/events/event-store.ts'
import { START } from '../../src/events/event-store.ts'
import { toRecordedEvent } from '../../src/events/postgres-event-store.ts'
import type { DomainEvent } from '../../src/events/theme-events.ts'
import { describeEvent, summarize, themeIdOf } from '../../src/projections/activity-descriptions.ts'
import type { Projection } from '../../src/projections/projection.ts'

// src/events/postgres-event-store.ts readAll, with ORDER BY naming the table's xid8 column.
// The original selects `transaction_id::text as transaction_id` and orders by `transaction_id`;
// a bare ORDER BY name resolves to the output column first, so pages are sorted by the *text* of
// the transaction id: no index order (every page sorts the whole unread tail), and the wrong order
// across a digit boundary ('1000' < '999'), which makes a reader skip events.
export function withXid8Order(store: EventStore, db: Kysely<Database>): EventStore {
  return {
    ...store,
    async readAll(options: ReadAllOptions = {}, on: DbOrTrx = db) {
      const after = options.after ?? START
      const horizon = options.ignoreRunningTransactions ? sql`true` : sql`events.transaction_id < pg_snapshot_xmin(pg_current_snapshot())`
      const storeId = options.storeId ?? null
      const { rows } = await sql<Parameters<typeof toRecordedEvent>[0]>`
        select event_id::text as event_id, stream_id, stream_version, global_position, transaction_id::text as transaction_id, store_id, type, schema_version, data, metadata, recorded_at
        from events
        where (events.transaction_id, events.global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)
          and ${horizon}
          and (${storeId}::text is null or events.store_id = ${storeId}::text)
        order by events.transaction_id, events.global_position
        limit ${options.limit ?? 1000}`.execute(on)
      const events = rows.map(toRecordedEvent)
      const last = events.at(-1)
      return { events, position: last ? { transactionId: last.transactionId, globalPosition: last.globalPosition } : after }
    },
  }
}

// src/events/postgres-event-store.ts append (no inline projections, no `within`), RETURNING only
// the columns the database generates; the recorded events reuse what the caller passed in.
// The original returns every column, so PostgreSQL serializes data and metadata back and the
// client parses them again.
export function leanAppend(db: Kysely<Database>): Pick<EventStore, 'append'> {
  return {
    async append(streams: AppendToStream[]) {
      const ordered = [...streams].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0))
      return db.transaction().execute(async (trx) => {
        const versions = new Map<string, number>()
        for (const s of ordered) {
          const n = s.events.length
          const rows =
            s.expected === 'no_stream' || s.expected === 0
              ? (await sql<{ version: number }>`insert into streams (stream_id, stream_type, store_id, version) values (${s.streamId}, ${s.streamType}, ${s.storeId}, ${n}) on conflict (stream_id) do nothing returning version`.execute(trx)).rows
              : (await sql<{ version: number }>`update streams set version = version + ${n}, updated_at = now() where stream_id = ${s.streamId} and version = ${s.expected} returning version`.execute(trx)).rows
          if (!rows[0]) throw new Error(`what-if append: conflict on ${s.streamId}`)
          versions.set(s.streamId, Number(rows[0].version))
        }
        const input = streams.flatMap((s) => {
          const last = versions.get(s.streamId)!
          return s.events.map((e, i) => ({ s, e, version: last - s.events.length + 1 + i, eventId: e.eventId ?? randomUUID() }))
        })
        const rows = await trx
          .insertInto('events')
          .values(input.map(({ s, e, version, eventId }) => ({ event_id: eventId, stream_id: s.streamId, stream_version: version, store_id: s.storeId, type: e.type, schema_version: e.schemaVersion ?? 1, data: JSON.stringify(e.data), metadata: JSON.stringify(e.metadata) })))
          .returning(['global_position', sql<string>`transaction_id::text`.as('transaction_id'), 'recorded_at'])
          .execute()
        const events: RecordedEvent[] = rows.map((r, i) => {
          const { s, e, version, eventId } = input[i]!
          return { eventId, streamId: s.streamId, streamVersion: version, globalPosition: Number(r.global_position), transactionId: r.transaction_id, storeId: s.storeId, type: e.type, schemaVersion: e.schemaVersion ?? 1, data: e.data, metadata: e.metadata, recordedAt: new Date(r.recorded_at) }
        })
        return { ok: true as const, events, streams: [...versions].map(([streamId, version]) => ({ streamId, version })) }
      })
    },
  }
}

// src/projections/activity-projection.ts, set-based: one select of every command of the batch and
// one multi-row upsert, instead of a select and an upsert per command (≈ 2 statements per 10 events).
export const batchedActivityProjection: Projection = {
  name: 'developer_activity',
  tables: ['developer_activity'],
  async apply(db: QueryCreator<Database>, events) {
    const byCommand = new Map<string, RecordedEvent[]>()
    for (const e of events) {
      const id = e.metadata?.commandId
      if (!id) continue
      const list = byCommand.get(id)
      if (list) list.push(e)
      else byCommand.set(id, [e])
    }
    if (byCommand.size === 0) return
    const existing = new Map(
      (await db.selectFrom('developer_activity').select(['command_id', 'last_position', 'changes', 'theme_id']).where('command_id', 'in', [...byCommand.keys()]).execute()).map((r) => [r.command_id, r]),
    )
    const rows = []
    for (const [commandId, list] of byCommand) {
      const prior = existing.get(commandId)
      const fresh = prior ? list.filter((e) => e.globalPosition > prior.last_position) : list
      if (fresh.length === 0) continue
      const lines = [...((prior?.changes as string[] | undefined) ?? [])]
      let themeId = prior?.theme_id ?? null
      let rejection: { code: string } | null = null
      for (const e of fresh) {
        const event = { type: e.type, data: e.data } as DomainEvent
        const line = describeEvent(event, e.streamId)
        if (line) lines.push(line)
        themeId ??= themeIdOf(event, e.streamId)
        if (event.type === 'CommandRejected') rejection = { code: event.data.code }
      }
      const first = fresh[0]!
      const last = fresh.at(-1)!
      const m = first.metadata
      rows.push({
        command_id: commandId,
        store_id: first.storeId,
        occurred_at: first.recordedAt,
        first_position: first.globalPosition,
        last_position: last.globalPosition,
        action: m.command,
        outcome: rejection ? ('rejected' as const) : ('applied' as const),
        theme_id: themeId,
        channel: m.channel,
        tool: m.tool ?? null,
        credential_kind: m.actor.kind,
        credential_id: m.actor.credentialId,
        app_id: m.actor.appId,
        request_id: m.requestId ?? null,
        summary: summarize(lines),
        changes: JSON.stringify(lines),
        error_code: rejection?.code ?? null,
      })
    }
    if (rows.length === 0) return
    await db
      .insertInto('developer_activity')
      .values(rows)
      .onConflict((oc) =>
        oc.column('command_id').doUpdateSet((eb) => ({
          last_position: eb.ref('excluded.last_position'),
          theme_id: eb.ref('excluded.theme_id'),
          summary: eb.ref('excluded.summary'),
          changes: eb.ref('excluded.changes'),
        })).where('developer_activity.last_position', '<', (eb) => eb.ref('excluded.last_position')),
      )
      .execute()
  },
}
