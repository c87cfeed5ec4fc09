import t from 'tap'
import { CompiledQuery, sql } from 'kysely'
import { PREPARED_MARK } from '../../src/db/prepared.ts'
import { listProducts } from '../../src/queries/commerce/index.ts'
import { readStoreContext } from '../../src/queries/context/store-context.ts'
import { findThemeJson } from '../../src/queries/themes/theme-queries.ts'
import { testDatabaseKind } from '../support/database.ts'
import { createTheme } from '../../src/commands/theme.ts'
import { agent, testServices } from '../support/services.ts'

// The hot reads run as named prepared statements on PostgreSQL: planned once per connection,
// then only bound and executed, with the same answers every time.
t.test('hot reads are prepared once per connection and answer the same', async (t) => {
  const s = await testServices(t, { poolSize: 1, seed: 'commerce' })
  const theme = await createTheme(s.commands, agent('st_demo_atlas', 'createTheme'), { name: 'P', provider: 'test' })
  if (!theme.ok) throw new Error(theme.error.message)
  const reads = async () => [
    await readStoreContext(s.read, 'st_demo_atlas'),
    await listProducts(s.read, 'st_demo_atlas', { limit: 5 }),
    await listProducts(s.read, 'st_demo_atlas', { limit: 5, status: 'active' }),
    await findThemeJson(s.read, 'st_demo_atlas', theme.value.themeId),
  ]
  const first = await reads()
  t.same(await reads(), first, 'the same answers the second time')
  t.same(await reads(), first, 'and the third')
  if (testDatabaseKind === 'pglite') return
  const { rows } = await sql<{
    name: string
    statement: string
  }>`select name, statement from pg_prepared_statements`.execute(s.db)
  const ours = rows.filter((r) => r.statement.startsWith(PREPARED_MARK))
  // createTheme's append is prepared too (src/events/postgres-event-store.ts), once.
  const appends = ours.filter((r) => r.statement.includes('event_store_append_projected'))
  t.equal(appends.length, 1, 'the append, prepared once')
  t.equal(ours.length - appends.length, 4, 'four read shapes, each prepared once on the one connection')
  t.ok(ours.every((r) => /^sfts_/.test(r.name)))
})

// A prepared statement that fails rejects with PostgreSQL's error, whose stack leads back to the
// caller (kysely appends it), and leaves its connection (the pool's only one) usable, the statement
// still prepared.
t.test('a failing prepared statement rejects with the server error and the connection goes on', async (t) => {
  if (testDatabaseKind === 'pglite') return t.pass('statements are not named on PGlite')
  const s = await testServices(t, { poolSize: 1 })
  const divide = (by: number) =>
    s.db.executeQuery<{ x: number }>(CompiledQuery.raw(`${PREPARED_MARK}select 12 / $1::integer as x`, [by]))
  t.same((await divide(3)).rows, [{ x: 4 }])
  const failed = await divide(0).then(
    () => null,
    (error: unknown) => error as Error & { code?: string },
  )
  t.equal(failed?.code, '22012', 'division_by_zero, as PostgreSQL reported it')
  t.match(failed?.stack ?? '', /prepared-reads/, 'the stack names the caller')
  t.same((await divide(6)).rows, [{ x: 2 }], 'the same connection answers the next call')
  const { rows } = await sql<{
    n: number
  }>`select count(*)::int as n from pg_prepared_statements where statement like ${`${PREPARED_MARK}select 12 /%`}`.execute(
    s.db,
  )
  t.equal(rows[0]!.n, 1, 'prepared once')
})
