import t from 'tap'
import { sql } from 'kysely'
import { createPostgresEventStore, lockStreams } from '../../src/events/postgres-event-store.ts'
import type { NewEvent } from '../../src/events/event-store.ts'
import { projectionNamed } from '../../src/projections/index.ts'
import { rebuildProjection } from '../../src/projections/rebuild.ts'
import { freshDatabase, testDatabaseKind } from '../support/database.ts'
import { eventually } from '../support/eventually.ts'
import { agent, testServices } from '../support/services.ts'
import { statementCounter } from '../support/statements.ts'
import { applyThemeEdits, createTheme } from '../../src/commands/theme.ts'

// Group commit (src/events/append-groups.ts): appends that arrive while two statements run go out
// together as one statement, and each still gets the outcome it would have had alone.
const ev = (type: string, eventId?: string): NewEvent => ({
  type,
  data: { type },
  ...(eventId ? { eventId } : {}),
  metadata: {
    storeId: 'st_a',
    actor: { kind: 'system', credentialId: null, appId: null },
    channel: 'cli',
    correlationId: 'c',
    causationId: null,
    commandId: `cmd_${type}`,
    command: 'test',
  },
})
const to = (streamId: string, expected: any, events: NewEvent[]) => ({
  streamId,
  streamType: 'test',
  storeId: 'st_a',
  expected,
  events,
})
const streams = Array.from({ length: 12 }, (_, i) => `g-${String(i).padStart(2, '0')}`)

async function counted(t: { teardown: (fn: () => unknown) => void }) {
  const { db } = await freshDatabase(t)
  let statements = 0
  const store = createPostgresEventStore(db.withPlugin(statementCounter(() => statements++)))
  for (const s of streams) await store.append([to(s, 'no_stream', [ev(`${s} first`)])])
  return { db, store, statements: () => statements, reset: () => (statements = 0) }
}

t.test('twelve appends at once: two go alone, ten share one statement, each with its own outcome', async (t) => {
  const { store, statements, reset } = await counted(t)
  reset()
  // Started in reverse order: the first two go alone, the ten others wait and go together.
  const results = await Promise.all(
    [...streams].reverse().map((s) => {
      if (s === 'g-10') return store.append([to(s, 5, [ev(`${s} stale`)])])
      if (s === 'g-11') return store.append([to(s, 'no_stream', [ev(`${s} again`)])])
      return store.append([to(s, 1, [ev(`${s} second`), ev(`${s} third`)])])
    }),
  )
  t.equal(statements(), 3, 'three statements for twelve appends')
  const byStream = new Map([...streams].reverse().map((s, i) => [s, results[i]!]))
  t.same(
    byStream.get('g-10'),
    { ok: false, conflict: { streamId: 'g-10', expected: 5, actual: 1 } },
    'a stale member gets its conflict',
  )
  t.same(byStream.get('g-11'), { ok: false, conflict: { streamId: 'g-11', expected: 'no_stream', actual: 1 } })
  const transactions = new Set<string>()
  for (const s of streams.slice(0, 10)) {
    const r = byStream.get(s)!
    t.ok(r.ok, `${s} appended`)
    if (!r.ok) continue
    t.same(
      r.events.map((e) => [e.streamId, e.type, e.streamVersion]),
      [
        [s, `${s} second`, 2],
        [s, `${s} third`, 3],
      ],
      `${s}: its own events, in order, with their versions`,
    )
    t.same(r.streams, [{ streamId: s, version: 3 }])
    t.ok(r.events[0]!.globalPosition < r.events[1]!.globalPosition)
    transactions.add(r.events[0]!.transactionId)
  }
  // g-11 and g-10 (started first) went alone and conflicted; g-09 … g-00 share one transaction.
  t.equal(transactions.size, 1, 'the ten that waited committed together')
  for (const s of streams) {
    const read = await store.readStream(s)
    t.same(
      read.map((e) => e.streamVersion),
      s >= 'g-10' ? [1] : [1, 2, 3],
      `${s} holds what its outcome says`,
    )
  }
})

t.test("multi-stream appends and appends inside a caller's transaction go alone", async (t) => {
  const { db, store, statements, reset } = await counted(t)
  reset()
  // Four two-stream appends at once: four statements (grouped, they would be three).
  const pairs = await Promise.all(
    [0, 2, 4, 6].map((i) =>
      store.append([to(streams[i]!, 1, [ev(`${i} pair`)]), to(streams[i + 1]!, 1, [ev(`${i + 1} pair`)])]),
    ),
  )
  t.ok(pairs.every((r) => r.ok))
  t.equal(statements(), 4, 'one statement per multi-stream append')
  // Inside a transaction a failed group could not be run again member by member: four appends, four statements.
  let inside = 0
  await db.transaction().execute(async (trx) => {
    const bound = createPostgresEventStore(trx.withPlugin(statementCounter(() => inside++)))
    const results = await Promise.all(streams.slice(8).map((s) => bound.append([to(s, 1, [ev(`${s} inside`)])])))
    t.ok(results.every((r) => r.ok))
  })
  t.equal(inside, 4, 'one statement per append in the transaction')
})

t.test('a member whose write fails fails alone; the others are written once', async (t) => {
  const { store, statements, reset } = await counted(t)
  const taken = (await store.readStream('g-00'))[0]!.eventId
  reset()
  // g-05's event reuses an event id: the group's statement fails on it (unique violation), writes
  // nothing, and every member runs again alone.
  const results = await Promise.allSettled(
    streams.map((s) => store.append([to(s, 1, [ev(`${s} second`, s === 'g-05' ? taken : undefined)])])),
  )
  const failed = results[5]!
  t.equal(failed.status, 'rejected')
  if (failed.status === 'rejected')
    t.equal((failed.reason as { code?: string }).code, '23505', 'its own error, as alone')
  results.forEach((r, i) => {
    if (i !== 5) t.ok(r.status === 'fulfilled' && r.value.ok, `${streams[i]} appended`)
  })
  // Counted when they return: the two alone, then the failed group's members one by one (nine).
  t.equal(statements(), 2 + 9, 'the failed group ran again member by member')
  for (const s of streams) t.equal((await store.readStream(s)).length, s === 'g-05' ? 1 : 2, `${s} written once`)
})

t.test(
  'a group locks its streams in the order every append does, before its first member: no deadlock',
  { skip: testDatabaseKind !== 'postgres' && 'a held transaction beside the group needs a second connection' },
  async (t) => {
    const { db } = await freshDatabase(t)
    let statements = 0
    const store = createPostgresEventStore(db.withPlugin(statementCounter(() => statements++)))
    // Two streams whose lock order (their hash) is the reverse of the order they join the group.
    const names = Array.from({ length: 20 }, (_, i) => `dl-${i}`)
    const { rows } = await sql<{ s: string }>`select s from unnest(${names}::text[]) s order by hashtext(s)`.execute(db)
    const [x, y] = [rows[0]!.s, rows.at(-1)!.s]
    for (const s of [x, y, 'dl-alone-1', 'dl-alone-2']) await store.append([to(s, 'any', [ev(`${s} first`)])])

    // A command holding x's lock, as one deciding on fresh state does, that then needs y as well.
    let later: Promise<unknown> = Promise.resolve()
    await db.transaction().execute(async (trx) => {
      await lockStreams(trx, [x])
      statements = 0
      // Two go alone; y then x wait and go together. The group must wait for x before it takes y.
      later = Promise.all(
        ['dl-alone-1', 'dl-alone-2', y, x].map((s) => store.append([to(s, 'any', [ev(`${s} second`)])])),
      )
      const waiting = await eventually(
        async () =>
          (
            await sql<{
              n: number
            }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`.execute(
              db,
            )
          ).rows[0]!.n,
        (n) => n >= 1,
      )
      t.equal(waiting, 1, 'the group waits for a stream lock')
      // Without the group's locking part the group would hold y here and wait for x: a deadlock,
      // found after deadlock_timeout, that fails the group's statement (or this transaction).
      await lockStreams(trx, [x, y])
    })
    const results = (await later) as { ok: boolean }[]
    t.ok(
      results.every((r) => r.ok),
      'every append succeeded',
    )
    t.equal(statements, 3, 'two alone and one group: the group statement did not fail on a deadlock')
    for (const s of [x, y]) t.equal((await store.readStream(s)).length, 2)
  },
)

t.test('concurrent agent batches on eight themes in two stores: the projections equal a rebuild', async (t) => {
  const s = await testServices(t)
  const themes: { store: string; id: string }[] = []
  for (const store of ['st_a', 'st_b']) {
    for (let i = 0; i < 4; i++) {
      const r = await createTheme(s.commands, agent(store, 'createTheme'), { name: `${store} ${i}`, provider: 'test' })
      if (!r.ok) throw new Error(r.error.message)
      themes.push({ store, id: r.value.themeId })
    }
  }
  const before = Number(
    (await sql<{ n: string }>`select count(distinct transaction_id) as n from events`.execute(s.db)).rows[0]!.n,
  )
  const rounds = 5
  const outcomes = await Promise.all(
    Array.from({ length: rounds }, (_, round) =>
      Promise.all(
        themes.map(({ store, id }, k) =>
          applyThemeEdits(s.commands, agent(store, 'applyThemeBatch'), id, {
            operations: [
              {
                op: 'createSection',
                target: { template: 'home' },
                index: 0,
                section: { id: `r${round}-t${k}`, type: 'spacer', settings: { height: 8 + round } },
              },
              { op: 'updateTokens', tokens: { primaryColor: `#0${round}${k}000` } },
            ] as never,
          }),
        ),
      ),
    ),
  )
  t.ok(
    outcomes.flat().every((r) => r.ok),
    'every batch applied',
  )
  const after = Number(
    (await sql<{ n: string }>`select count(distinct transaction_id) as n from events`.execute(s.db)).rows[0]!.n,
  )
  t.ok(
    after - before < rounds * themes.length,
    `batches shared transactions (${after - before} for ${rounds * themes.length} batches)`,
  )
  for (const name of ['themes', 'developer_activity']) {
    const projection = projectionNamed(name)!
    const snapshot = async () =>
      (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(s.db)).rows
        .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))))
        .sort()
    const incremental = await snapshot()
    await rebuildProjection(s.db, s.eventStore, projection, { batchSize: 7 })
    t.same(await snapshot(), incremental, `${name}: rebuilt equals what the grouped appends wrote`)
  }
})
