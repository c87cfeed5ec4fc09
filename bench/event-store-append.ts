// Append throughput through the event-store port (src/events/postgres-event-store.ts), against
// the peer a TypeScript team would pick instead (Emmett's PostgreSQL event store,
// @event-driven-io/emmett-postgresql 0.42.0, its own pool of the same size on the same database)
// and the same rows written by plain SQL on a plain pg pool, in alternating rounds of one run.
//
//   (a) single-event appends: 8 writers, each to its own stream with the exact expected version;
//       baseline per event, one transaction: update the stream row, insert the event row.
//   (b) 100-event appends: 8 writers, each append a new stream of 100 events;
//       baseline per batch, one transaction: insert the stream row, one multi-row insert of events.
//
// node_modules/.bin/node bench/event-store-append.ts [--seconds 12] [--rounds 4] [--events 0] [--writers 8]
//   [--batch-size 100] [--warmup 2] [--inline] [--phase a|b]
//   [--only port,emmett,sql,sql-full,sql-unnest,inline] [--diagnose]
//   --inline:   also the port with the app's inline projections (what commands pay; not the target)
//   --diagnose: also plain SQL that returns every column (what the port returned before it returned
//               only the generated ones), and plain SQL with unnest arrays (7 parameters per append
//               instead of 7 per event); bench/README.md describes each variant
//   --synchronous-commit off: a session setting for every connection (diagnostic: is it the WAL flush?)
//   --phase / --only: run a part, e.g. under node --cpu-prof
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql'
import { createPostgresEventStore } from '../src/events/postgres-event-store.ts'
import type { EventStore } from '../src/events/event-store.ts'
import { inlineProjector } from '../src/projections/index.ts'
import { withBenchDatabase, settle } from './support/database.ts'
import { BENCH_STORE, eventBytes, sectionUpdated } from './support/events.ts'
import {
  closedLoop,
  coresUsed,
  cpuPer,
  flag,
  interleaved,
  stringArg,
  fmt,
  headerWithLoad,
  ms,
  numberArg,
  summarize,
  table,
  verdict,
  type Summary,
} from './support/measure.ts'

const seconds = numberArg('seconds', 12)
const maxEvents = numberArg('events', 0)
const writers = numberArg('writers', 8)
const batchSize = numberArg('batch-size', 100)
const warmup = numberArg('warmup', 2)
const rounds = numberArg('rounds', 4)
const POOL = 10
const phase = stringArg('phase')

type Runner = {
  key: string
  label: string
  singleOp: (stream: string, version: number) => Promise<void>
  batchOp: (stream: string) => Promise<void>
}

function portRunner(key: string, label: string, store: Pick<EventStore, 'append'>): Runner {
  return {
    key,
    label,
    async singleOp(stream, version) {
      const r = await store.append([
        {
          streamId: stream,
          streamType: 'bench',
          storeId: BENCH_STORE,
          expected: version === 0 ? 'no_stream' : version,
          events: [sectionUpdated(version + 1, `cmd_${randomUUID()}`)],
        },
      ])
      if (!r.ok) throw new Error(`unexpected conflict on ${stream}`)
    },
    async batchOp(stream) {
      const commandId = `cmd_${randomUUID()}`
      const events = Array.from({ length: batchSize }, (_, i) => sectionUpdated(i, commandId))
      const r = await store.append([
        { streamId: stream, streamType: 'bench', storeId: BENCH_STORE, expected: 'no_stream', events },
      ])
      if (!r.ok) throw new Error(`unexpected conflict on ${stream}`)
    },
  }
}

// Emmett: the same event (type, data, metadata), the same expected versions (0n = a new stream).
function emmettRunner(url: string): Runner & { close: () => Promise<void> } {
  const store = getPostgreSQLEventStore(url)
  return {
    key: 'emmett',
    label: 'Emmett 0.42.0 (peer)',
    async singleOp(stream, version) {
      const e = sectionUpdated(version + 1, `cmd_${randomUUID()}`)
      await store.appendToStream(
        stream,
        [{ type: e.type, data: e.data as Record<string, unknown>, metadata: e.metadata as never }],
        { expectedStreamVersion: BigInt(version) },
      )
    },
    async batchOp(stream) {
      const commandId = `cmd_${randomUUID()}`
      const events = Array.from({ length: batchSize }, (_, i) => sectionUpdated(i, commandId)).map((e) => ({
        type: e.type,
        data: e.data as Record<string, unknown>,
        metadata: e.metadata as never,
      }))
      await store.appendToStream(stream, events, { expectedStreamVersion: 0n })
    },
    close: () => store.close(),
  }
}

const EVENT_COLUMNS = 'event_id, stream_id, stream_version, store_id, type, schema_version, data, metadata'

// full: return every column, as the port used to (a diagnostic, not the baseline).
// unnest (diagnostic): the batch as one row of arrays, 7 parameters instead of 7 per event.
function sqlRunner(pool: pg.Pool, full: boolean, unnest = false): Runner {
  const returning = full
    ? `returning ${EVENT_COLUMNS}, global_position, transaction_id::text, recorded_at`
    : 'returning global_position, transaction_id::text, recorded_at'
  async function inTransaction(fn: (c: pg.PoolClient) => Promise<void>) {
    const c = await pool.connect()
    try {
      await c.query('begin')
      await fn(c)
      await c.query('commit')
    } catch (error) {
      await c.query('rollback').catch(() => {})
      throw error
    } finally {
      c.release()
    }
  }
  return {
    key: unnest ? 'sql-unnest' : full ? 'sql-full' : 'sql',
    label: unnest ? 'plain SQL, unnest arrays' : full ? 'plain SQL returning all columns' : 'plain SQL (pg)',
    singleOp: (stream, version) =>
      inTransaction(async (c) => {
        const claimed =
          version === 0
            ? await c.query(
                'insert into streams (stream_id, stream_type, store_id, version) values ($1, $2, $3, 1) on conflict (stream_id) do nothing returning version',
                [stream, 'bench', BENCH_STORE],
              )
            : await c.query(
                'update streams set version = version + 1, updated_at = now() where stream_id = $1 and version = $2 returning version',
                [stream, version],
              )
        if (claimed.rowCount !== 1) throw new Error(`unexpected conflict on ${stream}`)
        const e = sectionUpdated(version + 1, `cmd_${randomUUID()}`)
        await c.query(`insert into events (${EVENT_COLUMNS}) values ($1, $2, $3, $4, $5, 1, $6, $7) ${returning}`, [
          e.eventId,
          stream,
          version + 1,
          BENCH_STORE,
          e.type,
          JSON.stringify(e.data),
          JSON.stringify(e.metadata),
        ])
      }),
    batchOp: (stream) =>
      inTransaction(async (c) => {
        await c.query('insert into streams (stream_id, stream_type, store_id, version) values ($1, $2, $3, $4)', [
          stream,
          'bench',
          BENCH_STORE,
          batchSize,
        ])
        const commandId = `cmd_${randomUUID()}`
        if (unnest) {
          const events = Array.from({ length: batchSize }, (_, i) => sectionUpdated(i, commandId))
          await c.query(
            `insert into events (${EVENT_COLUMNS})
             select e, $2, v, $3, t, 1, d::jsonb, m::jsonb from unnest($1::uuid[], $4::bigint[], $5::text[], $6::text[], $7::text[]) as u(e, v, t, d, m)
             ${returning}`,
            [
              events.map((e) => e.eventId),
              stream,
              BENCH_STORE,
              events.map((_, i) => i + 1),
              events.map((e) => e.type),
              events.map((e) => JSON.stringify(e.data)),
              events.map((e) => JSON.stringify(e.metadata)),
            ],
          )
          return
        }
        const params: unknown[] = []
        const tuples: string[] = []
        for (let i = 0; i < batchSize; i++) {
          const e = sectionUpdated(i, commandId)
          const b = params.length
          tuples.push(`($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, 1, $${b + 6}, $${b + 7})`)
          params.push(e.eventId, stream, i + 1, BENCH_STORE, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata))
        }
        await c.query(`insert into events (${EVENT_COLUMNS}) values ${tuples.join(', ')} ${returning}`, params)
      }),
  }
}

// One stream per writer for the whole run (versions carry over between rounds).
function singleLoad(r: Runner, tag: string) {
  const versions = new Array<number>(writers).fill(0)
  const streams = Array.from({ length: writers }, (_, w) => `bench-${tag}-${w}-${randomUUID().slice(0, 8)}`)
  return (secs: number, cap: number) =>
    closedLoop({ workers: writers, seconds: secs, maxOps: cap }, async (w) => {
      await r.singleOp(streams[w]!, versions[w]!)
      versions[w]!++
    })
}

function batchLoad(r: Runner, tag: string) {
  let n = 0
  return (secs: number, cap: number) =>
    closedLoop({ workers: writers, seconds: secs, maxOps: cap }, async (w) => {
      await r.batchOp(`bench-${tag}-${w}-${n++}-${randomUUID().slice(0, 8)}`)
    })
}

const row = (label: string, s: Summary, baseline?: Summary) => ({
  variant: label,
  appends: fmt(s.ops),
  events: fmt(s.units),
  seconds: fmt(s.seconds, 1),
  'events/s': fmt(s.unitsPerSecond),
  'p50 append': ms(s.p50),
  'p99 append': ms(s.p99),
  'vs baseline': baseline ? fmt(s.unitsPerSecond / baseline.unitsPerSecond, 2) : '1.00',
  'CPU ms/1k ev node / pg': cpuPer(s, 1000),
  'cores node / pg / other': coresUsed(s.cpu, s.seconds),
})

const syncCommit = stringArg('synchronous-commit')
await withBenchDatabase(
  'append',
  { poolSize: POOL, ...(syncCommit ? { settings: { synchronous_commit: syncCommit } } : {}) },
  async (bdb) => {
    const pool = bdb.plainPool(POOL)
    const { rows } = await pool.query<{ v: string; sc: string }>(
      "select version() as v, current_setting('synchronous_commit') as sc",
    )
    await headerWithLoad('event-store append throughput', [
      `${rows[0]!.v.split(' on ')[0]}, synchronous_commit=${rows[0]!.sc}; database ${bdb.name}; pool ${POOL} connections (port and baseline each)`,
      `${writers} writers; ${seconds} s per variant${maxEvents ? ` or ${fmt(maxEvents)} events` : ''}, in ${rounds} alternating rounds (a checkpoint before each); ${warmup} s warm-up; event ≈ ${eventBytes(sectionUpdated(1, 'cmd_x'))} bytes of JSON (data + metadata)`,
    ])
    const emmett = emmettRunner(bdb.url)
    const all: Runner[] = [
      portRunner('port', 'event-store port', createPostgresEventStore(bdb.db)),
      emmett,
      sqlRunner(pool, false),
    ]
    if (flag('diagnose')) all.push(sqlRunner(pool, true), sqlRunner(pool, false, true))
    if (flag('inline'))
      all.push(portRunner('inline', 'port + inline projections', createPostgresEventStore(bdb.db, [inlineProjector()])))
    const only = stringArg('only')?.split(',')
    const runners = only ? all.filter((r) => only.includes(r.key)) : all
    const baselineOf = (list: Summary[]) => list[runners.findIndex((r) => r.key === 'sql')]

    async function measure(kind: 'single' | 'batch'): Promise<Summary[]> {
      const load = kind === 'single' ? singleLoad : batchLoad
      const per = kind === 'single' ? 1 : batchSize
      const cap = maxEvents ? Math.ceil(maxEvents / per / rounds) : 0
      for (const r of runners) await load(r, `w${kind}`)(warmup, 0)
      await settle(pool, ['streams', 'events'])
      const loads = runners.map((r, i) => load(r, `${kind}${i}`))
      const runs = await interleaved(
        loads,
        rounds,
        (l) => l(seconds / rounds, cap),
        () => settle(pool),
      )
      return runs.map((run) => summarize(run.latencies, run.seconds, per, run.cpu))
    }
    const print = (list: Summary[]) => {
      const base = baselineOf(list)
      console.log(
        table(
          runners.map((r, i) =>
            row(
              r.key === 'sql' ? `${r.label} [baseline]` : r.label,
              list[i]!,
              base && r.key !== 'sql' ? base : undefined,
            ),
          ),
        ),
      )
    }
    const port = (list: Summary[]) => list[runners.findIndex((r) => r.key === 'port')]
    const peer = (list: Summary[]) => list[runners.findIndex((r) => r.key === 'emmett')]
    const versusPeer = (list: Summary[]) => {
      const p = port(list)
      const e = peer(list)
      if (p && e)
        console.log(
          `target: port ≥ 1.0 × Emmett in the same run → ${fmt(p.unitsPerSecond)} vs ${fmt(e.unitsPerSecond)} events/s, ratio ${fmt(p.unitsPerSecond / e.unitsPerSecond, 2)}: ${verdict(p.unitsPerSecond >= e.unitsPerSecond)}`,
        )
    }

    if (phase !== 'b') {
      const single = await measure('single')
      console.log(`(a) single-event appends, ${writers} concurrent writers, one stream each, exact expected version`)
      print(single)
      const p = port(single)
      const b = baselineOf(single)
      if (p && b) console.log(`port vs plain SQL: ratio ${fmt(p.unitsPerSecond / b.unitsPerSecond, 2)}`)
      versusPeer(single)
      console.log()
    }
    if (phase !== 'a') {
      const batch = await measure('batch')
      console.log(`(b) ${batchSize}-event appends, ${writers} concurrent writers, a new stream per append`)
      print(batch)
      const p = port(batch)
      const b = baselineOf(batch)
      if (p && b) console.log(`port vs plain SQL: ratio ${fmt(p.unitsPerSecond / b.unitsPerSecond, 2)}`)
      versusPeer(batch)
      console.log()
    }
    const total = await pool.query<{ n: number }>('select count(*)::int as n from events')
    console.log(`${fmt(total.rows[0]!.n)} events in the table at the end`)
    await emmett.close()
  },
)
