import { pino } from 'pino'
import t, { type Test } from 'tap'
import { createApiKey, ensureApp } from '../../src/auth/credentials.ts'
import { SCOPES, type Scope } from '../../src/auth/scopes.ts'
import { buildApp } from '../../src/http/app.ts'
import { registry } from '../../src/metrics/registry.ts'
import { servicePlugins } from '../../src/plugins.ts'
import { findThemeJson } from '../../src/queries/themes/theme-queries.ts'
import { createServices } from '../../src/services.ts'
import { countedServices } from '../support/counted-services.ts'
import { eventually } from '../support/eventually.ts'

// The API's read caches (src/queries/read-context.ts) against a second instance on the same
// database that shares none of them: getTheme and getContext stay one statement, checked against
// stream versions, so a change made elsewhere shows on the very next read; listProducts' pages
// cost no statement until the change feed says the catalogue moved (then within its bound).

const STORE = 'st_demo_atlas'
const ALL: readonly Scope[] = SCOPES

async function cacheCount(cache: string, result: string): Promise<number> {
  const metric = (await registry.getSingleMetric('sfts_read_cache_requests_total')!.get()).values
  return metric.filter((v) => v.labels.cache === cache && v.labels.result === result).reduce((n, v) => n + v.value, 0)
}

// Instance A (the counted services, with the change feed) and instance B on the same database with
// its own, empty and feedless caches, both with their apps.
async function twoInstances(t: Test) {
  const counted = await countedServices(t, { RATE_LIMIT_MAX: '100000' })
  const { opened, config, services } = counted
  const other = createServices({
    config,
    db: opened.db,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
  })
  const [a, b] = [await buildApp(services, servicePlugins()), await buildApp(other, servicePlugins())]
  t.teardown(async () => {
    await a.close()
    await b.close()
    await services.close()
    await other.close()
  })
  // Loading the apps can hold the event loop past the feed's heartbeat window: start healthy.
  await eventually(async () => services.changeFeed.healthy(), Boolean)
  return { ...counted, a, b }
}

t.test('read caches: one statement or none, and a change made by another instance shows at once', async (t) => {
  const { opened, services, setUnhealthy, statements, a, b } = await twoInstances(t)
  const appId = await ensureApp(opened.db, { storeId: STORE, name: 'Cache test' })
  const keyOf = async (scopes: readonly Scope[]) =>
    (await createApiKey(opened.db, { storeId: STORE, appId, name: 'cache test', scopes })).key
  const full = { authorization: `Bearer ${await keyOf(ALL)}` }
  const readOnly = { authorization: `Bearer ${await keyOf(['store:read'])}` }
  const counted = async (url: string, headers: Record<string, string> = full) => {
    const before = statements()
    const res = await a.inject({ method: 'GET', url, headers })
    return { res, statements: statements() - before }
  }
  const onB = async (method: 'POST' | 'PATCH', url: string, body: unknown) => {
    const res = await b.inject({
      method,
      url,
      headers: { ...full, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
    t.ok(res.statusCode < 300, `B: ${method} ${url} -> ${res.statusCode}`)
    return res.json().data
  }

  // --- getTheme: the row is asked for every time; its text comes from memory while the stream stands.
  const created = await onB('POST', '/api/v1/themes', { name: 'Cache draft', provider: 'test' })
  await counted(`/api/v1/themes/${created.id}`)
  const hitsBefore = await cacheCount('theme_json', 'hit')
  const second = await counted(`/api/v1/themes/${created.id}`)
  t.equal(second.res.statusCode, 200)
  t.equal(second.statements, 1, 'getTheme: one statement (the stream version)')
  t.equal(await cacheCount('theme_json', 'hit'), hitsBefore + 1, 'the text came from memory')
  const uncached = await findThemeJson({ ...services.read, caches: {} }, STORE, created.id)
  t.equal(second.res.body, `{"data":${uncached!.json}}`, 'the same bytes as a read without the cache')
  const etag = String(second.res.headers.etag)
  t.equal(
    (await counted(`/api/v1/themes/${created.id}`, { ...full, 'if-none-match': etag })).res.statusCode,
    304,
    'If-None-Match: 304',
  )

  await onB('POST', `/api/v1/themes/${created.id}/batch`, {
    operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: { heading: 'Changed on B' } }],
  })
  const afterB = await counted(`/api/v1/themes/${created.id}`, { ...full, 'if-none-match': etag })
  t.equal(afterB.res.statusCode, 200, 'after B changed it, the old ETag is not current')
  t.match(afterB.res.body, 'Changed on B', 'A shows B’s change on its next read')
  t.equal(afterB.res.json().data.version, second.res.json().data.version + 1)
  t.equal(
    afterB.res.body,
    `{"data":${(await findThemeJson({ ...services.read, caches: {} }, STORE, created.id))!.json}}`,
  )

  // --- getContext: one statement; the themes' stamp decides whether the held response is current.
  await counted('/api/v1/context')
  const contextHits = await cacheCount('context_json', 'hit')
  const ctx = await counted('/api/v1/context')
  t.equal(ctx.statements, 1, 'getContext: one statement')
  t.equal(await cacheCount('context_json', 'hit'), contextHits + 1, 'the held response was current')
  t.same(ctx.res.json().data.grantedScopes, [...ALL].sort())
  const narrow = (await counted('/api/v1/context', readOnly)).res.json().data
  t.same(narrow.grantedScopes, ['store:read'], 'another credential’s scopes: its own response')
  t.notSame(narrow.workflow, ctx.res.json().data.workflow, 'with its own workflow')
  await onB('PATCH', `/api/v1/themes/${created.id}`, { name: 'Renamed on B' })
  const renamed = (await counted('/api/v1/context')).res
    .json()
    .data.themes.find((x: { id: string }) => x.id === created.id)
  t.equal(renamed.name, 'Renamed on B', 'A’s next context shows B’s rename')
  t.equal(renamed.version, afterB.res.json().data.version + 1)
  t.equal(
    (await counted('/api/v1/context', { ...full, 'if-none-match': String(ctx.res.headers.etag) })).res.statusCode,
    200,
    'and the old content ETag no longer matches',
  )

  // --- listProducts: from memory until the feed says the store's catalogue moved.
  await counted('/api/v1/products?limit=5')
  const page = await counted('/api/v1/products?limit=5')
  t.equal(page.statements, 0, 'a recently read page: no statement')
  t.not((await counted('/api/v1/products?limit=4')).statements, 0, 'other arguments: another page')
  const first = page.res.json().data.products[0]
  await opened.db
    .updateTable('products')
    .set({ title: 'Retitled by the platform' })
    .where('product_id', '=', first.id)
    .execute()
  await opened.db
    .updateTable('stores')
    .set((eb) => ({ catalog_version: eb('catalog_version', '+', 1) }))
    .where('store_id', '=', STORE)
    .execute()
  const started = performance.now()
  let title = first.title
  while (title !== 'Retitled by the platform' && performance.now() - started < 2000) {
    title = (await counted('/api/v1/products?limit=5')).res.json().data.products[0].title
  }
  t.equal(
    title,
    'Retitled by the platform',
    `the catalogue change shows after ${(performance.now() - started).toFixed(1)} ms`,
  )
  t.ok(performance.now() - started < 1000, 'within the feed’s bound')
  const contextProducts = (await counted('/api/v1/context')).res.json().data.products.items
  t.equal(
    contextProducts.find((p: { id: string }) => p.id === first.id)?.title,
    'Retitled by the platform',
    'and in the context’s first page',
  )

  setUnhealthy(true)
  t.ok((await counted('/api/v1/products?limit=5')).statements >= 1, 'unhealthy feed: the page is read from PostgreSQL')
  const bypassed = await counted('/api/v1/context')
  t.ok(bypassed.statements >= 1 && bypassed.res.statusCode === 200, 'and the context too')
  setUnhealthy(false)
})

// A's held context is reused while the themes' stamp (the sum of their rows' stream versions) is
// unchanged. Archiving a theme takes its row out of the list; a stamp that left archived rows out
// would come back to the held value once another theme gained as many versions, and A would send
// its old response.
t.test('getContext: a held response is not reused after an archive and edits that make up its versions', async (t) => {
  const { opened, a, b } = await twoInstances(t)
  const headers = {
    authorization: `Bearer ${(await createApiKey(opened.db, { storeId: STORE, appId: await ensureApp(opened.db, { storeId: STORE, name: 'Stamp test' }), name: 'stamp test', scopes: ALL })).key}`,
  }
  const onB = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await b.inject({
      method,
      url,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    })
    t.ok(res.statusCode < 300, `B: ${method} ${url} -> ${res.statusCode}`)
    return res.json().data
  }
  const contextOn = async (app: typeof a) =>
    (await app.inject({ method: 'GET', url: '/api/v1/context', headers })).json().data
  const streamVersion = async (id: string) =>
    Number(
      (
        await opened.db
          .selectFrom('themes')
          .select('stream_version')
          .where('theme_id', '=', id)
          .executeTakeFirstOrThrow()
      ).stream_version,
    )

  const kept = (await onB('POST', '/api/v1/themes', { name: 'Kept', provider: 'test' })).id
  const gone = (await onB('POST', '/api/v1/themes', { name: 'Gone', provider: 'test' })).id
  await contextOn(a)
  const hits = await cacheCount('context_json', 'hit')
  t.ok(
    (await contextOn(a)).themes.some((x: { id: string }) => x.id === gone),
    'A holds a context with both themes',
  )
  t.equal(await cacheCount('context_json', 'hit'), hits + 1, 'and reuses it while nothing changes')

  const goneVersions = await streamVersion(gone)
  const keptFrom = await streamVersion(kept)
  await onB('DELETE', `/api/v1/themes/${gone}`)
  for (let i = 0; (await streamVersion(kept)) - keptFrom < goneVersions; i++)
    await onB('PATCH', `/api/v1/themes/${kept}`, { name: `Kept ${i}` })
  t.equal(
    (await streamVersion(kept)) - keptFrom,
    goneVersions,
    'the kept theme gained as many stream versions as the archived one had',
  )

  const onA = await contextOn(a)
  t.notOk(
    onA.themes.some((x: { id: string }) => x.id === gone),
    'A’s next context leaves the archived theme out',
  )
  t.same(onA, await contextOn(b), 'and equals the context B makes afresh')
})
