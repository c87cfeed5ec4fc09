// REST API under load: autocannon against the real app (buildApp with the service plugins, as
// src/main.ts builds it) on a fresh, seedDemo-seeded PostgreSQL database, with the rate limit
// raised out of the way (RATE_LIMIT_MAX). Routes:
//   hello-world  GET /bench/hello — a plain fastify route in the same app and process: the ceiling
//   readyz       GET /readyz — one `select 1`, no authentication: the floor of any route that reads
//                the database (diagnostic, no target)
//   getTheme     GET /api/v1/themes/:id (the seeded live theme, full document)
//   getContext   GET /api/v1/context
//   getProducts  GET /api/v1/products (first page)
//   applyThemeBatch POST /api/v1/themes/:id/batch, 10 updateSection operations, no expectedVersion;
//                each connection edits its own draft theme (8 themes), so no request waits on another.
//
// The server runs in a child process (this file with --serve); this process only generates load,
// so the two share the machine's cores with PostgreSQL. Routes are measured in alternating rounds.
// The load generator is wrk when it is installed (Debian's `wrk` package; support/wrk-load.ts says
// why), latencies from its histogram as 1,000 quantiles per round; else, or with --load autocannon,
// autocannon in this process, latencies per response from its response events.
//
// node_modules/.bin/node bench/api.ts [--seconds 10] [--rounds 2] [--connections 8] [--warmup 2]
//   [--load wrk|autocannon]   the load generator (default: wrk when installed, unless BENCH_LOAD=autocannon)
//   [--routes getTheme,getContext,...]  a subset of the routes (hello-world always runs)
//   [--pool 10]               the server's pool size
//   [--server-cpu-prof DIR]   profile the server process (node --cpu-prof) into DIR
//   [--node-flags '<flags>']  the server's Node flags instead of the service's (src/service-node-flags.ts); '' for V8's defaults
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { createBenchDatabase } from './support/database.ts'
import {
  cpuSnapshot,
  cpuSince,
  endedChildrenCpu,
  fmt,
  headerWithLoad,
  ms,
  numberArg,
  processCpu,
  serverNodeFlags,
  serverNodeLabel,
  stringArg,
  table,
  verdict,
  type Cpu,
} from './support/measure.ts'
import { installedWrk, wrkLoad } from './support/wrk-load.ts'

const SECONDS = numberArg('seconds', 10)
const ROUNDS = numberArg('rounds', 2)
const CONNECTIONS = numberArg('connections', 8)
const WARMUP = numberArg('warmup', 2)
// The server's pool (the service's default is 10).
const POOL = numberArg('pool', 10)
const WRK = stringArg('load') === 'autocannon' ? undefined : installedWrk
if (stringArg('load') === 'wrk' && !WRK)
  throw new Error(
    '--load wrk: wrk is not installed (apt-get install wrk), or BENCH_LOAD=autocannon asks for autocannon',
  )

type Ready = { type: 'ready'; port: number; key: string; liveThemeId: string; drafts: string[]; seedSeconds: number }

// ---- the server (child process) -------------------------------------------------------------
async function serve(url: string): Promise<void> {
  const { openPostgres } = await import('../src/db/connect.ts')
  const { buildApp } = await import('../src/http/app.ts')
  const { servicePlugins } = await import('../src/plugins.ts')
  const { seededServices, draftThemes } = await import('./support/services.ts')
  const t0 = performance.now()
  // Statements sent to PostgreSQL (each at least one round trip), reported to the load generator.
  const pg = (await import('pg')).default
  let statements = 0
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    statements++
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  const opened = openPostgres(url, POOL)
  const { services, keys } = await seededServices(opened.db, {}, { changeFeedUrl: url })
  const storeId = 'st_demo_atlas'
  const key = keys.find(
    (k) => k.storeId === storeId && k.scopes.includes('themes:write') && k.scopes.includes('products:read'),
  )
  if (!key) throw new Error('no demo key with themes:write')
  const live = await opened.db
    .selectFrom('themes')
    .select('theme_id')
    .where('store_id', '=', storeId)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow()
  const drafts = await draftThemes(services, CONNECTIONS, [storeId])
  const app = await buildApp(services, { redis: null, ...servicePlugins() })
  app.get('/bench/hello', async () => ({ hello: 'world' }))
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const ready: Ready = {
    type: 'ready',
    port,
    key: key.key,
    liveThemeId: live.theme_id,
    drafts: drafts.map((d) => d.themeId),
    seedSeconds: (performance.now() - t0) / 1000,
  }
  process.send!(ready)
  // The load generator is gone (interrupted): nothing left to serve.
  process.on('disconnect', () => process.exit(0))
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'stats') return void process.send!({ type: 'stats', statements })
    if (m.type !== 'stop') return
    await app.close()
    await opened.close()
    process.exit(0)
  })
}

// ---- the load generator (this process) ------------------------------------------------------
type Route = {
  name: string
  method: 'GET' | 'POST'
  paths: string[]
  body?: (i: number | '{i}') => string
  auth: boolean
}
// Latencies as samples with a weight: one per response (autocannon), or wrk's quantiles, each a
// thousandth of its round's responses (so rounds of different lengths merge by their counts).
type Sample = { ms: number; weight: number }
type Measured = {
  latencies: Sample[]
  requests: number
  non2xx: number
  errors: number
  timeouts: number
  bytes: number
  seconds: number
  cpu: Cpu
  server: number
  statements: number
}

function serverStatements(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const on = (m: { type: string; statements?: number }) => {
      if (m.type !== 'stats') return
      child.off('message', on)
      resolve(m.statements!)
    }
    child.on('message', on)
    child.send({ type: 'stats' })
  })
}

function tenUpdates(i: number | '{i}'): string {
  const ids = ['home-hero', 'home-products', 'home-about']
  return JSON.stringify({
    operations: Array.from({ length: 10 }, (_, k) => ({
      op: 'updateSection',
      sectionId: ids[k % 3],
      settings: { heading: `Heading ${i}.${k}` },
    })),
  })
}

// The p-th percentile of weighted samples.
function weightedPercentile(samples: Sample[], p: number): number {
  const sorted = [...samples].sort((a, b) => a.ms - b.ms)
  const total = sorted.reduce((a, s) => a + s.weight, 0)
  let seen = 0
  for (const s of sorted) {
    seen += s.weight
    if (seen >= (p / 100) * total - 1e-9) return s.ms
  }
  return sorted.at(-1)?.ms ?? NaN
}

// The load generator's CPU in seconds: this process and the wrk runs that have ended.
function generatorCpu(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6 + (endedChildrenCpu(process.pid) ?? NaN)
}

async function load(base: string, key: string, route: Route, seconds: number, server: ChildProcess): Promise<Measured> {
  const serverPid = server.pid!
  const q0 = await serverStatements(server)
  if (WRK) {
    const c0 = await cpuSnapshot()
    const g0 = generatorCpu()
    const s0 = processCpu(serverPid) ?? NaN
    const r = await wrkLoad(WRK, base, {
      method: route.method,
      paths: route.paths,
      connections: CONNECTIONS,
      seconds,
      headers: {
        ...(route.auth ? { authorization: `Bearer ${key}` } : {}),
        ...(route.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(route.body ? { bodyTemplate: route.body('{i}') } : {}),
    })
    const cpu = await cpuSince(c0)
    const weight = r.requests / r.quantilesMs.length
    return {
      // The slowest response as a sample of no weight: it moves the max column, no percentile.
      latencies: [...r.quantilesMs.map((q) => ({ ms: q, weight })), { ms: r.maxMs, weight: 0 }],
      requests: r.requests,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: 0,
      bytes: r.bytes,
      seconds: r.seconds,
      cpu: { node: generatorCpu() - g0, postgres: cpu.postgres, machine: cpu.machine },
      server: (processCpu(serverPid) ?? NaN) - s0,
      statements: (await serverStatements(server)) - q0,
    }
  }
  // One autocannon instance per path: the batch route gives each connection its own theme.
  const perPath = route.paths.length > 1 ? 1 : CONNECTIONS
  const latencies: Sample[] = []
  let non2xx = 0
  let n = 0
  const c0 = await cpuSnapshot()
  const s0 = processCpu(serverPid) ?? NaN
  const t0 = performance.now()
  const results = await Promise.all(
    route.paths.map(
      (path) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon(
            {
              url: `${base}${path}`,
              method: route.method,
              connections: perPath,
              duration: seconds,
              headers: {
                ...(route.auth ? { authorization: `Bearer ${key}` } : {}),
                ...(route.body ? { 'content-type': 'application/json' } : {}),
              },
              ...(route.body
                ? {
                    requests: [
                      { setupRequest: (req: Record<string, unknown>) => ({ ...req, body: route.body!(n++) }) },
                    ],
                  }
                : {}),
            } as autocannon.Options,
            (error: unknown, result: autocannon.Result) => (error ? reject(error) : resolve(result)),
          )
          instance.on('response', (_client: unknown, status: number, _bytes: number, time: number) => {
            latencies.push({ ms: time, weight: 1 })
            if (status < 200 || status >= 300) non2xx++
          })
        }),
    ),
  )
  const wall = (performance.now() - t0) / 1000
  const cpu = await cpuSince(c0)
  return {
    latencies,
    requests: latencies.length,
    non2xx,
    errors: results.reduce((a, r) => a + r.errors, 0),
    timeouts: results.reduce((a, r) => a + r.timeouts, 0),
    bytes: results.reduce((a, r) => a + r.throughput.total, 0),
    seconds: wall,
    cpu: { node: cpu.node, postgres: cpu.postgres, machine: cpu.machine },
    server: (processCpu(serverPid) ?? NaN) - s0,
    statements: (await serverStatements(server)) - q0,
  }
}

function merge(list: Measured[]): Measured {
  const sum = (f: (m: Measured) => number) => list.reduce((a, m) => a + f(m), 0)
  return {
    latencies: list.flatMap((m) => m.latencies),
    requests: sum((m) => m.requests),
    non2xx: sum((m) => m.non2xx),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    bytes: sum((m) => m.bytes),
    seconds: sum((m) => m.seconds),
    cpu: { node: sum((m) => m.cpu.node), postgres: sum((m) => m.cpu.postgres), machine: sum((m) => m.cpu.machine) },
    server: sum((m) => m.server),
    statements: sum((m) => m.statements),
  }
}

async function main(): Promise<void> {
  const bdb = await createBenchDatabase('api', { poolSize: 1 })
  await bdb.close()
  let child: ChildProcess | null = null
  try {
    const prof = stringArg('server-cpu-prof')
    child = fork(
      fileURLToPath(import.meta.url),
      ['--serve', '--connections', String(CONNECTIONS), '--pool', String(POOL)],
      {
        env: { ...process.env, BENCH_API_DATABASE_URL: bdb.url },
        execArgv: [...serverNodeFlags(), ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [])],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    )
    const ready = await new Promise<Ready>((resolve, reject) => {
      child!.once('message', (m) => resolve(m as Ready))
      child!.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
    })
    const base = `http://127.0.0.1:${ready.port}`
    await headerWithLoad(`REST API under ${WRK ? 'wrk' : 'autocannon'}`, [
      `server: buildApp + service plugins in a child process (${serverNodeLabel()}) on ${base}, fresh database ${bdb.name} seeded by seedDemo (${fmt(ready.seedSeconds, 1)} s), pool ${POOL}, rate limit 1e9/min`,
      `${CONNECTIONS} connections per route; ${SECONDS} s per route in ${ROUNDS} alternating rounds, ${WARMUP} s warm-up per route; load generator: ${WRK ? `wrk (${WRK}), one thread per connection for the batch` : 'autocannon in this process'}`,
    ])
    const allRoutes: Route[] = [
      { name: 'hello-world (ceiling)', method: 'GET', paths: ['/bench/hello'], auth: false },
      { name: 'readyz (select 1, no auth)', method: 'GET', paths: ['/readyz'], auth: false },
      { name: 'getTheme', method: 'GET', paths: [`/api/v1/themes/${ready.liveThemeId}`], auth: true },
      { name: 'getContext', method: 'GET', paths: ['/api/v1/context'], auth: true },
      { name: 'getProducts', method: 'GET', paths: ['/api/v1/products'], auth: true },
      {
        name: 'applyThemeBatch (10 ops)',
        method: 'POST',
        paths: ready.drafts.map((id) => `/api/v1/themes/${id}/batch`),
        body: tenUpdates,
        auth: true,
      },
    ]
    // --routes getTheme,applyThemeBatch: a subset (the hello-world ceiling always runs first).
    const only = stringArg('routes')?.split(',')
    const routes = only ? allRoutes.filter((r, i) => i === 0 || only.some((o) => r.name.startsWith(o))) : allRoutes
    for (const r of routes) {
      const w = await load(base, ready.key, r, WARMUP, child)
      if (w.non2xx > 0 || w.errors > 0)
        throw new Error(`${r.name}: ${w.non2xx} non-2xx responses and ${w.errors} errors in the warm-up`)
    }
    const runs: Measured[][] = routes.map(() => [])
    for (let round = 0; round < ROUNDS; round++) {
      const order = routes.map((_, i) => i)
      if (round % 2 === 1) order.reverse()
      for (const i of order) runs[i]!.push(await load(base, ready.key, routes[i]!, SECONDS / ROUNDS, child))
    }
    const merged = runs.map(merge)
    const rps = (m: Measured) => m.requests / m.seconds
    const ceiling = rps(merged[0]!)
    console.log(
      table(
        routes.map((r, i) => {
          const m = merged[i]!
          return {
            route: r.name,
            'req/s': fmt(rps(m)),
            p50: ms(weightedPercentile(m.latencies, 50)),
            p99: ms(weightedPercentile(m.latencies, 99)),
            max: ms(m.latencies.reduce((a, l) => Math.max(a, l.ms), -Infinity)),
            requests: fmt(m.requests),
            'non-2xx': fmt(m.non2xx),
            errors: fmt(m.errors + m.timeouts),
            'bytes/resp': fmt(m.bytes / Math.max(1, m.requests)),
            'SQL/req': fmt(m.statements / Math.max(1, m.requests), 1),
            'CPU ms/req server / pg': `${fmt((1000 * m.server) / Math.max(1, m.requests), 2)} / ${fmt((1000 * m.cpu.postgres) / Math.max(1, m.requests), 2)}`,
            'vs hello': fmt(rps(m) / ceiling, 2),
            'cores server / pg / loadgen / other': `${fmt(m.server / m.seconds, 2)} / ${fmt(m.cpu.postgres / m.seconds, 2)} / ${fmt(m.cpu.node / m.seconds, 2)} / ${fmt(Math.max(0, m.cpu.machine - m.server - m.cpu.postgres - m.cpu.node) / m.seconds, 2)}`,
          }
        }),
      ),
    )
    console.log()
    // Read targets against /readyz (one `select 1`): issue 38's for getTheme and getContext, which
    // answer warm from memory with no statement (the payload is then the limit, not the database);
    // issue 12's for getProducts. The hello-world ratio stays in the table.
    const readyz = routes.findIndex((r) => r.name.startsWith('readyz'))
    const readTargets: Record<string, number> = { getTheme: 1.0, getContext: 1.0, getProducts: 0.4 }
    for (const [i, r] of routes.entries()) {
      const goal = readTargets[r.name]
      if (goal === undefined || readyz < 0) continue
      const ratio = rps(merged[i]!) / rps(merged[readyz]!)
      console.log(`target: ${r.name} ≥ ${goal} × /readyz → ${fmt(ratio, 2)}: ${verdict(ratio >= goal)}`)
    }
    const b = routes.findIndex((r) => r.method === 'POST')
    if (b >= 0) {
      const batch = merged[b]!
      const p99 = weightedPercentile(batch.latencies, 99)
      const clean = batch.non2xx === 0 && batch.errors === 0
      // Issue 12 (reads and writes): < 20 ms; issue 15 (the event store): < 15 ms.
      for (const limit of [20, 15])
        console.log(
          `target: applyThemeBatch p99 < ${limit} ms at ${CONNECTIONS} connections → ${ms(p99)}, ${fmt(batch.non2xx)} non-2xx: ${verdict(p99 < limit && clean)}`,
        )
    }
  } finally {
    if (child && child.exitCode === null) {
      child.send({ type: 'stop' })
      await new Promise((r) => child!.once('exit', r))
    }
    await bdb.drop()
  }
}

if (process.argv.includes('--serve')) await serve(process.env.BENCH_API_DATABASE_URL!)
else await main()
