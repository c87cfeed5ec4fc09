import t from 'tap'
import { sql } from 'kysely'
import { createPostgresEventStore, lockStreams } from '../../src/events/postgres-event-store.ts'
import type { EventMetadata, NewEvent, Position, RecordedEvent } from '../../src/events/event-store.ts'
import { freshDatabase, testDatabaseKind } from '../support/database.ts'
import { eventually } from '../support/eventually.ts'

const meta = (command = 'test'): EventMetadata => ({
  storeId: 'st_a',
  actor: { kind: 'system', credentialId: null, appId: null },
  channel: 'cli',
  correlationId: 'c',
  causationId: null,
  commandId: `cmd_${Math.random()}`,
  command,
})
const ev = (type: string, data: unknown = {}): NewEvent => ({ type, data, metadata: meta() })
const to = (streamId: string, expected: any, events: NewEvent[]) => ({
  streamId,
  streamType: 'test',
  storeId: 'st_a',
  expected,
  events,
})

t.test('append with every kind of expected version', async (t) => {
  const { db } = await freshDatabase(t)
  const store = createPostgresEventStore(db)

  const first = await store.append([to('s-1', 'no_stream', [ev('A'), ev('B')])])
  t.ok(first.ok)
  if (first.ok)
    t.same(
      first.events.map((e) => [e.type, e.streamVersion]),
      [
        ['A', 1],
        ['B', 2],
      ],
    )

  const again = await store.append([to('s-1', 'no_stream', [ev('C')])])
  t.same(again, { ok: false, conflict: { streamId: 's-1', expected: 'no_stream', actual: 2 } })

  t.same(await store.append([to('s-1', 1, [ev('C')])]), {
    ok: false,
    conflict: { streamId: 's-1', expected: 1, actual: 2 },
  })
  const exact = await store.append([to('s-1', 2, [ev('C')])])
  t.ok(exact.ok)
  t.same(await store.append([to('nope', 'exists', [ev('X')])]), {
    ok: false,
    conflict: { streamId: 'nope', expected: 'exists', actual: 'no_stream' },
  })
  t.same(await store.append([to('nope', 3, [ev('X')])]), {
    ok: false,
    conflict: { streamId: 'nope', expected: 3, actual: 'no_stream' },
  })
  t.ok((await store.append([to('s-1', 'exists', [ev('D')])])).ok)
  t.ok((await store.append([to('s-2', 'any', [ev('E')])])).ok)
  t.ok((await store.append([to('s-2', 'any', [ev('F')])])).ok)

  const s1 = await store.readStream('s-1')
  t.same(
    s1.map((e) => e.type),
    ['A', 'B', 'C', 'D'],
  )
  t.same(
    s1.map((e) => e.streamVersion),
    [1, 2, 3, 4],
  )
  t.equal(await store.streamVersion('s-2'), 2)
  t.equal(await store.streamVersion('missing'), null)
  const one = s1[0]!
  t.match(one, {
    eventId: /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    storeId: 'st_a',
    schemaVersion: 1,
    metadata: { command: 'test' },
  })
  t.ok(
    Math.abs(parseInt(one.eventId.replace(/-/g, '').slice(0, 12), 16) - one.recordedAt.getTime()) < 60_000,
    'a UUIDv7: it starts with the time it was made',
  )
  t.ok(one.recordedAt instanceof Date)
})

t.test('a multi-stream append is one transaction: a conflict on one stream writes nothing', async (t) => {
  const { db } = await freshDatabase(t)
  const store = createPostgresEventStore(db)
  await store.append([to('a', 'no_stream', [ev('A1')])])
  const res = await store.append([to('a', 1, [ev('A2')]), to('b', 5, [ev('B1')])])
  t.same(res, { ok: false, conflict: { streamId: 'b', expected: 5, actual: 'no_stream' } })
  t.same(
    (await store.readStream('a')).map((e) => e.type),
    ['A1'],
  )
  t.equal(await store.streamVersion('b'), null)
  const ok = await store.append([to('a', 1, [ev('A2')]), to('b', 'no_stream', [ev('B1')])])
  t.ok(ok.ok)
  if (ok.ok) t.equal(new Set(ok.events.map((e) => e.transactionId)).size, 1, 'one transaction id for both streams')
})

t.test('the event table refuses update, delete and truncate', async (t) => {
  const { db } = await freshDatabase(t)
  const store = createPostgresEventStore(db)
  await store.append([to('a', 'no_stream', [ev('A1')])])
  await t.rejects(sql`update events set type = 'X'`.execute(db), /append-only/)
  await t.rejects(sql`delete from events`.execute(db), /append-only/)
  await t.rejects(sql`truncate events cascade`.execute(db), /append-only/)
  t.same(
    (await store.readStream('a')).map((e) => e.type),
    ['A1'],
  )
})

// What the events → streams foreign key guarded, without it (migration 0015): a stream's row
// stays while its events do, and every appended event has its stream.
t.test("a stream's row is kept: delete, rename and truncate are refused, appends still advance it", async (t) => {
  const { db } = await freshDatabase(t)
  const store = createPostgresEventStore(db)
  await store.append([to('a', 'no_stream', [ev('A1')])])
  await t.rejects(sql`delete from streams where stream_id = 'a'`.execute(db), /streams are kept: DELETE refused/)
  await t.rejects(
    sql`update streams set stream_id = 'b' where stream_id = 'a'`.execute(db),
    /streams are kept: UPDATE refused/,
  )
  await t.rejects(sql`truncate streams cascade`.execute(db), /streams are kept: TRUNCATE refused/)
  t.ok(
    (await store.append([to('a', 1, [ev('A2'), ev('A3')])])).ok,
    'an append updates the version, which the triggers allow',
  )
  await sql`update streams set updated_at = now() where stream_id = 'a'`.execute(db)
  t.equal(await store.streamVersion('a'), 3)
  t.same(
    (await store.readStream('a')).map((e) => e.type),
    ['A1', 'A2', 'A3'],
  )
  const { rows } = await sql<{
    foreign: number
  }>`select count(*)::int as foreign from pg_constraint where conrelid = 'events'::regclass and contype = 'f'`.execute(
    db,
  )
  t.equal(rows[0]!.foreign, 0, 'no foreign key check per appended event')
})

t.test('inline projectors run in the append transaction; their failure rolls the append back', async (t) => {
  const { db } = await freshDatabase(t)
  const seen: RecordedEvent[] = []
  let fail = false
  const store = createPostgresEventStore(db, [
    async (_trx, events) => {
      if (fail) throw new Error('projector failed')
      seen.push(...events)
    },
  ])
  await store.append([to('a', 'no_stream', [ev('A1'), ev('A2')])])
  t.same(
    seen.map((e) => e.type),
    ['A1', 'A2'],
  )
  fail = true
  await t.rejects(store.append([to('a', 2, [ev('A3')])]), /projector failed/)
  t.equal(await store.streamVersion('a'), 2)
})

t.test('readAll pages in commit order and filters by store', async (t) => {
  const { db } = await freshDatabase(t)
  const store = createPostgresEventStore(db)
  for (let i = 0; i < 5; i++) await store.append([to(`s-${i % 2}`, 'any', [ev(`E${i}`)])])
  await store.append([{ ...to('other', 'any', [ev('O')]), storeId: 'st_b' }])
  await eventually(
    () => store.readAll(),
    (page) => page.events.length === 6,
  )
  const page1 = await store.readAll({ limit: 3 })
  t.same(
    page1.events.map((e) => e.type),
    ['E0', 'E1', 'E2'],
  )
  const page2 = await store.readAll({ after: page1.position, limit: 10 })
  t.same(
    page2.events.map((e) => e.type),
    ['E3', 'E4', 'O'],
  )
  const onlyA = await store.readAll({ storeId: 'st_a' })
  t.equal(onlyA.events.length, 5)
  const done = await store.readAll({ after: page2.position })
  t.same(done.events, [])
  t.same(done.position, page2.position)
})

// PGlite has a single connection, so there are no concurrent transactions to test there.
t.test(
  'gap-free readAll while 8 writers append and some transactions are held open',
  { skip: testDatabaseKind === 'pglite' ? 'one connection on PGlite' : false },
  async (t) => {
    const { db } = await freshDatabase(t, { poolSize: 20 })
    const store = createPostgresEventStore(db)
    const writers = 8
    const perWriter = 40
    let holdNext = 0
    // Every fifth append sleeps inside its transaction after writing, so later-numbered events commit first.
    const holdingStore = createPostgresEventStore(db, [
      async (trx) => {
        if (holdNext++ % 5 === 0) await sql`select pg_sleep(0.05)`.execute(trx)
      },
    ])
    const written: string[] = []
    // The case that matters, made certain instead of left to the writers' timing: a transaction that
    // has its id before another transaction's append, and writes its own event after that one has
    // committed. Its event has the larger position and comes first in commit order.
    const reordered = db.transaction().execute(async (trx) => {
      await sql`select pg_current_xact_id()`.execute(trx)
      const other = await store.append([to('later-id', 'no_stream', [ev('later-id')])])
      const own = await createPostgresEventStore(trx).append([to('earlier-id', 'no_stream', [ev('earlier-id')])])
      if (!other.ok || !own.ok) throw new Error('unexpected conflict')
    })
    const writing = Promise.all([
      reordered,
      ...Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) {
          const res = await holdingStore.append([to(`w-${w}`, i === 0 ? 'no_stream' : i, [ev(`w${w}-${i}`)])])
          if (!res.ok) throw new Error('unexpected conflict')
          written.push(`w${w}-${i}`)
        }
      }),
    ])
    const seen: RecordedEvent[] = []
    let position = undefined as undefined | Position
    let finished = false
    void writing.then(() => {
      finished = true
    })
    const total = writers * perWriter + 2
    while (!finished || seen.length < total) {
      const page = await store.readAll({ ...(position ? { after: position } : {}), limit: 17 })
      seen.push(...page.events)
      position = page.position
      if (page.events.length === 0) await new Promise((r) => setTimeout(r, 2))
    }
    await writing
    t.equal(seen.length, total, 'every event seen exactly once')
    t.equal(new Set(seen.map((e) => e.eventId)).size, seen.length, 'no duplicates')
    const orphans = await sql<{
      n: number
    }>`select count(*)::int as n from events e where not exists (select 1 from streams s where s.stream_id = e.stream_id)`.execute(
      db,
    )
    t.equal(orphans.rows[0]!.n, 0, 'every event has its stream row')
    const lastVersion = new Map<string, number>()
    let inOrder = true
    for (const e of seen) {
      const prev = lastVersion.get(e.streamId) ?? 0
      if (e.streamVersion !== prev + 1) inOrder = false
      lastVersion.set(e.streamId, e.streamVersion)
    }
    t.ok(inOrder, 'each stream is seen in order, without holes')
    const positions = seen.map((e) => e.globalPosition)
    t.not(
      positions.join(','),
      [...positions].sort((a, b) => a - b).join(','),
      'commit order differed from position order at least once (the case that matters)',
    )
    const at = (type: string) => seen.findIndex((e) => e.type === type)
    t.ok(
      at('earlier-id') < at('later-id') &&
        seen[at('earlier-id')]!.globalPosition > seen[at('later-id')]!.globalPosition,
      'the earlier transaction id is read first, though its position is larger',
    )
  },
)

t.test('readAll orders transaction ids as numbers, not text: 9 comes before 10', async (t) => {
  const { db } = await freshDatabase(t)
  const store = createPostgresEventStore(db)
  // Rows written with explicit, old transaction ids (the append-only trigger allows inserts).
  await sql`insert into streams (stream_id, stream_type, store_id, version) values ('s-x', 'test', 'st_a', 4)`.execute(
    db,
  )
  for (const [xid, version] of [
    [10, 1],
    [10, 2],
    [9, 3],
    [9, 4],
  ] as const) {
    await sql`insert into events (transaction_id, event_id, stream_id, stream_version, store_id, type, data, metadata)
      values (${String(xid)}::xid8, gen_random_uuid(), 's-x', ${version}, 'st_a', ${`E${xid}-${version}`}, '{}', '{}')`.execute(
      db,
    )
  }
  const seen: string[] = []
  let position = undefined as undefined | Position
  for (let i = 0; i < 10; i++) {
    const page = await store.readAll({ ...(position ? { after: position } : {}), limit: 1 })
    if (page.events.length === 0) break
    seen.push(...page.events.map((e) => `${e.transactionId}:${e.type}`))
    position = page.position
  }
  t.same(seen, ['9:E9-3', '9:E9-4', '10:E10-1', '10:E10-2'], 'every event, in numeric transaction order')
})

// A multi-stream writer that queued behind a writer of one of its streams must get the later
// transaction id, or a reader in commit order would see that stream's version 2 before version 1.
t.test(
  'a multi-stream append that waited for a stream commits after it in commit order',
  { skip: testDatabaseKind === 'pglite' ? 'one connection on PGlite' : false },
  async (t) => {
    const { db } = await freshDatabase(t, { poolSize: 6 })
    const store = createPostgresEventStore(db)
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let locked!: () => void
    const isLocked = new Promise<void>((r) => (locked = r))
    // T1 holds stream b's lock, not yet written (no transaction id yet).
    const first = db.transaction().execute(async (trx) => {
      await lockStreams(trx, ['b'])
      locked()
      await held
      return createPostgresEventStore(trx).append([to('b', 'no_stream', [ev('B1')])])
    })
    await isLocked
    // T2 writes a and b; it must wait for b before it writes anything.
    const second = store.append([to('a', 'no_stream', [ev('A1')]), to('b', 'any', [ev('B2')])])
    await new Promise((r) => setTimeout(r, 200))
    release()
    const [one, two] = await Promise.all([first, second])
    t.ok(one.ok && two.ok)
    if (!one.ok || !two.ok) return
    t.ok(
      BigInt(one.events[0]!.transactionId) < BigInt(two.events[0]!.transactionId),
      'the writer that waited has the later transaction id',
    )
    const all = await eventually(
      () => store.readAll(),
      (p) => p.events.length === 3,
    )
    t.same(
      all.events.filter((e) => e.streamId === 'b').map((e) => e.streamVersion),
      [1, 2],
      'stream b in version order',
    )
  },
)
