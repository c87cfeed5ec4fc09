import { join } from 'node:path'
import t from 'tap'
import { sql } from 'kysely'
import { pino } from 'pino'
import { fold, type ThemeState } from '../../src/aggregates/theme/state.ts'
import { loadConfig } from '../../src/config.ts'
import { openPostgres } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import type { Position, RecordedEvent } from '../../src/events/event-store.ts'
import { START } from '../../src/events/event-store.ts'
import type { ThemeEvent } from '../../src/aggregates/theme/events.ts'
import { projections } from '../../src/projections/index.ts'
import { rebuildProjection } from '../../src/projections/rebuild.ts'
import { catchUp, readProjectionCheckpoint } from '../../src/projections/runner.ts'
import { findTheme } from '../../src/queries/themes/theme-queries.ts'
import { createServices, type Services } from '../../src/services.ts'
import { startCluster } from '../support/cluster.ts'
import { freshDatabase, testDatabaseKind } from '../support/database.ts'
import { eventually } from '../support/eventually.ts'
import { agent } from '../support/services.ts'
import { applyThemeEdits, createTheme } from '../../src/commands/theme.ts'

// The operator's ordinary backup path: pg_dump of a live database, pg_restore into a new cluster
// (whose transaction ids start low again), then writes, catch-up and rebuilds there.
const STORE = 'st_restore'
const spacer = (id: string) => ({
  op: 'createSection',
  target: { template: 'home' },
  section: { id, type: 'spacer', settings: { height: 16 } },
})

const services = (db: Services['db']) => {
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: 'http://storefront.test',
    SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
  })
  return createServices({ config, db, signingSecret: config.signingSecret!, logger: pino({ level: 'silent' }) })
}

async function readEverything(s: Services): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = []
  let position: Position = START
  for (;;) {
    const page = await s.eventStore.readAll({ after: position, limit: 7 })
    if (page.events.length === 0) return all
    all.push(...page.events)
    position = page.position
  }
}

t.test(
  'backup with pg_dump, restore into a new cluster, write, catch up and rebuild: nothing acknowledged is lost',
  { skip: testDatabaseKind === 'pglite' ? 'needs a second PostgreSQL cluster and pg_dump' : false },
  async (t) => {
    const source = await freshDatabase(t, { poolSize: 4 })
    const before = services(source.db)
    const created = await createTheme(before.commands, agent(STORE, 'createTheme'), {
      name: 'Restored',
      provider: 'test',
    })
    if (!created.ok) throw new Error(created.error.message)
    const themeId = created.value.themeId
    for (let i = 0; i < 3; i++) {
      const r = await applyThemeEdits(before.commands, agent(STORE, 'applyThemeBatch'), themeId, {
        operations: [spacer(`old-${i}`)] as never,
      })
      t.ok(r.ok, `batch ${i} before the backup`)
    }
    // A live service's catch-up runner has checkpoints at the end of the log.
    for (const p of projections) await catchUp(before.db, before.eventStore, p)
    // The horizon of the shared server may hold back the newest events for a moment (other databases' transactions).
    const written = Number(
      (await sql<{ n: number }>`select count(*)::int as n from events`.execute(source.db)).rows[0]!.n,
    )
    const orderBefore = (
      await eventually(
        () => readEverything(before),
        (all) => all.length === written,
      )
    ).map((e) => e.eventId)
    t.equal(orderBefore.length, written, 'every event readable before the backup')

    const cluster = await startCluster(t)
    const dump = join(cluster.dir, 'backup.dump')
    cluster.run('pg_dump', ['-Fc', '-d', source.url!, '-f', dump])
    cluster.run('createdb', ['-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres', 'restored'])
    cluster.run('pg_restore', [
      '-h',
      '127.0.0.1',
      '-p',
      String(cluster.port),
      '-U',
      'postgres',
      '-d',
      'restored',
      '--no-owner',
      dump,
    ])

    const restored = openPostgres(cluster.url('restored'), 4)
    t.teardown(() => restored.close())
    await migrateToLatest(restored.db)
    const after = services(restored.db)
    const { rows } = await sql<{ restored: string; next: string }>`
    select (select max(transaction_id)::text from events) as restored, pg_snapshot_xmax(pg_current_snapshot())::text as next`.execute(
      restored.db,
    )
    t.ok(
      BigInt(rows[0]!.restored) > BigInt(rows[0]!.next),
      `the case that matters: restored transaction ids (${rows[0]!.restored}) are above the new cluster's (${rows[0]!.next})`,
    )

    const applied = await applyThemeEdits(after.commands, agent(STORE, 'applyThemeBatch'), themeId, {
      operations: [spacer('new-0')] as never,
    })
    t.ok(applied.ok, 'a batch after the restore is acknowledged')
    const epochs = await restored.db.selectFrom('event_epochs').select('epoch').orderBy('epoch').execute()
    t.same(
      epochs.map((e) => e.epoch),
      [1, 2],
      'the restored database started a new epoch of the log',
    )

    // Catch-up reaches the end of the log.
    const total = Number(
      (await sql<{ n: number }>`select count(*)::int as n from events`.execute(restored.db)).rows[0]!.n,
    )
    const last = Number(
      (await sql<{ p: number }>`select max(global_position) as p from events`.execute(restored.db)).rows[0]!.p,
    )
    for (const p of projections) await catchUp(restored.db, after.eventStore, p)
    for (const p of projections) {
      const cp = await readProjectionCheckpoint(restored.db, p.name)
      t.equal(cp?.globalPosition, last, `${p.name}: catch-up reached the end of the log`)
    }

    // Reading all events: the restored ones in the same order as before, then the new ones.
    const orderAfter = (await readEverything(after)).map((e) => e.eventId)
    t.equal(orderAfter.length, total, 'readAll returns every event')
    t.same(orderAfter.slice(0, orderBefore.length), orderBefore, 'restored events keep their order')

    // Rebuilds give the theme every acknowledged change, equal to the replay of its stream.
    for (const p of projections) await rebuildProjection(restored.db, after.eventStore, p)
    const theme = (await findTheme(after.read, STORE, themeId))!
    const stream = await after.eventStore.readStream(`theme-${themeId}`)
    const replayed = fold(stream.map((e) => ({ type: e.type, data: e.data }) as ThemeEvent)) as ThemeState & {
      exists: true
    }
    const home = (doc: typeof theme.document) => JSON.stringify(doc).match(/"(old|new)-\d"/g)
    t.same(home(theme.document), home(replayed.document), 'the rebuilt theme equals the replay')
    t.ok(
      JSON.stringify(theme.document).includes('"new-0"'),
      'the change acknowledged after the restore survives the rebuild',
    )
    t.equal(theme.version, replayed.version)
  },
)
