import t from 'tap'
import { envelopeProblems, makeWorld, STORE_B } from './support/world.ts'

// Paginated lists over HTTP: limit 1..100 (default 20; outside the range is 400, never clamped),
// opaque tamper-evident cursors (forged, foreign-list or foreign-store cursors are 400
// INVALID_CURSOR), the { data: { <resource>: [] }, pagination: { nextCursor, hasMore, limit } }
// envelope, and a walk that visits every item once in the documented order.

const lists = [
  { operationId: 'listProducts', url: '/api/v1/products', resource: 'products', order: 'asc' },
  { operationId: 'listCollections', url: '/api/v1/collections', resource: 'collections', order: 'asc' },
  { operationId: 'listOrders', url: '/api/v1/orders', resource: 'orders', order: 'desc' },
  { operationId: 'listCustomers', url: '/api/v1/customers', resource: 'customers', order: 'desc' },
  { operationId: 'listMedia', url: '/api/v1/media', resource: 'media', order: 'asc' },
] as const

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

t.test('paginated lists', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  for (const list of lists) {
    await t.test(list.operationId, async (t) => {
      const get = (query: string, opts = {}) => w.call({ method: 'GET', url: `${list.url}${query}` }, opts)

      // The envelope, exactly.
      const first = await get('')
      t.equal(first.statusCode, 200)
      const body = first.json()
      t.same(Object.keys(body).sort(), ['data', 'pagination'])
      t.same(Object.keys(body.data), [list.resource], `data holds only the named list ${list.resource}`)
      t.ok(Array.isArray(body.data[list.resource]))
      t.same(Object.keys(body.pagination).sort(), ['hasMore', 'limit', 'nextCursor'])
      t.equal(body.pagination.limit, 20, 'default limit 20')
      t.ok(body.data[list.resource].length <= 20)
      t.equal(body.pagination.hasMore, body.pagination.nextCursor !== null, 'hasMore iff nextCursor')

      // limit bounds: 1 and 100 are taken as they are; anything else is refused, not clamped.
      for (const limit of [1, 100]) {
        const res = await get(`?limit=${limit}`)
        t.equal(res.statusCode, 200, `limit=${limit}`)
        t.equal(res.json().pagination.limit, limit)
        t.ok(res.json().data[list.resource].length <= limit)
      }
      for (const limit of ['0', '101', '-1', '1000', '1.5', 'abc', '', '1e1', '%205', '0x10', '99999999999']) {
        const res = await get(`?limit=${limit}`)
        t.same(envelopeProblems(res, { status: 400, code: 'VALIDATION_FAILED' }), [], `limit=${limit}: 400`)
        t.ok(
          res.json().error.details?.issues?.some((i: any) => i.path === 'limit'),
          `limit=${limit}: the issue names limit`,
        )
      }
      const twice = await get('?limit=5&limit=6')
      t.equal(twice.statusCode, 400, 'a repeated limit is refused')

      // A walk with a small page visits every item once, in order.
      const all = (await get('?limit=100')).json().data[list.resource] as { id: string; createdAt: string }[]
      const walked: { id: string; createdAt: string }[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const res = await get(`?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        t.equal(res.statusCode, 200)
        const page = res.json()
        t.ok(page.data[list.resource].length <= 7)
        walked.push(...page.data[list.resource])
        cursor = page.pagination.nextCursor
        if (cursor) t.match(cursor, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'an opaque cursor')
        pages++
      } while (cursor && pages < 50)
      t.same(
        walked.map((x) => x.id),
        all.map((x) => x.id),
        'the walk equals one big page',
      )
      t.equal(new Set(walked.map((x) => x.id)).size, walked.length, 'no item twice')
      const times = walked.map((x) => Date.parse(x.createdAt))
      const sorted = [...times].sort((a, b) => (list.order === 'asc' ? a - b : b - a))
      t.same(times, sorted, `${list.order === 'asc' ? 'oldest' : 'newest'} first`)

      // Cursors that the service did not issue for this list and store.
      const page1 = (await get('?limit=1')).json()
      const real: string | null = page1.pagination.nextCursor
      if (!t.ok(real, 'a next cursor to tamper with')) return
      const [payload, signature] = real!.split('.') as [string, string]
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString())
      const otherList = lists.find((l) => l !== list)!
      const foreignList = (await w.call({ method: 'GET', url: `${otherList.url}?limit=1` })).json().pagination
        .nextCursor as string
      const foreignStore = (await w.call({ method: 'GET', url: `${list.url}?limit=1` }, { store: STORE_B })).json()
        .pagination.nextCursor as string
      const forged: [string, string][] = [
        ['random text', 'hello'],
        ['no signature', payload],
        ['a bad signature', `${payload}.${signature.slice(0, -2)}AA`],
        ['a payload changed under its signature', `${b64({ ...decoded, k: [decoded.k[0], 'zzz'] })}.${signature}`],
        ['a payload for another store', `${b64({ ...decoded, s: STORE_B })}.${signature}`],
        ['three parts', `${real}.x`],
        ['non-base64 characters', `${payload}!.${signature}`],
        ["another list's cursor", foreignList],
        ["another store's cursor", foreignStore],
        [
          'an unsigned JSON cursor',
          b64({ v: 1, r: list.resource, s: w.ids.storeId, k: ['2020-01-01T00:00:00.000000Z', 'x'] }),
        ],
      ]
      for (const [label, cursor] of forged) {
        const res = await get(`?cursor=${encodeURIComponent(cursor)}`)
        t.same(envelopeProblems(res, { status: 400, code: 'INVALID_CURSOR' }), [], `${label}: 400 INVALID_CURSOR`)
      }
      for (const [label, cursor] of [
        ['an empty cursor', ''],
        ['a cursor over 1024 characters', 'a'.repeat(1025)],
      ]) {
        const res = await get(`?cursor=${cursor}`)
        t.equal(res.statusCode, 400, `${label}: 400 (${res.json().error.code})`)
        t.same(envelopeProblems(res, { status: 400 }), [])
      }
    })
  }
})

t.test('listThemes is not paginated', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const res = await w.call({ method: 'GET', url: '/api/v1/themes' })
  t.same(Object.keys(res.json()), ['data'])
  t.same(Object.keys(res.json().data), ['themes'])
})
