import t from 'tap'
import {
  CursorError,
  decodeCursor,
  DEFAULT_LIMIT,
  encodeCursor,
  isCursorError,
  paginationQuerySchema,
  resolveLimit,
  toPage,
} from '../../src/queries/pagination.ts'

const SECRET = 'test-cursor-secret-0123456789abcdef'
const scope = { resource: 'products', storeId: 'st_a' }
const pos = { createdAt: '2024-08-20T08:00:00.123456Z', id: 'prod_1' }

const reason = (fn: () => unknown): string => {
  try {
    fn()
  } catch (e) {
    if (e instanceof CursorError) return e.reason
    throw e
  }
  return 'accepted'
}

t.test('paginationQuerySchema: limit 1..100, default 20, strings from a query string', async (t) => {
  t.same(paginationQuerySchema.parse({}), { limit: DEFAULT_LIMIT })
  t.equal(DEFAULT_LIMIT, 20)
  for (const ok of [1, 7, 20, 100, '1', '100', '42'])
    t.equal(paginationQuerySchema.parse({ limit: ok }).limit, Number(ok), `accepts ${ok}`)
  for (const bad of [0, 101, -1, 1.5, '0', '101', '', ' 5', '5.0', '1e1', 'abc', null, true, '0x10', Infinity, NaN]) {
    t.notOk(paginationQuerySchema.safeParse({ limit: bad }).success, `rejects ${JSON.stringify(bad)}`)
  }
  t.same(paginationQuerySchema.parse({ limit: '5', cursor: 'abc.def' }), { limit: 5, cursor: 'abc.def' })
  t.notOk(paginationQuerySchema.safeParse({ cursor: '' }).success, 'empty cursor')
  t.notOk(paginationQuerySchema.safeParse({ cursor: 'x'.repeat(1025) }).success, 'oversized cursor')
  const issues = paginationQuerySchema.safeParse({ limit: 500 }).error?.issues ?? []
  t.same(
    issues.map((i) => i.path),
    [['limit']],
    'the issue names the field',
  )
})

t.test('resolveLimit refuses what the schema refuses (a bug if it gets there)', async (t) => {
  t.equal(resolveLimit(undefined), 20)
  t.equal(resolveLimit(100), 100)
  for (const bad of [0, 101, 2.5, NaN]) t.throws(() => resolveLimit(bad), RangeError)
})

t.test('a cursor round-trips and is opaque base64url', async (t) => {
  const c = encodeCursor(SECRET, scope, pos)
  t.match(c, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
  t.same(decodeCursor(SECRET, scope, c), pos)
  t.equal(encodeCursor(SECRET, scope, pos), c, 'deterministic')
})

t.test('forged, tampered, truncated, foreign cursors are rejected with INVALID_CURSOR', async (t) => {
  const c = encodeCursor(SECRET, scope, pos)
  const [payload, sig] = c.split('.') as [string, string]
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1)

  t.equal(
    reason(() => decodeCursor(SECRET, scope, `${flip(payload, 5)}.${sig}`)),
    'bad_signature',
    'payload edited',
  )
  t.equal(
    reason(() => decodeCursor(SECRET, scope, `${payload}.${flip(sig, 3)}`)),
    'bad_signature',
    'signature edited',
  )
  t.equal(
    reason(() => decodeCursor(SECRET, scope, c.slice(0, -4))),
    'bad_signature',
    'truncated signature',
  )
  t.equal(
    reason(() => decodeCursor(SECRET, scope, payload)),
    'malformed',
    'signature missing',
  )
  t.equal(
    reason(() => decodeCursor(SECRET, scope, `${payload}.`)),
    'malformed',
  )
  t.equal(
    reason(() => decodeCursor(SECRET, scope, `${c}.x`)),
    'malformed',
    'three parts',
  )
  t.equal(
    reason(() => decodeCursor(SECRET, scope, 'not a cursor')),
    'malformed',
  )
  t.equal(
    reason(() => decodeCursor(SECRET, scope, '')),
    'malformed',
  )
  t.equal(
    reason(() => decodeCursor(SECRET, scope, `${payload}.${sig}`.replace('.', '.=='))),
    'malformed',
    'padding is not base64url',
  )

  // Rewriting the payload (another id, another store) without the key fails the signature.
  const forged = Buffer.from(
    JSON.stringify({ v: 1, r: 'products', s: 'st_a', k: ['2000-01-01T00:00:00.000000Z', 'prod_0'] }),
  ).toString('base64url')
  t.equal(
    reason(() => decodeCursor(SECRET, scope, `${forged}.${sig}`)),
    'bad_signature',
    'forged payload',
  )
  t.equal(
    reason(() => decodeCursor('another-secret-0123456789abcdef', scope, c)),
    'bad_signature',
    'signed with another key',
  )

  t.equal(
    reason(() => decodeCursor(SECRET, { resource: 'collections', storeId: 'st_a' }, c)),
    'wrong_resource',
  )
  t.equal(
    reason(() => decodeCursor(SECRET, { resource: 'products', storeId: 'st_b' }, c)),
    'wrong_store',
  )

  // Correctly signed but not a cursor payload (e.g. a bad timestamp) is malformed, not trusted.
  const weird = encodeCursor(SECRET, scope, { createdAt: "2024-01-01'; drop table x; --", id: 'p' })
  t.equal(
    reason(() => decodeCursor(SECRET, scope, weird)),
    'malformed',
  )

  try {
    decodeCursor(SECRET, scope, 'junk')
    t.fail('should throw')
  } catch (e) {
    t.ok(isCursorError(e))
    t.match(e, { code: 'INVALID_CURSOR', name: 'CursorError', message: /cursor/ })
    t.notMatch((e as Error).message, /signature|hmac/i, 'the message does not teach forgery')
  }
})

t.test('toPage: limit + 1 rows say there is more', async (t) => {
  const rows = [1, 2, 3].map((n) => ({ n, ts: `2024-01-0${n}T00:00:00.000000Z`, id: `x${n}` }))
  const opts = {
    secret: SECRET,
    scope,
    position: (r: (typeof rows)[number]) => ({ createdAt: r.ts, id: r.id }),
    map: (r: (typeof rows)[number]) => r.n,
  }
  const more = toPage(rows, 2, opts)
  t.same(more.items, [1, 2])
  t.equal(more.pagination.hasMore, true)
  t.same(decodeCursor(SECRET, scope, more.pagination.nextCursor!), { createdAt: rows[1]!.ts, id: 'x2' })
  const last = toPage(rows, 3, opts)
  t.same(last.pagination, { nextCursor: null, hasMore: false, limit: 3 })
  t.same(toPage([], 5, opts), { items: [], pagination: { nextCursor: null, hasMore: false, limit: 5 } })
})
