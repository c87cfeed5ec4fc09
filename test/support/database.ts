import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openPglite, openPostgres, type OpenedDatabase } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'

// Tests run against a real server: PostgreSQL by default, PGlite with TEST_DATABASE=pglite.
export const testDatabaseKind = process.env.TEST_DATABASE === 'pglite' ? 'pglite' : 'postgres'
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

type Teardown = { teardown: (fn: () => unknown) => void }

// A fresh, migrated database of its own for one test file; dropped when the test ends.
export async function freshDatabase(
  t: Teardown,
  opts: { poolSize?: number } = {},
): Promise<OpenedDatabase & { url: string | null }> {
  if (testDatabaseKind === 'pglite') {
    const opened = await openPglite(undefined)
    await migrateToLatest(opened.db)
    t.teardown(() => opened.close())
    return { ...opened, url: null }
  }
  const name = `sfts_${process.pid}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const opened = openPostgres(url.toString(), opts.poolSize ?? 12)
  await migrateToLatest(opened.db)
  t.teardown(async () => {
    await opened.close()
    const c = new pg.Client({ connectionString: adminUrl })
    await c.connect()
    await c.query(`drop database if exists ${name} with (force)`)
    await c.end()
  })
  return { ...opened, url: url.toString() }
}
