import { type Kysely, sql } from 'kysely'
import { pino } from 'pino'
import t from 'tap'
import { registerMedia } from '../../src/commands/media.ts'
import { updateNavigation } from '../../src/commands/navigation.ts'
import { applyThemeEdits, archiveTheme, createTheme, publishTheme } from '../../src/commands/theme.ts'
import { loadConfig } from '../../src/config.ts'
import type { Database } from '../../src/db/database.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import type { RecordedEvent } from '../../src/events/event-store.ts'
import { projections } from '../../src/projections/index.ts'
import { rebuildProjection } from '../../src/projections/rebuild.ts'
import { createServices, type Services } from '../../src/services.ts'
import { seedDemoCommerce } from '../../src/seed/seed-commerce.ts'
import { emptyDatabase } from '../support/database.ts'
import { eventually } from '../support/eventually.ts'
import { agent } from '../support/services.ts'

// Migration 202611261345-events-partitioned-by-position on a database that already has a log:
// every event stays, with the same columns, in the same order, and a rebuild of every projection
// from the partitioned log gives the same tables as before.

const PARTITIONING = '202611261345-events-partitioned-by-position'

function services(db: Kysely<Database>): Services {
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: 'http://storefront.test',
    SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
  })
  return createServices({ config, db, signingSecret: config.signingSecret!, logger: pino({ level: 'silent' }) })
}

async function workload(s: Services, store: string) {
  const ids: string[] = []
  for (let i = 0; i < 3; i++) {
    const r = await createTheme(s.commands, agent(store, 'createTheme'), { name: `${store} ${i}`, provider: 'test' })
    if (!r.ok) throw new Error(r.error.message)
    ids.push(r.value.themeId)
    for (let j = 0; j < 3; j++)
      await applyThemeEdits(s.commands, agent(store, 'applyThemeBatch'), r.value.themeId, {
        operations: [
          {
            op: 'createSection',
            target: { template: 'home' },
            index: 0,
            section: { id: `s${i}-${j}`, type: 'spacer', settings: { height: 8 + j } },
          },
          { op: 'updateTokens', tokens: { primaryColor: `#00${i}${j}00` } },
        ] as never,
      })
  }
  await applyThemeEdits(s.commands, agent(store, 'applyThemeBatch'), ids[0]!, {
    operations: [{ op: 'deleteSection', sectionId: 'nope' }] as never,
  })
  await publishTheme(s.commands, agent(store, 'publishTheme'), ids[0]!, {})
  await publishTheme(s.commands, agent(store, 'publishTheme'), ids[1]!, {})
  await archiveTheme(s.commands, agent(store, 'archiveTheme'), ids[2]!, {})
  await updateNavigation(s.commands, agent(store, 'updateNavigation'), {
    menus: [{ handle: 'main', items: [{ label: 'Shop', href: '/products' }] }],
  })
  await registerMedia(s.commands, agent(store, 'uploadMedia'), {
    source: 'url',
    url: `https://cdn.example/${store}/banner.png`,
    alt: 'Banner',
  })
}

// The whole log in readAll's order (commit order), every column.
async function log(s: Services, total: number): Promise<RecordedEvent[]> {
  const page = await eventually(
    () => s.eventStore.readAll({ limit: total + 1 }),
    (p) => p.events.length === total,
  )
  return page.events
}

async function tables(db: Kysely<Database>) {
  const out: Record<string, string[]> = {}
  for (const table of projections.flatMap((p) => p.tables)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)
    out[table] = rows
      .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))))
      .sort()
  }
  return out
}

const count = async (db: Kysely<Database>) =>
  (await sql<{ n: number }>`select count(*)::int as n from events`.execute(db)).rows[0]!.n

t.test('an existing log is partitioned: same events, same order, same rebuild', async (t) => {
  const db = (await emptyDatabase(t)).db
  await migrateToLatest(db, [PARTITIONING])
  const before = services(db)
  await workload(before, 'st_a')
  // The rest of the log from position 49,999,996 on, so that it spans the first partition boundary
  // (50,000,001) once partitioned.
  await sql`select setval(pg_get_serial_sequence('events', 'global_position'), 49999995)`.execute(db)
  await workload(before, 'st_b')
  await seedDemoCommerce(db)
  const total = await count(db)
  const events = await log(before, total)
  t.ok(
    events.some((e) => e.globalPosition < 50_000_001) && events.some((e) => e.globalPosition >= 50_000_001),
    `${total} events on both sides of position 50,000,001`,
  )
  for (const projection of projections) await rebuildProjection(db, before.eventStore, projection, { batchSize: 50 })
  const rebuiltBefore = await tables(db)
  await before.close()

  t.same(await migrateToLatest(db), [PARTITIONING], 'the partitioning migration ran')
  const { rows: kind } = await sql<{
    k: string
  }>`select relkind::text as k from pg_class where relname = 'events'`.execute(db)
  t.same(kind, [{ k: 'p' }], 'events is a partitioned table')
  const { rows: held } = await sql<{ name: string; n: number }>`
    select c.relname as name, (select count(*) from events e where e.tableoid = c.oid)::int as n
    from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'events'::regclass order by 1`.execute(
    db,
  )
  t.same(
    held.filter((p) => p.n > 0).map((p) => p.name),
    ['events_from_1', 'events_from_50000001'],
    'the events sit in the partitions of their positions',
  )
  t.equal(
    held.reduce((n, p) => n + p.n, 0),
    total,
    'no event lost',
  )

  const after = services(db)
  t.teardown(() => after.close())
  t.same(await log(after, total), events, 'every event, every column, in the same order')
  t.same(
    (await sql<{ n: number }>`select count(*)::int as n from event_ids`.execute(db)).rows[0]!.n,
    total,
    'every event id is in event_ids',
  )
  for (const projection of projections) {
    const result = await rebuildProjection(db, after.eventStore, projection, { batchSize: 50 })
    t.match(result, { swapped: true, events: total })
  }
  t.same(await tables(db), rebuiltBefore, 'a rebuild of every projection gives the same tables')

  // The log goes on where it stopped.
  const last = Math.max(...events.map((e) => e.globalPosition))
  const next = await createTheme(after.commands, agent('st_a', 'createTheme'), { name: 'After', provider: 'test' })
  t.ok(next.ok)
  // Past the running-transaction horizon: it is cluster-wide, so another test file's open
  // transaction would hold back the event just committed here.
  const appended = (
    await after.eventStore.readAll({ after: events.at(-1)!, limit: 10, ignoreRunningTransactions: true })
  ).events
  t.ok(appended.length > 0 && appended.every((e) => e.globalPosition > last), 'new events come after the old ones')
})
