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
import { seenWithinFeedBound } from '../support/feed-bound.ts'

// Warm API reads (docs/decisions/0160-warm-reads-from-the-change-feed.md): getTheme, getContext,
// listProducts and the other catalogue reads answer from the instance's memory with no statement
// while the change feed is healthy. A change made through another instance is seen within the
// feed's bound; the caller's own write is seen at once on the instance that took it; with the feed
// cut every read goes to PostgreSQL.

const STORE = 'st_demo_atlas'
const ALL: readonly Scope[] = SCOPES

async function cacheCount(cache: string, result: string): Promise<number> {
  const metric = (await registry.getSingleMetric('sfts_read_cache_requests_total')!.get()).values
  return metric.filter((v) => v.labels.cache === cache && v.labels.result === result).reduce((n, v) => n + v.value, 0)
}

// Instance A (the counted services, with the change feed) and instance B on the same database with
// its own, empty and feedless caches, both with their apps.
async function twoInstances(t: Test) {
  const counted = await countedServices(t, { RATE_LIMIT_MAX: '1000000' })
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
  const appId = await ensureApp(opened.db, { storeId: STORE, name: 'Cache test' })
  const keyOf = async (scopes: readonly Scope[]) =>
    `Bearer ${(await createApiKey(opened.db, { storeId: STORE, appId, name: 'cache test', scopes })).key}`
  const full = { authorization: await keyOf(ALL) }
  const send = async (app: typeof a, method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...full, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    })
    t.ok(res.statusCode < 300, `${method} ${url} -> ${res.statusCode}`)
    return res.json().data
  }
  const get = (app: typeof a, url: string, headers: Record<string, string> = full) =>
    app.inject({ method: 'GET', url, headers })
  return { ...counted, a, b, full, keyOf, send, get }
}

t.test('warm reads cost at most 0.05 statements each, and answer what a read without caches answers', async (t) => {
  const { services, statements, a, b, full, keyOf, send, get } = await twoInstances(t)
  const theme = (await send(b, 'POST', '/api/v1/themes', { name: 'Warm draft', provider: 'test' })).id
  const product = (await get(a, '/api/v1/products?limit=1')).json().data.products[0].id
  const collection = (await get(a, '/api/v1/collections?limit=1')).json().data.collections[0].id
  const urls = [
    `/api/v1/themes/${theme}`,
    '/api/v1/context',
    '/api/v1/products?limit=5',
    `/api/v1/products/${product}`,
    '/api/v1/collections?limit=5',
    `/api/v1/collections/${collection}`,
    '/api/v1/store',
    '/api/v1/store/settings',
  ]
  const first = new Map<string, string>()
  for (const url of urls) first.set(url, (await get(a, url)).body)
  const before = statements()
  const hits = await cacheCount('warm_themes', 'hit')
  const runs = 50
  for (let i = 0; i < runs; i++)
    for (const url of urls) {
      const res = await get(a, url)
      t.equal(res.statusCode, 200)
      if (res.body !== first.get(url)) t.fail(`${url}: the same answer while nothing changed`)
    }
  const perRead = (statements() - before) / (runs * urls.length)
  t.ok(perRead <= 0.05, `statements per warm read: ${perRead} (at most 0.05)`)
  t.ok((await cacheCount('warm_themes', 'hit')) >= hits + runs - 2, 'getTheme answered from memory')
  // The same reads as MCP tools: the same operations, the same caches.
  const tool = async (name: string, args: Record<string, unknown>) => {
    const res = await a.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: {
        ...full,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    })
    const result = res.json().result
    if (res.statusCode !== 200 || !result || result.isError) t.fail(`${name}: ${res.body.slice(0, 200)}`)
  }
  const tools: [string, Record<string, unknown>][] = [
    ['get_theme', { id: theme }],
    ['get_context', {}],
    ['get_products', { limit: 5 }],
    ['get_product', { id: product }],
  ]
  for (const [name, args] of tools) await tool(name, args)
  const mcpBefore = statements()
  for (let i = 0; i < 25; i++) for (const [name, args] of tools) await tool(name, args)
  const perCall = (statements() - mcpBefore) / (25 * tools.length)
  t.ok(perCall <= 0.05, `statements per warm MCP tool call: ${perCall} (at most 0.05)`)
  // The same bytes as the uncached read, and as instance B (no feed, no warm caches) answers.
  const uncached = await findThemeJson({ ...services.read, caches: {} }, STORE, theme)
  t.equal(first.get(`/api/v1/themes/${theme}`), `{"data":${uncached!.json}}`)
  for (const url of urls) t.equal(first.get(url), (await get(b, url)).body, `${url}: A from memory = B from PostgreSQL`)
  // Scopes are part of getContext's key: a narrower credential gets its own response.
  const narrow = (await get(a, '/api/v1/context', { authorization: await keyOf(['store:read']) })).json().data
  t.same(narrow.grantedScopes, ['store:read'])
  t.same((await get(a, '/api/v1/context', full)).json().data.grantedScopes, [...ALL].sort())
  // Another store's theme is still 404 (the key is the store and the theme).
  const other = await createApiKey(services.db, {
    storeId: 'st_demo_lumen',
    appId: await ensureApp(services.db, { storeId: 'st_demo_lumen', name: 'Other' }),
    name: 'other',
    scopes: ALL,
  })
  t.equal((await get(a, `/api/v1/themes/${theme}`, { authorization: `Bearer ${other.key}` })).statusCode, 404)
})

t.test('a change through another instance is seen within the feed’s bound; one’s own at once', async (t) => {
  const { opened, a, b, send, get } = await twoInstances(t)
  const theme = (await send(b, 'POST', '/api/v1/themes', { name: 'Bound draft', provider: 'test' })).id
  const themeOn = async (app: typeof a) => (await get(app, `/api/v1/themes/${theme}`)).json().data
  const contextTheme = async () =>
    (await get(a, '/api/v1/context')).json().data.themes.find((x: { id: string }) => x.id === theme)
  await themeOn(a)
  await contextTheme()

  // Through B: A sees it within 750 ms of the commit (a read started later than that never misses it).
  const changedAt = performance.now()
  await send(b, 'PATCH', `/api/v1/themes/${theme}`, { name: 'Renamed on B' })
  const seenTheme = await seenWithinFeedBound(async () => (await themeOn(a)).name === 'Renamed on B', changedAt)
  t.ok(seenTheme.seen, 'getTheme on A shows B’s rename')
  t.equal(seenTheme.staleAfterBound, 0, 'no read started after the bound was stale')
  const seenContext = await seenWithinFeedBound(async () => (await contextTheme()).name === 'Renamed on B', changedAt)
  t.ok(seenContext.seen && seenContext.staleAfterBound === 0, 'getContext too, within the bound')

  // The platform's catalogue change (a catalog_version bump by another process).
  const product = (await get(a, '/api/v1/products?limit=1')).json().data.products[0]
  await get(a, `/api/v1/products/${product.id}`)
  await opened.db.updateTable('products').set({ title: 'Retitled' }).where('product_id', '=', product.id).execute()
  const bumpedAt = performance.now()
  await opened.db
    .updateTable('stores')
    .set((eb) => ({ catalog_version: eb('catalog_version', '+', 1) }))
    .where('store_id', '=', STORE)
    .execute()
  for (const url of ['/api/v1/products?limit=1', `/api/v1/products/${product.id}`]) {
    const seen = await seenWithinFeedBound(async () => (await get(a, url)).body.includes('"Retitled"'), bumpedAt)
    t.ok(seen.seen && seen.staleAfterBound === 0, `${url}: the catalogue change within the bound`)
  }

  // Through A itself: the next read on A is the new version, every time.
  let stale = 0
  for (let i = 0; i < 30; i++) {
    const version = (await themeOn(a)).version
    await send(a, 'POST', `/api/v1/themes/${theme}/batch`, {
      operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: { heading: `Heading ${i}` } }],
    })
    const [read, context] = [await themeOn(a), await contextTheme()]
    if (read.version !== version + 1 || context.version !== read.version) {
      stale++
      t.comment(JSON.stringify({ i, version, read: read.version, context: context.version }))
    }
  }
  t.equal(stale, 0, 'a write on A is never hidden from the next read on A')
})

t.test('with the change feed cut, warm reads go to PostgreSQL', async (t) => {
  const { setUnhealthy, statements, a, b, send, get } = await twoInstances(t)
  const theme = (await send(b, 'POST', '/api/v1/themes', { name: 'Cut draft', provider: 'test' })).id
  const urls = [`/api/v1/themes/${theme}`, '/api/v1/context', '/api/v1/products?limit=5', '/api/v1/store']
  for (const url of urls) await get(a, url)
  setUnhealthy(true)
  t.teardown(() => setUnhealthy(false))
  for (const url of urls) {
    const before = statements()
    t.equal((await get(a, url)).statusCode, 200)
    t.ok(statements() - before >= 1, `${url}: read from PostgreSQL while the feed is not healthy`)
  }
  // A change made meanwhile is seen at once: nothing held is trusted.
  await send(b, 'PATCH', `/api/v1/themes/${theme}`, { name: 'Changed while cut' })
  t.equal((await get(a, `/api/v1/themes/${theme}`)).json().data.name, 'Changed while cut')
})

// getContext's inner layer (held per store and scopes with a stamp: the sum of the store's theme
// rows' stream versions) decides after every change whether the held text is still current.
// Archiving a theme takes its row out of the list; a stamp that left archived rows out would come
// back to the held value once another theme gained as many versions, and A would send its old response.
t.test('getContext: a held response is not reused after an archive and edits that make up its versions', async (t) => {
  const { opened, a, b, send, get } = await twoInstances(t)
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
  const contextOn = async (app: typeof a) => (await get(app, '/api/v1/context')).json().data
  const kept = (await send(b, 'POST', '/api/v1/themes', { name: 'Kept', provider: 'test' })).id
  const gone = (await send(b, 'POST', '/api/v1/themes', { name: 'Gone', provider: 'test' })).id
  const seen = await seenWithinFeedBound(
    async () => (await contextOn(a)).themes.some((x: { id: string }) => x.id === gone),
    performance.now(),
  )
  t.ok(seen.seen, 'A holds a context with both themes')

  const goneVersions = await streamVersion(gone)
  const keptFrom = await streamVersion(kept)
  await send(b, 'DELETE', `/api/v1/themes/${gone}`)
  for (let i = 0; (await streamVersion(kept)) - keptFrom < goneVersions; i++)
    await send(b, 'PATCH', `/api/v1/themes/${kept}`, { name: `Kept ${i}` })
  const changedAt = performance.now()
  const left = await seenWithinFeedBound(
    async () => !(await contextOn(a)).themes.some((x: { id: string }) => x.id === gone),
    changedAt,
  )
  t.ok(left.seen && left.staleAfterBound === 0, 'A’s context leaves the archived theme out within the bound')
  t.same(await contextOn(a), await contextOn(b), 'and equals the context B makes afresh')
})
