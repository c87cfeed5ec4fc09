import { sql } from 'kysely'
import type { Aggregate } from '../../src/aggregates/decider.ts'
import type { DomainEvent } from '../../src/aggregates/events.ts'
import type { EventMetadata } from '../../src/events/event-store.ts'
import { createPostgresEventStore } from '../../src/events/postgres-event-store.ts'
import { inlineProjector } from '../../src/projections/index.ts'
import type { Projection } from '../../src/projections/projection.ts'
import { freshDatabase } from './database.ts'

// Projection specs: given (events, appended as commands would append them), then (the rows the
// projection holds for those stores). Every case is checked both ways a projection runs: inline,
// within the append (its prepared statement where it has one, migration 0012, else `apply` in the
// append's transaction), and replayed by `apply` alone from the log, as the catch-up runner and a
// rebuild do. Both must give the same rows: that is the test that keeps the two definitions of a
// projection's writes (the PL/pgSQL functions and the kysely `apply`) in step.

type Teardown = { teardown: (fn: () => unknown) => void }
type Assert = {
  same: (found: unknown, wanted: unknown, message: string) => unknown
  match: (found: unknown, pattern: unknown, message: string) => unknown
  equal: (found: unknown, wanted: unknown, message: string) => unknown
}

// One event as given: its stream, its store, and the command it belongs to (events of one command
// are appended together, as the command handler does; each event is its own command by default).
export type Given = DomainEvent & { streamId: string; storeId: string; command?: string }

const metadata = (storeId: string, commandId: string): EventMetadata => ({
  storeId,
  actor: { kind: 'api_key', credentialId: 'key_spec', appId: 'app_spec' },
  channel: 'rest',
  requestId: `req_${commandId}`,
  correlationId: commandId,
  causationId: null,
  commandId,
  command: 'specCommand',
})

// The order rows are compared in: the table's natural key (expected rows are given in this order).
const ORDER: Record<string, string> = {
  themes: 'theme_id',
  live_themes: 'store_id',
  developer_activity: 'first_position',
  navigation_menus: 'handle',
  media_assets: 'created_at',
  orders: 'order_id',
}

// Rows as data: column order and value types (Date, bigint text) do not matter.
const normal = (rows: Record<string, unknown>[], table: string) =>
  rows
    .map((r) =>
      JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b))))),
    )
    .sort((a, b) => {
      const x = a[ORDER[table] ?? '']
      const y = b[ORDER[table] ?? '']
      return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
    })

export async function projectionSpec(
  t: Teardown,
  projection: Projection,
  // Aggregates whose state an append hands the projection (the themes projection prepares its row
  // from it); without one the projection reads its own row.
  aggregates: readonly Aggregate<any, any>[] = [],
) {
  const { db } = await freshDatabase(t)
  const store = createPostgresEventStore(db, [inlineProjector([projection])])
  const replay = createPostgresEventStore(db, [])
  let commands = 0

  const rowsOf = async (stores: string[]) => {
    const out: Record<string, unknown[]> = {}
    for (const table of projection.tables) {
      const { rows } = await sql<Record<string, unknown>>`
        select * from ${sql.table(table)} where store_id in (${sql.join(stores)})`.execute(db)
      out[table] = normal(rows, table)
    }
    return out
  }

  return {
    given(events: readonly Given[]) {
      return {
        async thenRows(assert: Assert, expected: Record<string, Record<string, unknown>[]>) {
          const versions = new Map<string, { version: number; state: unknown }>()
          const batches: Given[][] = []
          for (const e of events) {
            const last = batches.at(-1)
            if (e.command !== undefined && last?.[0]?.command === e.command) last.push(e)
            else batches.push([e])
          }
          for (const batch of batches) {
            const commandId = `cmd_spec_${++commands}`
            const streams = [...new Set(batch.map((e) => e.streamId))]
            const appended = await store.append(
              streams.map((streamId) => {
                const own = batch.filter((e) => e.streamId === streamId)
                const aggregate = aggregates.find((a) => a.stream.idOf(streamId) !== null)
                const before = versions.get(streamId) ?? { version: 0, state: aggregate?.initialState }
                let state = before.state
                for (const e of own) if (aggregate) state = aggregate.evolve(state, e as never)
                versions.set(streamId, { version: before.version + own.length, state })
                return {
                  streamId,
                  streamType: streamId.split('-')[0]!,
                  storeId: own[0]!.storeId,
                  expected: before.version === 0 ? ('no_stream' as const) : before.version,
                  ...(aggregate ? { state: before.state } : {}),
                  events: own.map((e) => ({ type: e.type, data: e.data, metadata: metadata(e.storeId, commandId) })),
                }
              }),
            )
            if (!appended.ok) throw new Error(`given events did not append: ${JSON.stringify(appended.conflict)}`)
          }
          const stores = [...new Set(events.map((e) => e.storeId))]
          const inline = await rowsOf(stores)

          for (const table of projection.tables)
            await sql`delete from ${sql.table(table)} where store_id in (${sql.join(stores)})`.execute(db)
          // Every given append has committed and nothing else writes this database: the log is read
          // whole, past transactions still running elsewhere on the shared server (whose ids would
          // otherwise hold the read's horizon back).
          for (const storeId of stores) {
            const page = await replay.readAll({ storeId, limit: 10_000, ignoreRunningTransactions: true })
            await projection.apply(db, page.events)
          }
          const replayed = await rowsOf(stores)
          assert.same(replayed, inline, `${projection.name}: replayed by apply = written inline`)

          for (const [table, rows] of Object.entries(expected)) {
            assert.equal(inline[table]?.length, rows.length, `${table}: ${rows.length} rows`)
            assert.match(inline[table], rows, `${table}: the rows`)
          }
          return inline
        },
      }
    },
  }
}
