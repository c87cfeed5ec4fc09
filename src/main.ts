import { pino } from 'pino'
import { loadConfig } from './config.ts'
import { openDatabase } from './db/connect.ts'
import { buildApp, loggerOptions } from './http/app.ts'
import { purgeExpired } from './operations/idempotency.ts'
import { projections } from './projections/index.ts'
import { startCatchUpLoop } from './projections/catch-up-loop.ts'
import { observePool, observeReplicas, readRoutes } from './metrics/registry.ts'
import { openReplicas, PRIMARY } from './db/replicas.ts'
import { openRedis, closeRedis } from './redis.ts'
import { resolveSigningSecret } from './secrets.ts'
import { hasAnyStore } from './seed/seed-commerce.ts'
import { seedDemo, type DemoKey, type DemoMerchant } from './seed/seed-demo.ts'
import { createServices, prepareDatabase } from './services.ts'
import { servicePlugins } from './plugins.ts'
import { disabledChangeFeed, type ChangeFeed } from './notifications/change-feed.ts'
import { postgresChangeFeed } from './notifications/postgres-change-feed.ts'
import { pgliteChangeFeed } from './notifications/pglite-change-feed.ts'

const config = loadConfig()
const logger = pino(loggerOptions(config.logLevel))
const signingSecret = resolveSigningSecret(config)
const opened = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
await prepareDatabase(opened.db)
if (opened.pool) {
  const pool = opened.pool
  observePool(() => pool, pool.options.max ?? 10)
}

// The in-memory caches' notifications: one LISTEN connection of its own on PostgreSQL, PGlite's
// in-process listen() on the embedded database.
const changeFeed: ChangeFeed = config.databaseUrl
  ? postgresChangeFeed({
      connectionString: config.databaseUrl,
      onState: (state, error) =>
        logger[state === 'lost' ? 'warn' : 'info'](
          { err: error },
          state === 'lost' ? 'change feed lost: caches bypassed until it listens again' : 'change feed listening',
        ),
    })
  : opened.pglite
    ? await pgliteChangeFeed(opened.pglite)
    : disabledChangeFeed()
// Reads from streaming replicas (config refuses replicas without DATABASE_URL, so there is a pool).
const replicas =
  opened.pool && config.databaseReplicaUrls.length > 0
    ? (() => {
        const toPrimary = readRoutes.labels({ to: 'primary' })
        const toReplica = readRoutes.labels({ to: 'replica' })
        return openReplicas(config.databaseReplicaUrls, opened.pool, {
          onRoute: (to) => (to === PRIMARY ? toPrimary : toReplica).inc(),
        })
      })()
    : undefined
if (replicas) {
  observeReplicas(() => replicas.states())
  logger.info({ replicas: replicas.routing.size }, 'reads may go to the replicas of DATABASE_REPLICA_URLS')
}
const services = createServices({ config, db: opened.db, signingSecret, logger, changeFeed, replicas })

// Only a first start of the embedded database seeds by itself; PostgreSQL is seeded with
// `npm run seed`, and production never is.
let demoKeys: DemoKey[] = []
let demoMerchants: DemoMerchant[] = []
if (config.env !== 'production' && opened.kind === 'pglite' && !(await hasAnyStore(opened.db))) {
  const seeded = await seedDemo(services)
  demoKeys = seeded.keys
  demoMerchants = seeded.merchants
}

const redis = config.redisUrl
  ? openRedis(config.redisUrl, (error) => logger.warn({ err: error.message }, 'redis unavailable'))
  : null
const app = await buildApp(services, { logger, redis, ...servicePlugins() })
// Idempotency records are kept 24 hours; expired ones are cleared hourly.
const purge = setInterval(
  () => void purgeExpired(opened.db).catch((error) => logger.warn({ err: error }, 'idempotency purge failed')),
  3600_000,
)
purge.unref()
// One instance leads the catch-up (advisory lock); the others take over within a second of its death.
const stopCatchUp = startCatchUpLoop(opened.db, services.eventStore, projections, {
  intervalMs: 5000,
  retryMs: 1000,
  leadership: opened.kind === 'pglite' ? 'single' : 'advisory-lock',
  onError: (error) => logger.error({ err: error }, 'projection catch-up failed'),
  onLeadership: (leading) =>
    logger.info({ leading }, leading ? 'leading the projection catch-up' : 'no longer leading the projection catch-up'),
})

await app.listen({ port: config.port, host: config.host })
const stores = await opened.db.selectFrom('stores').select(['store_id', 'name', 'slug']).orderBy('store_id').execute()
const lines = [
  '',
  `Storefront theme service on ${config.baseUrl} (${opened.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}, node ${process.version})`,
  `  REST API        ${config.baseUrl}/api/v1   (OpenAPI: ${config.baseUrl}/api/v1/openapi.json)`,
  `  MCP endpoint    ${config.baseUrl}/api/v1/mcp`,
  ...stores.map((s) => `  Storefront      ${config.baseUrl}/s/${s.slug}   (${s.name}, ${s.store_id})`),
  `  Dashboard       ${config.baseUrl}/dashboard   (merchants sign in here)`,
  ...(demoMerchants.length > 0
    ? [
        '',
        'Demo merchant sign-ins (shown once; `npm run merchants -- reset-password --email <e>` prints a new one):',
        ...demoMerchants.map((m) => `  ${m.stores.join(', ').padEnd(18)} ${m.email.padEnd(34)} ${m.password}`),
      ]
    : []),
  ...(demoKeys.length > 0
    ? [
        '',
        'Demo API keys (shown once; create more with `npm run keys -- create --store <id>`):',
        ...demoKeys.map((k) => `  ${k.storeName.padEnd(18)} ${k.name.padEnd(26)} ${k.key}`),
      ]
    : ['', 'API keys: `npm run keys -- create --store <store id>` (the demo keys were printed at first start).']),
  '',
]
process.stdout.write(`${lines.join('\n')}\n`)

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  logger.info({ signal }, 'draining in-flight requests')
  await app.close()
  clearInterval(purge)
  await stopCatchUp()
  // Pending last_used_at writes, then the LISTEN connection.
  await services.close()
  if (redis) await closeRedis(redis)
  await opened.close()
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
