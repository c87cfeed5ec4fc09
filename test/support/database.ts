import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { openPglite, openPostgres, type OpenedDatabase } from '../../src/db/connect.ts'
import { cloneTemplate, pgliteTemplate } from './template-database.ts'

// Tests run against a real server: PostgreSQL by default, PGlite with TEST_DATABASE=pglite.
export const testDatabaseKind = process.env.TEST_DATABASE === 'pglite' ? 'pglite' : 'postgres'
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

type Teardown = { teardown: (fn: () => unknown) => void }

// An empty database of its own (no migration, no template), dropped when the test ends: for
// tests of what the migrations themselves make.
export async function emptyDatabase(t: Teardown): Promise<OpenedDatabase> {
  if (testDatabaseKind === 'pglite') {
    const opened = await openPglite(undefined)
    t.teardown(() => opened.close())
    return opened
  }
  const name = `sfts_empty_${process.pid}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const opened = openPostgres(url.toString(), 4)
  t.teardown(async () => {
    await opened.close()
    const c = new pg.Client({ connectionString: adminUrl })
    await c.connect()
    await c.query(`drop database if exists ${name} with (force)`)
    await c.end()
  })
  return opened
}

// A database of its own for one test, dropped when the test ends: migrated, and seeded with
// `seed`: 'commerce', the demo stores' catalogue, customers and orders (src/seed/seed-commerce.ts),
// or 'demo', everything `npm run seed` makes (src/seed/seed-demo.ts: also menus, media, a live
// theme, API keys and merchants). A copy of a template database made once per version of the
// code (test/support/template-database.ts), so no test sees another's writes.
export async function freshDatabase(
  t: Teardown,
  opts: { poolSize?: number; seed?: 'commerce' | 'demo' } = {},
): Promise<OpenedDatabase & { url: string | null }> {
  const contents = opts.seed ?? 'migrated'
  if (testDatabaseKind === 'pglite') {
    const opened = await openPglite(undefined, await pgliteTemplate(contents))
    t.teardown(() => opened.close())
    return { ...opened, url: null }
  }
  const name = `sfts_${process.pid}_${randomBytes(4).toString('hex')}`
  const url = await cloneTemplate(adminUrl, contents, name)
  const opened = openPostgres(url, opts.poolSize ?? 12)
  t.teardown(async () => {
    await opened.close()
    const c = new pg.Client({ connectionString: adminUrl })
    await c.connect()
    await c.query(`drop database if exists ${name} with (force)`)
    await c.end()
  })
  return { ...opened, url }
}

// A data folder of the embedded database (DATA_DIR: what `npm start` and the CLIs open without
// DATABASE_URL, src/db/connect.ts) holding a copy of a template, removed when the test ends: a
// test of a CLI starts from the seeded stores without running the seed in a process of its own.
export async function templateDataDir(t: Teardown, contents: 'migrated' | 'commerce' | 'demo'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'sfts-data-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const pglite = new PGlite(join(dir, 'pglite'), { loadDataDir: await pgliteTemplate(contents) })
  await pglite.waitReady
  await pglite.close()
  return dir
}
