import t from 'tap'
import type { Kysely } from 'kysely'
import { openPglite } from '../../src/db/connect.ts'
import type { Database } from '../../src/db/database.ts'
import { inProcessCli } from '../cli/support.ts'
import { freshDatabase, templateDataDir, testDatabaseKind } from '../support/database.ts'

// `projections:status` as an operator reads it: lag in events and seconds, and "rebuild needed"
// when a projection's tables were built by another code version than the one running.
t.test('projections:status shows lag and when a rebuild is needed; a rebuild clears it', async (t) => {
  const env: Record<string, string> = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    SIGNING_SECRET: 'cli-test-secret-0123456789abcdefghij',
  } as Record<string, string>
  delete env.DATABASE_URL
  // The seeded stores (what `npm run seed` makes); the test changes the database between CLI runs
  // (PGlite: only while no CLI has it open). The commands run in this process (test/cli/support.ts:
  // the same code past the process start; cli.int runs one in a process of its own).
  let withDb: (fn: (db: Kysely<Database>) => Promise<void>) => Promise<void>
  if (testDatabaseKind === 'pglite') {
    const dir = await templateDataDir(t, 'demo')
    env.DATA_DIR = dir
    withDb = async (fn) => {
      const opened = await openPglite(dir)
      try {
        await fn(opened.db)
      } finally {
        await opened.close()
      }
    }
  } else {
    const opened = await freshDatabase(t, { seed: 'demo' })
    env.DATABASE_URL = opened.url!
    withDb = (fn) => fn(opened.db)
  }
  const projections = inProcessCli(env)
  const cli = (args: string[]) => projections('projections', args)

  const behind = await cli(['status'])
  t.equal(behind.code, 0, behind.stderr)
  t.match(
    behind.stdout,
    /themes\s+checkpoint none of (\d+)\s+\1 events, \d+\.\d s behind;\s+code version 1/,
    'never caught up: the whole log behind, with its age',
  )

  const caughtUp = await cli(['catch-up'])
  t.equal(caughtUp.code, 0)
  t.equal(caughtUp.stderr.includes('\r'), false, 'no progress drawing when stderr is not a terminal')
  t.match((await cli(['status'])).stdout, /themes\s+checkpoint (\d+) of \1\s+caught up/)

  // The tables were built by an older code version of the themes projection.
  await withDb(async (db) => {
    await db
      .insertInto('projection_versions')
      .values({ name: 'themes', code_version: 0 })
      .onConflict((oc) => oc.column('name').doUpdateSet({ code_version: 0 }))
      .execute()
  })
  const stale = await cli(['status'])
  t.match(stale.stdout, /themes .*REBUILD NEEDED: tables built by code version 0, code is version 1/)
  t.notMatch(stale.stdout, /live_themes .*REBUILD NEEDED/, 'only the changed projection')
  t.equal((await cli(['rebuild', 'themes'])).code, 0)
  t.notMatch((await cli(['status'])).stdout, /REBUILD NEEDED/, 'the rebuild records the current version')
})
