// Storefront renderer throughput: the home page of a theme with 10 sections and a product page,
// live (/s/atlas) and in a signed preview (/preview/{token}), with wrk (or autocannon), against the real
// app on real PostgreSQL. Target: a rendered home page at >= 1,000 requests per second.
//
//   node_modules/.bin/node bench/render-storefront.ts [--seconds 10] [--connections 20] [--warmup 3] [--rounds 3]
//   BENCH_DATABASE_URL (or TEST_DATABASE_URL) points at the PostgreSQL server; a fresh database is
//   created, migrated and seeded for the run and dropped at the end.
//
// The server runs in a child process (its own event loop, as in production); this process only
// generates load. Two servers are measured one after the other on the same database:
//   cached:   the storefront as shipped (pages cached per store, theme version, catalog version;
//             live requests know the versions from memory, kept current by the change feed, so a
//             cached live page costs no statement; previews verify the token and probe the theme;
//             BENCH_CHANGE_FEED=off measures the probe query per request of before);
//   uncached: the page cache disabled, so every request renders from the database (the cost of a
//             cache miss: a new theme version, a new catalog version, a rarely visited page).
// The ratios of the cached live home to the hello-world ceiling and of the cached live product to
// /healthz are measured in --rounds alternating rounds (hello, /healthz, home, product, ...) of
// --seconds each, and each row covers all its rounds: this machine's speed shifts by a third from
// one minute to the next, and a ceiling measured once, a minute before the page, compared two
// different states (bench/README.md).
import { spawn } from 'node:child_process'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { httpLoad, httpLoadGenerator, type HttpLoad } from './support/http-load.ts'
import { header, numberArg, processCpu, serverNodeFlags, serverNodeLabel, verdict } from './support/measure.ts'

const SECONDS = numberArg('seconds', 10)
const CONNECTIONS = numberArg('connections', 20)
const WARMUP = numberArg('warmup', 3)
const ROUNDS = numberArg('rounds', 3)
const TARGET_RPS = 1000

type Targets = { origin: string; pages: { name: string; path: string; expect: string }[] }

// ---- the server (child process) -------------------------------------------------------------
async function serve(cached: boolean): Promise<void> {
  const { createBenchDatabase } = await import('./support/database.ts')
  const { seededServices, agentContext } = await import('./support/services.ts')
  const { buildApp } = await import('../src/http/app.ts')
  const { createStorefrontPlugin, storefrontPlugin } = await import('../src/storefront/plugin.ts')
  const { createTheme, applyThemeEdits, publishTheme } = await import('../src/commands/theme.ts')
  const { issuePreviewToken } = await import('../src/preview/tokens.ts')
  const { listProducts, listCollections } = await import('../src/queries/commerce/index.ts')
  const { listMediaAssets } = await import('../src/queries/media-assets.ts')
  const { sampleDocument } = await import('../test/render/support.ts')

  const database = await createBenchDatabase(cached ? 'render' : 'render_nocache', { poolSize: 10 })
  let app: Awaited<ReturnType<typeof buildApp>> | undefined
  const close = async () => {
    await app?.close().catch(() => {})
    await database.drop()
  }
  process.on('SIGTERM', () => void close().then(() => process.exit(0)))
  try {
    const { services } = await seededServices(database.db, {}, { changeFeedUrl: database.url })
    const storeId = 'st_demo_atlas'
    const products = (await listProducts(services.read, storeId, { limit: 100, status: 'active' })).items
    const collections = (await listCollections(services.read, storeId, { limit: 100 })).items
    const media = (await listMediaAssets(services.read, storeId, { limit: 100 })).items
    const doc = sampleDocument({
      products: products.map((p) => p.id),
      collections: collections.map((c) => c.id),
      media: media.map((m) => new URL(m.url).pathname),
    })
    // Ten sections of the sample, with catalog references of every kind.
    const ten = [
      'home-announcement',
      'home-hero',
      'home-picks',
      'home-featured',
      'home-collections',
      'home-story',
      'home-best',
      'home-quotes',
      'home-faq',
      'home-newest',
    ]
    const home = ten.map((id) => doc.templates.home.find((s) => s.id === id)!)
    const ctx = agentContext(storeId)
    const themeWithTenSections = async (name: string) => {
      const created = await createTheme(services.commands, agentContext(storeId, 'createTheme'), {
        name,
        provider: 'bench',
      })
      if (!created.ok) throw new Error(created.error.message)
      const themeId = created.value.themeId
      const operations = [
        ...created.value.document.templates.home.map((s) => ({ op: 'deleteSection' as const, sectionId: s.id })),
        ...home.map((section) => ({ op: 'createSection' as const, target: { template: 'home' as const }, section })),
        { op: 'updateSection' as const, sectionId: 'product-details', settings: doc.templates.product[0]!.settings },
        { op: 'updateTokens' as const, tokens: doc.theme },
        { op: 'setNavigation' as const, navigation: doc.navigation },
      ]
      const applied = await applyThemeEdits(services.commands, ctx, themeId, { operations: operations as never })
      if (!applied.ok) throw new Error(`${applied.error.code}: ${applied.error.message}`)
      return applied.value
    }
    const live = await themeWithTenSections('Bench live')
    const published = await publishTheme(services.commands, agentContext(storeId, 'publishTheme'), live.themeId, {})
    if (!published.ok) throw new Error(published.error.message)
    const draft = await themeWithTenSections('Bench draft')
    const { token } = await issuePreviewToken(services.signingSecret, {
      storeId,
      themeId: draft.themeId,
      themeVersion: draft.version,
      now: new Date(),
    })

    // Fresh tables: give the planner statistics before measuring (as autovacuum would, later).
    const { sql } = await import('kysely')
    await sql`vacuum analyze`.execute(database.db)

    // The REST API and the storefront (the MCP adapter is not needed here).
    app = await buildApp(services, {
      sitePlugins: [cached ? storefrontPlugin : createStorefrontPlugin({ cacheMaxBytes: 0 })],
    })
    // The ceiling: a plain route in the same app and process.
    app.get('/bench/hello', async () => ({ hello: 'world' }))
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    if (!address || typeof address === 'string') throw new Error('no port')
    const product = products[0]!
    const targets: Targets = {
      origin: `http://127.0.0.1:${address.port}`,
      pages: [
        { name: 'live home (10 sections)', path: '/s/atlas', expect: 'Spring on the trail' },
        { name: 'live product', path: `/s/atlas/products/${product.handle}`, expect: product.title },
        { name: 'preview home (10 sections)', path: `/preview/${token}`, expect: 'Spring on the trail' },
        { name: 'preview product', path: `/preview/${token}/products/${product.handle}`, expect: product.title },
      ],
    }
    process.stdout.write(`${JSON.stringify(targets)}\n`)
  } catch (error) {
    console.error(error)
    await close()
    process.exit(1)
  }
}

// ---- the load generator ---------------------------------------------------------------------
async function startServer(cached: boolean): Promise<{ targets: Targets; stop: () => Promise<void>; pid: number }> {
  const child = spawn(
    process.execPath,
    [...serverNodeFlags(), fileURLToPath(import.meta.url), '--serve', cached ? 'cached' : 'uncached'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const targets = await new Promise<Targets>((resolve, reject) => {
    let buffer = ''
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const line = buffer.split('\n')[0]
      if (buffer.includes('\n') && line) resolve(JSON.parse(line) as Targets)
    })
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  return { targets, stop, pid: child.pid! }
}

// What a browser sends: the page may come gzip-compressed (cached pages keep a compressed copy).
const BROWSER = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'gzip, deflate, br' }

async function cannon(url: string, seconds: number, headers: Record<string, string> = BROWSER): Promise<HttpLoad> {
  return httpLoad(url, { seconds, connections: CONNECTIONS, headers })
}

type Row = { server: string; page: string; bytes: number; rps: number; p50: number; p99: number; cpuUs: number }

async function bytesOf(url: string, headers: Record<string, string>): Promise<number> {
  // fetch() decompresses, so count what goes over the wire with a raw request.
  const { request } = await import('node:http')
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let n = 0
      res.on('data', (c: Buffer) => (n += c.length))
      res.on('end', () => resolve(n))
    })
    req.on('error', reject)
    req.end()
  })
}

async function measure(cached: boolean): Promise<Row[]> {
  const { targets, stop, pid } = await startServer(cached)
  // Throughput swings with whatever else runs on the machine; the server's CPU time per request does not.
  const timed = async (url: string, headers: Record<string, string>) => {
    const cpu0 = processCpu(pid) ?? NaN
    const r = await cannon(url, SECONDS, headers)
    return { r, cpuUs: (((processCpu(pid) ?? NaN) - cpu0) / Math.max(1, r.total)) * 1e6 }
  }
  // One or more rounds of one URL (each --seconds long) as one row: the mean of their req/s, CPU
  // over all their requests, the median round's p50 and the worst round's p99.
  const summary = async (url: string, headers: Record<string, string>, results: { r: HttpLoad; cpuUs: number }[]) => {
    const total = results.reduce((a, x) => a + x.r.total, 0)
    const middle = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    return {
      bytes: await bytesOf(url, headers),
      rps: results.reduce((a, x) => a + x.r.requestsPerSecond, 0) / results.length,
      p50: middle(results.map((x) => x.r.p50Ms)),
      p99: Math.max(...results.map((x) => x.r.p99Ms)),
      cpuUs: results.reduce((a, x) => a + x.cpuUs * x.r.total, 0) / Math.max(1, total),
    }
  }
  const rows: Row[] = []
  try {
    // Warm the server (JIT, pools, caches) on every page before any measurement.
    for (const page of targets.pages) {
      const url = `${targets.origin}${page.path}`
      const res = await fetch(url)
      const body = await res.text()
      if (res.status !== 200 || !body.includes(page.expect))
        throw new Error(`${page.name}: ${res.status}, expected text missing`)
      if (!String(res.headers.get('content-security-policy')).includes("script-src 'none'"))
        throw new Error(`${page.name}: no CSP`)
      await cannon(url, WARMUP)
    }
    let pages = targets.pages
    if (cached) {
      // The ceilings (hello-world, /healthz) and the live home and product in alternating rounds,
      // so all four see the machine in the same states.
      const alternating = [
        { name: 'hello-world (ceiling)', url: `${targets.origin}/bench/hello` },
        { name: '/healthz', url: `${targets.origin}/healthz` },
        { name: targets.pages[0]!.name, url: `${targets.origin}${targets.pages[0]!.path}` },
        { name: targets.pages[1]!.name, url: `${targets.origin}${targets.pages[1]!.path}` },
      ]
      const results = alternating.map(() => [] as { r: HttpLoad; cpuUs: number }[])
      for (const { url } of alternating.slice(0, 2)) await cannon(url, WARMUP)
      for (let i = 0; i < ROUNDS; i++)
        for (const [j, { url }] of alternating.entries()) results[j]!.push(await timed(url, BROWSER))
      for (const [j, { name, url }] of alternating.entries())
        rows.push({ server: 'cached', page: name, ...(await summary(url, BROWSER, results[j]!)) })
      pages = targets.pages.slice(2)
    }
    for (const page of pages) {
      const url = `${targets.origin}${page.path}`
      rows.push({
        server: cached ? 'cached' : 'uncached',
        page: page.name,
        ...(await summary(url, BROWSER, [await timed(url, BROWSER)])),
      })
    }
    // The live home page once more without compression (a client that does not accept gzip).
    const home = `${targets.origin}${targets.pages[0]!.path}`
    const identity = { accept: 'text/html' }
    await cannon(home, WARMUP, identity)
    rows.push({
      server: cached ? 'cached' : 'uncached',
      page: 'live home, uncompressed',
      ...(await summary(home, identity, [await timed(home, identity)])),
    })
  } finally {
    await stop()
  }
  return rows
}

async function main(): Promise<void> {
  header(`Storefront renderer: ${httpLoadGenerator} against the app on PostgreSQL`, [
    `${CONNECTIONS} connections, ${SECONDS} s per page after a ${WARMUP} s warm-up; hello-world, /healthz, the cached live home and product in ${ROUNDS} alternating rounds of ${SECONDS} s each (req/s: the rounds' mean); the server is a child process (${serverNodeLabel()}), the load generator (${httpLoadGenerator}; BENCH_LOAD=autocannon forces autocannon) runs beside it`,
    'requests carry browser headers (Accept-Encoding: gzip, deflate, br); bytes = response body on the wire',
    `load average before the run: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (other work on the machine skews the figures)`,
    `cached: as shipped (live pages from memory: no statement while the change feed is healthy; previews verify the JWT and probe the theme)${process.env.BENCH_CHANGE_FEED === 'off' ? ' — BENCH_CHANGE_FEED=off: no change feed, one probe query per request' : ''}; uncached: page cache off, every request renders`,
  ])
  const rows = [...(await measure(true)), ...(await measure(false))]
  const pad = (s: string | number, n: number, left = false) => (left ? String(s).padEnd(n) : String(s).padStart(n))
  console.log(
    `${pad('server', 9, true)} ${pad('page', 27, true)} ${pad('bytes', 7)} ${pad('req/s', 8)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)} ${pad('server CPU µs/req', 18)} ${pad('server busy', 12)}`,
  )
  for (const r of rows)
    console.log(
      `${pad(r.server, 9, true)} ${pad(r.page, 27, true)} ${pad(r.bytes, 7)} ${pad(Math.round(r.rps), 8)} ${pad(r.p50, 7)} ${pad(r.p99, 7)} ${pad(Math.round(r.cpuUs), 18)} ${pad(`${Math.round((r.cpuUs * r.rps) / 1e4)}%`, 12)}`,
    )
  const home = rows.find((r) => r.server === 'cached' && r.page.startsWith('live home'))!
  console.log(
    `\nserver CPU per request on the cached live home: ${Math.round(home.cpuUs)} µs, i.e. about ${Math.round(1e6 / home.cpuUs)} req/s per core for the Node process alone`,
  )
  console.log(
    `target: a rendered home page at >= ${TARGET_RPS} req/s (live, as shipped): ${Math.round(home.rps)} req/s — ${verdict(home.rps >= TARGET_RPS)}`,
  )
  const hello = rows.find((r) => r.page.startsWith('hello-world'))!
  const ratio = home.rps / hello.rps
  console.log(
    `target: cached live home >= 0.5 x hello-world (${Math.round(hello.rps)} req/s): ${ratio.toFixed(2)} — ${verdict(ratio >= 0.5)}`,
  )
  // Issue 35: the warm product page against the app's own cheapest route, between orders.
  const healthz = rows.find((r) => r.page === '/healthz')!
  const product = rows.find((r) => r.server === 'cached' && r.page === 'live product')!
  const productRatio = product.rps / healthz.rps
  console.log(
    `target: cached live product >= 0.5 x /healthz (${Math.round(healthz.rps)} req/s): ${productRatio.toFixed(2)} — ${verdict(productRatio >= 0.5)}`,
  )
}

if (process.argv.includes('--serve')) await serve(process.argv[process.argv.indexOf('--serve') + 1] === 'cached')
else await main()
