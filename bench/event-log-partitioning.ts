// The migration that partitions the event log (src/db/migrations/202611261345-events-partitioned-by-position.ts)
// on a log of --events events (1,000,000 by default): how long an existing database is locked
// while it runs. The database is migrated without it, filled, then migrated to the latest.
//
// The log: events of the shape and size of an agent's section edit (bench/support/events.ts,
// about 700 bytes of JSON), in streams of 100 events spread over 100 stores, written 10,000 per
// transaction (so transaction ids vary as in a real log). Checked: the same events, in the same
// commit order, before and after (a digest of the event ids in readAll's order, and the count).
// No baseline of its own; the row compares it with what a plain copy of the table costs
// (`create table … as select * from events`, timed in the same run).
//
// node_modules/.bin/node bench/event-log-partitioning.ts [--events 1000000]
import { sql } from 'kysely'
import { migrateToLatest } from '../src/db/migrate.ts'
import { withBenchDatabase } from './support/database.ts'
import { sectionUpdated } from './support/events.ts'
import { fmt, headerWithLoad, numberArg, table } from './support/measure.ts'

const PARTITIONING = '202611261345-events-partitioned-by-position'
const EVENTS = numberArg('events', 1_000_000)
const PER_TRANSACTION = 10_000

await withBenchDatabase('partitioning', { poolSize: 2, withoutMigrations: [PARTITIONING] }, async (bdb) => {
  const pool = bdb.plainPool(1)
  await headerWithLoad('partitioning the event log: the migration on an existing log', [
    `${fmt(EVENTS)} events in streams of 100, 100 stores, ${fmt(PER_TRANSACTION)} per transaction; database ${bdb.name}`,
  ])
  const sample = sectionUpdated(1, 'cmd_bench')
  const data = JSON.stringify(sample.data)
  const metadata = JSON.stringify(sample.metadata)
  const fillStarted = performance.now()
  for (let from = 0; from < EVENTS; from += PER_TRANSACTION) {
    const to = Math.min(EVENTS, from + PER_TRANSACTION)
    await pool.query(
      `with g as (select n from generate_series($1::bigint, $2::bigint - 1) n), s as (
         insert into streams (stream_id, stream_type, store_id, version)
         select 'theme-' || n / 100, 'theme', 'st_' || (n / 100) % 100, 100 from g where n % 100 = 0
       )
       insert into events (event_id, stream_id, stream_version, store_id, type, data, metadata)
       select gen_random_uuid(), 'theme-' || n / 100, n % 100 + 1, 'st_' || (n / 100) % 100, 'SectionUpdated',
         jsonb_set($3::jsonb, '{section,settings,heading}', to_jsonb('About us (' || n || ')')), $4::jsonb
       from g order by n`,
      [from, to, data, metadata],
    )
  }
  await pool.query('vacuum analyze events')
  await pool.query('checkpoint')
  const fillSeconds = (performance.now() - fillStarted) / 1000
  // Table, partitions, indexes and TOAST.
  const size = async () =>
    (
      await pool.query<{ bytes: string }>(
        `select pg_size_pretty(sum(pg_total_relation_size(oid))) as bytes from pg_class
         where relname in ('events', 'event_ids') or oid in (select inhrelid from pg_inherits where inhparent = 'events'::regclass)`,
      )
    ).rows[0]!.bytes
  const order = async () =>
    (
      await pool.query<{ n: number; d: string }>(
        `select count(*)::int as n, md5(string_agg(event_id::text, ',' order by epoch, transaction_id, global_position)) as d from events`,
      )
    ).rows[0]!
  const before = await order()
  const sizeBefore = await size()

  const copyStarted = performance.now()
  await pool.query('create table bench_events_copy as select * from events')
  const copySeconds = (performance.now() - copyStarted) / 1000
  await pool.query('drop table bench_events_copy')
  await pool.query('checkpoint')

  const started = performance.now()
  const ran = await migrateToLatest(bdb.db)
  const seconds = (performance.now() - started) / 1000
  if (ran.join() !== PARTITIONING) throw new Error(`expected only the partitioning migration, ran ${ran.join()}`)
  const after = await order()
  const { rows: parts } = await pool.query<{ name: string; n: number }>(
    `select c.relname as name, (select count(*) from events e where e.tableoid = c.oid)::int as n
     from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'events'::regclass order by 1`,
  )
  const same = before.n === after.n && before.d === after.d
  console.log(
    table([
      {
        events: fmt(before.n),
        'fill (s)': fmt(fillSeconds, 1),
        'plain copy of the table (s)': fmt(copySeconds, 1),
        'migration (s)': fmt(seconds, 1),
        'per million events (s)': fmt((seconds * 1_000_000) / before.n, 1),
        'size before / after': `${sizeBefore} / ${await size()}`,
        'same events, same order': same ? 'yes' : 'NO',
      },
    ]),
  )
  console.log(`partitions: ${parts.map((p) => `${p.name} (${fmt(p.n)})`).join(', ')}`)
  const { rows: check } = await sql<{ n: number }>`select count(*)::int as n from event_ids`.execute(bdb.db)
  console.log(`event_ids: ${fmt(check[0]!.n)} rows`)
  if (!same) process.exitCode = 1
})
