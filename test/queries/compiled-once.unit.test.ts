import t from 'tap'
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely'
import type { Database } from '../../src/db/database.ts'
import { compiledOnce, PREPARED_MARK } from '../../src/db/prepared.ts'

// compiledOnce must give, for every call, exactly the SQL and parameters a fresh compile would.
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

type V = { storeId: string; rows: number; status?: string; pattern?: string }
const build = (k: Kysely<any>, v: V) => {
  let q = (k as Kysely<Database>)
    .selectFrom('product_cards')
    .select(['product_id', 'card'])
    .where('store_id', '=', v.storeId)
    .where('title', '!=', 'fixed')
  if (v.status !== undefined) q = q.where('status', '=', v.status)
  if (v.pattern !== undefined) q = q.where(sql<boolean>`title ilike ${v.pattern}`)
  return q.limit(v.rows)
}

t.test('each call equals a fresh compile, per shape', async (t) => {
  const query = compiledOnce(build)
  const calls: V[] = [
    { storeId: 'a', rows: 3 },
    { storeId: 'b', rows: 21 },
    { storeId: 'c', rows: 5, status: 'active' },
    { storeId: 'd', rows: 7, status: 'draft', pattern: '%x%' },
    { storeId: 'e', rows: 2, status: 'archived' },
  ]
  for (const v of calls) {
    const got = query(db, Object.keys(v).join(','), v)
    const fresh = build(db, v).compile()
    t.equal(got.sql, `${PREPARED_MARK}${fresh.sql}`, `sql for ${JSON.stringify(v)}`)
    t.same(got.parameters, fresh.parameters, `parameters for ${JSON.stringify(v)}`)
  }
})

t.test('a value written into the SQL text is refused', async (t) => {
  const query = compiledOnce((k: Kysely<any>, v: { column: string }) =>
    (k as Kysely<Database>).selectFrom('stores').select(sql.ref(v.column).as('x')),
  )
  t.throws(() => query(db, '', { column: 'name' }), /written into the SQL text/)
})
