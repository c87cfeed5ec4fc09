import t from 'tap'
import type { ThemeState } from '../../src/aggregates/theme/state.ts'
import pg from 'pg'
import { pino } from 'pino'
import { sql, type Kysely, type KyselyPlugin } from 'kysely'
import { loadConfig } from '../../src/config.ts'
import type { Database } from '../../src/db/database.ts'
import { createServices } from '../../src/services.ts'
import { rebuildProjection } from '../../src/projections/rebuild.ts'
import { projections } from '../../src/projections/index.ts'
import { freshDatabase, testDatabaseKind } from '../support/database.ts'
import { applyThemeEdits, createTheme, publishTheme, updateTheme } from '../../src/commands/theme.ts'
import { themeStream } from '../../src/aggregates/theme/events.ts'
import { agent } from '../support/services.ts'

// A command is one statement that appends and writes every inline projection (its own implicit
// transaction: no begin, no commit), after its load when this process has not seen the theme yet.
// Issue 15's target is at most half of the 9 statements a command took; this holds the count
// where it is now.
const STORE = 'st_round_trips'
const MAX_STATEMENTS = {
  // the append with inline projections (the theme as this process last left it: src/commands/stream-cache.ts)
  applyThemeBatch: 1,
  // load (theme snapshot with its stream version) + append: a theme this process has not seen
  applyThemeBatchUnseen: 2,
  // registry load + append (create); the append (update)
  createTheme: 2,
  updateTheme: 1,
  // registry load + append of the theme, the registry and the former live theme
  publishTheme: 2,
}

async function countingServices(t: Parameters<typeof freshDatabase>[0]) {
  const { db } = await freshDatabase(t)
  const counts = { statements: 0, transactions: 0, sent: 0 }
  const counting: KyselyPlugin = {
    transformQuery: (args) => {
      counts.statements++
      return args.node
    },
    transformResult: async (args) => args.result,
  }
  const counted = db.withPlugin(counting) as Kysely<Database>
  const transaction = counted.transaction.bind(counted)
  counted.transaction = () => {
    counts.transactions++
    return transaction()
  }
  // Every message the pg driver sends, begin and commit included.
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    counts.sent++
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  t.teardown(() => {
    pg.Client.prototype.query = query
  })
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: 'http://storefront.test',
    SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
  })
  const services = createServices({
    config,
    db: counted,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
  })
  return { services, counts, db }
}

const tenOperations = (i: number) =>
  [
    {
      op: 'createSection',
      target: { template: 'home' },
      index: 0,
      section: { id: `a${i}`, type: 'spacer', settings: { height: 16 } },
    },
    {
      op: 'createSection',
      target: { template: 'home' },
      section: { id: `b${i}`, type: 'spacer', settings: { height: 24 } },
    },
    {
      op: 'createSection',
      target: { template: 'home' },
      section: { id: `c${i}`, type: 'spacer', settings: { height: 32 } },
    },
    { op: 'updateSection', sectionId: `a${i}`, settings: { height: 48 } },
    { op: 'updateSection', sectionId: 'home-about', settings: { heading: `About us (${i})` } },
    { op: 'moveSection', sectionId: `c${i}`, index: 0 },
    { op: 'moveSection', sectionId: `a${i}`, index: 2 },
    { op: 'deleteSection', sectionId: `a${i}` },
    { op: 'deleteSection', sectionId: `b${i}` },
    { op: 'deleteSection', sectionId: `c${i}` },
  ] as never

t.test('statements per command stay at most the counts above, with no explicit transaction', async (t) => {
  const { services: s, counts } = await countingServices(t)
  const measure = async (label: keyof typeof MAX_STATEMENTS, fn: () => Promise<{ ok: boolean }>) => {
    counts.statements = 0
    counts.transactions = 0
    counts.sent = 0
    const r = await fn()
    t.ok(r.ok, `${label} applied`)
    t.ok(
      counts.statements <= MAX_STATEMENTS[label],
      `${label}: ${counts.statements} statements (at most ${MAX_STATEMENTS[label]})`,
    )
    t.equal(counts.transactions, 0, `${label}: no explicit transaction (no begin, no commit)`)
    if (testDatabaseKind === 'postgres')
      t.ok(
        counts.sent <= MAX_STATEMENTS[label],
        `${label}: ${counts.sent} round trips (at most ${MAX_STATEMENTS[label]})`,
      )
  }
  const first = await createTheme(s.commands, agent(STORE, 'createTheme'), { name: 'Warm-up', provider: 'test' })
  if (!first.ok) throw new Error(first.error.message)
  let themeId = ''
  await measure('createTheme', async () => {
    const r = await createTheme(s.commands, agent(STORE, 'createTheme'), { name: 'Counted', provider: 'test' })
    if (r.ok) themeId = r.value.themeId
    return r
  })
  for (let i = 0; i < 3; i++)
    await measure('applyThemeBatch', () =>
      applyThemeEdits(s.commands, agent(STORE, 'applyThemeBatch'), themeId, { operations: tenOperations(i) }),
    )
  s.commands.streams!.drop(themeStream(themeId))
  await measure('applyThemeBatchUnseen', () =>
    applyThemeEdits(s.commands, agent(STORE, 'applyThemeBatch'), themeId, { operations: tenOperations(3) }),
  )
  await measure('updateTheme', () => updateTheme(s.commands, agent(STORE, 'updateTheme'), themeId, { name: 'Renamed' }))
  await measure('publishTheme', () => publishTheme(s.commands, agent(STORE, 'publishTheme'), first.value.themeId, {}))
  await measure('publishTheme', () => publishTheme(s.commands, agent(STORE, 'publishTheme'), themeId, {}))

  // What the append wrote inline equals a rebuild from the events, to the stored value (as text
  // in PostgreSQL: microseconds included).
  const rows = (table: string) =>
    sql<{ r: string }>`select to_jsonb(x)::text as r from ${sql.table(table)} x order by 1`
      .execute(s.db)
      .then((r) => r.rows.map((x) => x.r))
  for (const p of projections) {
    const before = await Promise.all(p.tables.map(rows))
    await rebuildProjection(s.db, s.eventStore, p)
    t.same(await Promise.all(p.tables.map(rows)), before, `${p.name}: inline rows equal the rebuilt ones`)
  }
})

t.test('a conflict in the one-statement append writes neither events nor projection rows', async (t) => {
  const { services: s, db } = await countingServices(t)
  const created = await createTheme(s.commands, agent(STORE, 'createTheme'), { name: 'Conflicted', provider: 'test' })
  if (!created.ok) throw new Error(created.error.message)
  const themeId = created.value.themeId
  const before = await db.selectFrom('themes').selectAll().where('theme_id', '=', themeId).executeTakeFirstOrThrow()
  const activity = await db
    .selectFrom('developer_activity')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  const stale = { exists: true as const, ...created.value, name: 'Stale' }
  const metadata = {
    storeId: STORE,
    actor: { kind: 'system' as const, credentialId: null, appId: null },
    channel: 'cli' as const,
    correlationId: 'c',
    causationId: null,
    commandId: 'cmd_stale',
    command: 'test',
  }
  const r = await s.eventStore.append([
    {
      streamId: themeStream(themeId),
      streamType: themeStream.type,
      storeId: STORE,
      expected: 7,
      state: stale,
      events: [{ type: 'ThemeRenamed', data: { name: 'Never', at: new Date().toISOString() }, metadata }],
    },
  ])
  t.same(r, { ok: false, conflict: { streamId: themeStream(themeId), expected: 7, actual: 1 } })
  t.same(
    await db.selectFrom('themes').selectAll().where('theme_id', '=', themeId).executeTakeFirstOrThrow(),
    before,
    'theme row unchanged',
  )
  t.same(
    await db
      .selectFrom('developer_activity')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    activity,
    'no activity row',
  )
  t.equal(await s.eventStore.streamVersion(themeStream(themeId)), 1)
})

t.test(
  'a command id that already has an activity row: the append falls back to the transaction way and merges',
  async (t) => {
    const { services: s, db } = await countingServices(t)
    const created = await createTheme(s.commands, agent(STORE, 'createTheme'), { name: 'Twice', provider: 'test' })
    if (!created.ok) throw new Error(created.error.message)
    const themeId = created.value.themeId
    const metadata = {
      storeId: STORE,
      actor: { kind: 'system' as const, credentialId: null, appId: null },
      channel: 'cli' as const,
      correlationId: 'c',
      causationId: null,
      commandId: 'cmd_twice',
      command: 'renameTwice',
    }
    const rename = (name: string, expected: number, state: unknown) =>
      s.eventStore.append([
        {
          streamId: themeStream(themeId),
          streamType: themeStream.type,
          storeId: STORE,
          expected,
          state,
          events: [{ type: 'ThemeRenamed', data: { name, at: new Date().toISOString() }, metadata }],
        },
      ])
    const one = await rename('One', 1, { exists: true, ...created.value })
    t.ok(one.ok)
    const theme = await db
      .selectFrom('themes')
      .select(['name', 'version'])
      .where('theme_id', '=', themeId)
      .executeTakeFirstOrThrow()
    t.same(theme, { name: 'One', version: 2 })
    const two = await rename('Two', 2, { exists: true, ...created.value, name: 'One', version: 2 })
    t.ok(two.ok, 'the second append succeeds')
    const row = await db
      .selectFrom('developer_activity')
      .selectAll()
      .where('command_id', '=', 'cmd_twice')
      .executeTakeFirstOrThrow()
    t.equal((row.changes as string[]).length, 2, 'both appends are in the one activity row')
    t.equal(Number(row.last_position), two.ok ? two.events[0]!.globalPosition : -1)
    t.same(
      await db
        .selectFrom('themes')
        .select(['name', 'version'])
        .where('theme_id', '=', themeId)
        .executeTakeFirstOrThrow(),
      { name: 'Two', version: 3 },
    )
  },
)

t.test(
  'a theme changed by another instance: the cached copy conflicts, is read again, and nothing is lost or wrongly refused',
  async (t) => {
    const { services: a, db } = await countingServices(t)
    const config = loadConfig({
      NODE_ENV: 'test',
      BASE_URL: 'http://storefront.test',
      SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
    })
    const b = createServices({ config, db, signingSecret: config.signingSecret!, logger: pino({ level: 'silent' }) })
    const created = await createTheme(a.commands, agent(STORE, 'createTheme'), { name: 'Shared', provider: 'test' })
    if (!created.ok) throw new Error(created.error.message)
    const id = created.value.themeId
    const spacer = (sid: string) =>
      ({
        op: 'createSection',
        target: { template: 'home' },
        section: { id: sid, type: 'spacer', settings: { height: 16 } },
      }) as never
    t.ok(
      (await applyThemeEdits(a.commands, agent(STORE, 'applyThemeBatch'), id, { operations: [spacer('from-a-1')] })).ok,
    )
    // B, with its own cache, changes the theme A holds in its cache.
    const fromB = await applyThemeEdits(b.commands, agent(STORE, 'applyThemeBatch'), id, {
      operations: [spacer('from-b')],
    })
    if (!fromB.ok) throw new Error(fromB.error.message)
    t.equal(
      (a.commands.streams!.get(themeStream(id))?.state as ThemeState & { exists: true })?.version,
      fromB.value.version - 1,
      "A's cached copy is one version behind",
    )
    // A names the version B left: a refusal on A's stale copy would be wrong.
    const named = await applyThemeEdits(a.commands, agent(STORE, 'applyThemeBatch'), id, {
      operations: [spacer('from-a-2')],
      expectedVersion: fromB.value.version,
    })
    t.ok(named.ok, 'not refused for the version B wrote')
    if (!named.ok) return
    const ids = named.value.document.templates.home.map((s) => s.id)
    t.ok(
      ['from-a-1', 'from-b', 'from-a-2'].every((x) => ids.includes(x)),
      'no change lost',
    )
    // B's copy is now behind; without an expected version it conflicts, is read again and applies.
    const again = await applyThemeEdits(b.commands, agent(STORE, 'applyThemeBatch'), id, {
      operations: [spacer('from-b-2')],
    })
    t.ok(again.ok)
    const stale = await applyThemeEdits(a.commands, agent(STORE, 'applyThemeBatch'), id, {
      operations: [spacer('late')],
      expectedVersion: named.value.version,
    })
    t.equal(
      stale.ok ? 'applied' : stale.error.code,
      'VERSION_CONFLICT',
      'a really stale expected version is still refused',
    )
    const row = await db
      .selectFrom('themes')
      .select(['version', 'document'])
      .where('theme_id', '=', id)
      .executeTakeFirstOrThrow()
    t.equal(row.version, again.ok ? again.value.version : -1)
    t.same(
      (row.document as { templates: { home: { id: string }[] } }).templates.home
        .map((s) => s.id)
        .filter((x) => x.startsWith('from-')),
      ['from-a-1', 'from-b', 'from-a-2', 'from-b-2'],
      'every change, in order',
    )
  },
)

t.test(
  'publishing with a cached copy that another instance made stale: the registry decides, exactly one theme is live',
  async (t) => {
    const { services: a, db } = await countingServices(t)
    const config = loadConfig({
      NODE_ENV: 'test',
      BASE_URL: 'http://storefront.test',
      SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
    })
    const b = createServices({ config, db, signingSecret: config.signingSecret!, logger: pino({ level: 'silent' }) })
    const create = async (name: string) => {
      const r = await createTheme(a.commands, agent(STORE, 'createTheme'), { name, provider: 'test' })
      if (!r.ok) throw new Error(r.error.message)
      return r.value.themeId
    }
    const [p, q] = [await create('P'), await create('Q')]
    const statuses = async () =>
      Object.fromEntries(
        (
          await db
            .selectFrom('themes')
            .select(['theme_id', 'status'])
            .where('store_id', '=', STORE)
            .where('theme_id', 'in', [p, q])
            .execute()
        ).map((r) => [r.theme_id, r.status]),
      )
    const live = async () =>
      (await db.selectFrom('live_themes').select('theme_id').where('store_id', '=', STORE).executeTakeFirst())?.theme_id

    // B publishes P; A still holds P as a draft. A publishes Q: the former live theme is P.
    t.ok((await publishTheme(b.commands, agent(STORE, 'publishTheme'), p, {})).ok)
    t.equal(
      (a.commands.streams!.get(themeStream(p))?.state as ThemeState & { exists: true })?.status,
      'draft',
      "A's copy of P is stale",
    )
    t.ok((await publishTheme(a.commands, agent(STORE, 'publishTheme'), q, {})).ok)
    t.same(
      await statuses(),
      { [p]: 'private', [q]: 'active' },
      'P was unpublished although A’s copy said it was a draft',
    )

    // A holds Q as live; B publishes P again, so Q is private. A publishes Q: not a no-op.
    t.ok((await publishTheme(b.commands, agent(STORE, 'publishTheme'), p, {})).ok)
    t.equal(
      (a.commands.streams!.get(themeStream(q))?.state as ThemeState & { exists: true })?.status,
      'active',
      "A's copy of Q is stale",
    )
    t.ok((await publishTheme(a.commands, agent(STORE, 'publishTheme'), q, {})).ok)
    t.same(await statuses(), { [p]: 'private', [q]: 'active' }, 'Q is live again, P private')
    t.equal(await live(), q, 'the storefront points at Q')
  },
)
