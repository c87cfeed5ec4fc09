import t from 'tap'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../src/db/database.ts'
import type { EventMetadata, NewEvent, Position, RecordedEvent } from '../../src/events/event-store.ts'
import { createPostgresEventStore } from '../../src/events/postgres-event-store.ts'
import { freshDatabase, testDatabaseKind } from '../support/database.ts'
import { eventually } from '../support/eventually.ts'

// The event log is range-partitioned by global position (migration
// 202611261345-events-partitioned-by-position, decision 0165). Here the partitions hold 4
// positions each, so a few appends cross several boundaries.

const meta = (storeId: string): EventMetadata => ({
  storeId,
  actor: { kind: 'system', credentialId: null, appId: null },
  channel: 'cli',
  correlationId: 'c',
  causationId: null,
  commandId: `cmd_${Math.random()}`,
  command: 'test',
})
const ev = (type: string, storeId = 'st_a', eventId?: string): NewEvent => ({
  type,
  data: { type },
  metadata: meta(storeId),
  ...(eventId ? { eventId } : {}),
})
const to = (streamId: string, expected: 'any' | 'no_stream' | number, events: NewEvent[], storeId = 'st_a') => ({
  streamId,
  streamType: 'test',
  storeId,
  expected,
  events,
})

// A fresh log whose partitions hold `size` positions: the migration's empty 50-million partitions
// go, the next ones are made at the new size.
async function partitionsOf(db: Kysely<Database>, size: number): Promise<void> {
  for (const p of await partitions(db)) await sql`drop table ${sql.table(p.name)}`.execute(db)
  await sql`update event_partitioning set partition_size = ${size}, created_until = 1`.execute(db)
  await sql`select event_store_partitions_ahead()`.execute(db)
}

async function partitions(db: Kysely<Database>) {
  const { rows } = await sql<{ name: string; from: number; to: number; n: number }>`
    select c.relname as name, (regexp_match(pg_get_expr(c.relpartbound, c.oid), '\\(''(\\d+)''\\) TO \\(''(\\d+)''\\)'))[1]::bigint as "from",
      (regexp_match(pg_get_expr(c.relpartbound, c.oid), '\\(''(\\d+)''\\) TO \\(''(\\d+)''\\)'))[2]::bigint as "to",
      (select count(*) from events e where e.tableoid = c.oid)::int as n
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'events'::regclass order by 2`.execute(db)
  return rows.map((r) => ({ ...r, from: Number(r.from), to: Number(r.to) }))
}

async function readEverything(store: ReturnType<typeof createPostgresEventStore>, total: number, limit: number) {
  // Other databases' open transactions on the shared server hold the read horizon back a moment.
  await eventually(
    () => store.readAll({ limit: total + 1 }),
    (page) => page.events.length === total,
  )
  const seen: RecordedEvent[] = []
  let after: Position | undefined
  for (;;) {
    const page = await store.readAll({ limit, ...(after ? { after } : {}) })
    if (page.events.length === 0) return seen
    seen.push(...page.events)
    after = page.position
  }
}

t.test('appends and readAll across partition boundaries, partitions made ahead by the appends', async (t) => {
  const { db } = await freshDatabase(t)
  await partitionsOf(db, 4)
  t.same(
    (await partitions(db)).map((p) => [p.from, p.to]),
    [
      [1, 5],
      [5, 9],
      [9, 13],
    ],
    'the partition of the next position and two after it',
  )
  const store = createPostgresEventStore(db)
  const written: RecordedEvent[] = []
  const ok = (r: Awaited<ReturnType<typeof store.append>>) => {
    if (!r.ok) throw new Error('unexpected conflict')
    written.push(...r.events)
  }
  for (let i = 0; i < 3; i++) ok(await store.append([to('s-a', i === 0 ? 'no_stream' : i, [ev(`A${i + 1}`)])]))
  // Six events in one statement: positions 4 to 9, across two boundaries.
  ok(
    await store.append([
      to(
        's-b',
        'no_stream',
        ['B1', 'B2', 'B3', 'B4', 'B5', 'B6'].map((x) => ev(x, 'st_b')),
        'st_b',
      ),
    ]),
  )
  // Several streams in one append, and more appends of up to twice the partition size.
  ok(await store.append([to('s-a', 3, [ev('A4'), ev('A5')]), to('s-c', 'no_stream', [ev('C1')])]))
  for (let i = 0; i < 5; i++)
    ok(
      await store.append([
        to(
          's-c',
          'any',
          Array.from({ length: 8 }, (_, j) => ev(`C${2 + i * 8 + j}`)),
        ),
      ]),
    )
  const total = written.length
  t.equal(total, 52)
  t.same(
    written.map((e) => e.globalPosition),
    Array.from({ length: total }, (_, i) => i + 1),
    'positions 1 to 52, no gap',
  )

  const parts = await partitions(db)
  t.same(
    parts.map((p) => [p.from, p.to]),
    Array.from({ length: parts.length }, (_, i) => [1 + 4 * i, 5 + 4 * i]),
    'contiguous 4-position partitions',
  )
  t.ok(parts.at(-1)!.to >= 53 + 8, 'after the last append, its partition and two more exist')
  t.same(
    parts.filter((p) => p.n > 0).map((p) => p.n),
    Array.from({ length: 13 }, () => 4),
    'the 52 events sit 4 to a partition, in 13 partitions',
  )

  const one = await readEverything(store, total, 1)
  t.same(
    one.map((e) => [e.type, e.globalPosition]),
    written.map((e) => [e.type, e.globalPosition]),
    'readAll a page of 1 at a time: every event once, in commit order, across every boundary',
  )
  const pages = await readEverything(store, total, 5)
  t.same(
    pages.map((e) => e.eventId),
    written.map((e) => e.eventId),
    'pages of 5 that straddle boundaries read the same',
  )
  const storeB = await store.readAll({ storeId: 'st_b', limit: 100 })
  t.same(
    storeB.events.map((e) => e.type),
    ['B1', 'B2', 'B3', 'B4', 'B5', 'B6'],
    "one store's events across partitions",
  )
  t.same(
    (await store.readStream('s-a')).map((e) => [e.type, e.streamVersion]),
    [
      ['A1', 1],
      ['A2', 2],
      ['A3', 3],
      ['A4', 4],
      ['A5', 5],
    ],
    'a stream across partitions, in version order',
  )
  t.same(
    (await store.readStream('s-c', { fromVersion: 39 })).map((e) => e.streamVersion),
    [39, 40, 41],
    'from a version in a later partition',
  )
  const inEventIds = await sql<{ n: number }>`select count(*)::int as n from event_ids`.execute(db)
  t.equal(inEventIds.rows[0]!.n, total, 'every appended event id is in event_ids')
})

t.test('a duplicate event id is refused, also when the first one is in an older partition', async (t) => {
  const { db } = await freshDatabase(t)
  await partitionsOf(db, 4)
  const store = createPostgresEventStore(db)
  const id = '01900000-0000-7000-8000-000000000001'
  t.ok((await store.append([to('s-1', 'no_stream', [ev('First', 'st_a', id)])])).ok)
  for (let i = 0; i < 3; i++) t.ok((await store.append([to('s-2', 'any', [ev('X'), ev('Y'), ev('Z')])])).ok)
  const before = await sql<{ n: number }>`select count(*)::int as n from events`.execute(db)
  const first = await partitions(db)
  t.ok(first.filter((p) => p.n > 0).length >= 3, 'the log spans several partitions')

  await t.rejects(
    store.append([to('s-3', 'no_stream', [ev('Again', 'st_a', id)])]),
    { code: '23505' },
    'the same id in a new stream, landing in a later partition: refused',
  )
  await t.rejects(
    store.append([to('s-2', 'any', [ev('Fresh'), ev('Again', 'st_a', id)])]),
    { code: '23505' },
    'the same id among new ones in an existing stream: refused',
  )
  t.same(
    (await sql<{ n: number }>`select count(*)::int as n from events`.execute(db)).rows,
    before.rows,
    'nothing was written',
  )
  t.equal(await store.streamVersion('s-3'), null, 'the refused stream was not created')
  t.equal(await store.streamVersion('s-2'), 9, 'the existing stream kept its version')
})

t.test('a duplicate (stream, version) is refused', async (t) => {
  const { db } = await freshDatabase(t)
  await partitionsOf(db, 4)
  const store = createPostgresEventStore(db)
  // Positions: V1 and V2 at 1 and 2, the other stream's at 3 to 8, so V3 comes at 9, the first of
  // the partition [9, 13).
  t.ok((await store.append([to('s-1', 'no_stream', [ev('V1'), ev('V2')])])).ok)
  for (let i = 0; i < 2; i++) t.ok((await store.append([to('s-other', 'any', [ev('X'), ev('Y'), ev('Z')])])).ok)

  // The append's optimistic concurrency check, under the stream's lock, against the stream's row.
  t.same(
    await store.append([to('s-1', 1, [ev('Stale')])]),
    { ok: false, conflict: { streamId: 's-1', expected: 1, actual: 2 } },
    'an append expecting an older version, in a later partition: refused as a conflict',
  )
  t.same(
    await store.append([to('s-1', 'no_stream', [ev('Stale')])]),
    { ok: false, conflict: { streamId: 's-1', expected: 'no_stream', actual: 2 } },
    'an append that expects no stream: refused',
  )
  const next = await store.append([to('s-1', 'any', [ev('V3')])])
  t.ok(next.ok && next.events[0]!.streamVersion === 3, 'expected any gets the next version, not a used one')
  t.ok(next.ok && next.events[0]!.globalPosition === 9, 'in a later partition than versions 1 and 2')

  // The stream's row cannot be moved back to hand a used version out again.
  await t.rejects(
    sql`update streams set version = 1 where stream_id = 's-1'`.execute(db),
    { code: '23001', message: /stream s-1 would go back from version 3 to 1/ },
    "a stream's version never goes down",
  )
  // Written past the append function into the same partition: its unique index refuses it.
  await t.rejects(
    sql`insert into events (global_position, event_id, stream_id, stream_version, store_id, type, data, metadata)
      values (10, gen_random_uuid(), 's-1', 3, 'st_a', 'Dup', '{}', '{}')`.execute(db),
    { code: '23505' },
    'a direct insert of a used version into the same partition: refused',
  )
  t.same(
    (await store.readStream('s-1')).map((e) => [e.type, e.streamVersion]),
    [
      ['V1', 1],
      ['V2', 2],
      ['V3', 3],
    ],
    'the stream is as the accepted appends left it',
  )
  const dups = await sql<{ n: number }>`
    select count(*)::int as n from (select stream_id, stream_version from events group by 1, 2 having count(*) > 1) d`.execute(
    db,
  )
  t.equal(dups.rows[0]!.n, 0, 'no (stream, version) twice in the whole log')
})

t.test(
  'concurrent appends from several connections make the partitions they need, none refused',
  { skip: testDatabaseKind === 'pglite' ? 'one connection on PGlite' : false },
  async (t) => {
    const { db } = await freshDatabase(t, { poolSize: 10 })
    // 100 positions a partition: more than the appends in flight at once can draw (two group
    // statements of up to 16 appends of up to 3 events), so every boundary is met by appends
    // racing each other, on connections that each made their own check point.
    await partitionsOf(db, 100)
    const store = createPostgresEventStore(db)
    const writers = 8
    const appendsEach = 40
    const results = await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const mine: RecordedEvent[] = []
        for (let i = 0; i < appendsEach; i++) {
          const events = Array.from({ length: 1 + ((w + i) % 3) }, (_, j) => ev(`W${w}-${i}-${j}`, `st_${w % 2}`))
          const r = await store.append([to(`w-${w}`, i === 0 ? 'no_stream' : mine.at(-1)!.streamVersion, events)])
          if (!r.ok) throw new Error('unexpected conflict')
          mine.push(...r.events)
        }
        return mine
      }),
    )
    const written = results.flat()
    const positions = written.map((e) => e.globalPosition).sort((a, b) => a - b)
    t.equal(new Set(positions).size, written.length, `${written.length} appended events, each at its own position`)
    const parts = await partitions(db)
    t.ok(parts.filter((p) => p.n > 0).length >= 7, 'they fill several partitions')
    t.same(
      parts.map((p) => [p.from, p.to]),
      Array.from({ length: parts.length }, (_, i) => [1 + 100 * i, 101 + 100 * i]),
      'each partition made once, contiguous',
    )
    t.ok(parts.at(-1)!.to > positions.at(-1)! + 200, 'and two ahead of the last position')
    const read = await readEverything(store, written.length, 97)
    t.same(read.map((e) => e.eventId).sort(), written.map((e) => e.eventId).sort(), 'readAll returns every event once')
    for (let w = 0; w < writers; w++)
      t.same(
        read.filter((e) => e.streamId === `w-${w}`).map((e) => e.streamVersion),
        results[w]!.map((e) => e.streamVersion),
        `w-${w}: its events in version order in commit order`,
      )
  },
)
