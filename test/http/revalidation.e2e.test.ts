import t from 'tap'
import { makeWorld, STORE_B } from './support/world.ts'

// getTheme's ETag is the theme version; a client that holds it revalidates with If-None-Match and
// gets 304 with no body while the version stands, the new document once it moved. The document
// reaches the socket as PostgreSQL's JSON text: the body still parses to the same theme.

t.test('getTheme: 304 on If-None-Match while the version stands, 200 after a change', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const url = `/api/v1/themes/${w.ids.draftId}`
  const first = await w.call({ method: 'GET', url })
  t.equal(first.statusCode, 200)
  const etag = String(first.headers.etag)
  t.equal(etag, `"${first.json().data.version}"`)
  t.ok(
    first.json().data.document.templates.home.some((s: { id: string }) => s.id === w.ids.sectionId),
    'the document is in the body',
  )

  for (const header of [etag, `W/${etag}`, `"999", ${etag}`, '*']) {
    const again = await w.call({ method: 'GET', url, headers: { 'if-none-match': header } })
    t.equal(again.statusCode, 304, `If-None-Match: ${header} -> 304`)
    t.equal(again.body, '', 'no body')
    t.equal(again.headers.etag, etag, 'the ETag is repeated')
  }
  const other = await w.call({ method: 'GET', url, headers: { 'if-none-match': '"999"' } })
  t.equal(other.statusCode, 200, 'another tag: the full answer')

  const changed = await w.call({ method: 'PATCH', url, payload: { name: 'Renamed' } })
  t.equal(changed.statusCode, 200)
  const after = await w.call({ method: 'GET', url, headers: { 'if-none-match': etag } })
  t.equal(after.statusCode, 200, 'the old tag after a change: 200')
  t.equal(after.json().data.name, 'Renamed')
  t.not(after.headers.etag, etag)
  // The mutation's answer is the theme plus the check findings the change introduced.
  const { findings: _findings, ...theme } = changed.json().data
  t.same(after.json().data, theme, 'getTheme (document as text) equals the mutation’s answer (document serialised)')
})

t.test('getTheme and getContext stay within the caller’s store', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const url = `/api/v1/themes/${w.ids.draftId}`
  const etag = String((await w.call({ method: 'GET', url })).headers.etag)
  for (const headers of [{}, { 'if-none-match': etag }, { 'if-none-match': '*' }] as Record<string, string>[]) {
    const res = await w.call({ method: 'GET', url, headers }, { store: STORE_B })
    t.equal(res.statusCode, 404, `another store's theme is 404 (${JSON.stringify(headers)}), never 304`)
    t.equal(res.json().error.code, 'NOT_FOUND')
  }
  const a = (await w.call({ method: 'GET', url: '/api/v1/context' })).json().data
  const b = (await w.call({ method: 'GET', url: '/api/v1/context' }, { store: STORE_B })).json().data
  t.not(a.store.id, b.store.id)
  t.ok(
    a.themes.some((x: { id: string }) => x.id === w.ids.draftId),
    'the draft is in its store’s context',
  )
  t.notOk(
    b.themes.some((x: { id: string }) => x.id === w.ids.draftId),
    'and not in the other store’s',
  )
  const productIds = new Set(a.products.items.map((p: { id: string }) => p.id))
  t.ok(
    b.products.items.every((p: { id: string }) => !productIds.has(p.id)),
    'each store sees its own products',
  )
  const products = await w.call(
    { method: 'GET', url: `/api/v1/products?collectionId=${w.ids.collectionId}` },
    { store: STORE_B },
  )
  t.same(products.json().data.products, [], 'another store’s collection filters to nothing')
})

t.test('getContext: a weak ETag of its content, 304 while nothing in it changed', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const first = await w.call({ method: 'GET', url: '/api/v1/context' })
  t.equal(first.statusCode, 200)
  const etag = String(first.headers.etag)
  t.match(etag, /^W\/"[A-Za-z0-9_-]+"$/)
  const again = await w.call({ method: 'GET', url: '/api/v1/context', headers: { 'if-none-match': etag } })
  t.equal(again.statusCode, 304)
  t.equal(again.body, '')
  const fewer = await w.call(
    { method: 'GET', url: '/api/v1/context', headers: { 'if-none-match': etag } },
    { scopes: ['store:read'] },
  )
  t.equal(fewer.statusCode, 200, 'other scopes, another workflow: not the same representation')
  await w.call({ method: 'PATCH', url: `/api/v1/themes/${w.ids.draftId}`, payload: { name: 'Changed' } })
  const after = await w.call({ method: 'GET', url: '/api/v1/context', headers: { 'if-none-match': etag } })
  t.equal(after.statusCode, 200, 'after a theme change: the new context')
  t.ok(after.json().data.themes.some((x: { name: string }) => x.name === 'Changed'))
})
