import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Kysely } from 'kysely'
import { openPglite } from '../../src/db/connect.ts'
import type { Database } from '../../src/db/database.ts'
import { freshDatabase, testDatabaseKind } from '../support/database.ts'

const run = promisify(execFile)

// Seven CLI processes, each opening the database (PGlite takes seconds to start on a busy machine).
t.setTimeout(240_000)

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
  // The test changes the database between CLI runs (PGlite: only while no CLI has it open).
  let withDb: (fn: (db: Kysely<Database>) => Promise<void>) => Promise<void>
  if (testDatabaseKind === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'sfts-status-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
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
    const opened = await freshDatabase(t)
    env.DATABASE_URL = opened.url!
    withDb = (fn) => fn(opened.db)
  }
  const cli = async (args: string[]) => {
    try {
      return { code: 0, ...(await run(process.execPath, ['src/cli/projections.ts', ...args], { env })) }
    } catch (error) {
      return error as { code: number; stdout: string; stderr: string }
    }
  }
  t.equal(
    await run(process.execPath, ['src/cli/seed.ts'], { env }).then(
      () => 0,
      (e: { code: number }) => e.code,
    ),
    0,
  )

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
