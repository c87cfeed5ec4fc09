import { Redis } from 'ioredis'
import { pino } from 'pino'
import { loadConfig } from './config.ts'
import { openDatabase } from './db/connect.ts'
import { migrateToLatest } from './db/migrate.ts'
import { buildApp, loggerOptions } from './http/app.ts'
import { purgeExpired } from './http/idempotency.ts'
import { projections } from './projections/index.ts'
import { startCatchUpLoop } from './projections/runner.ts'
import { resolveSigningSecret } from './secrets.ts'
import { hasAnyStore } from './seed/seed-commerce.ts'
import { seedDemo, type DemoKey } from './seed/seed-demo.ts'
import { createServices } from './services.ts'
import { servicePlugins } from './plugins.ts'

const config = loadConfig()
const logger = pino(loggerOptions(config.logLevel))
const signingSecret = resolveSigningSecret(config)
const opened = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
await migrateToLatest(opened.db)

const services = createServices({ config, db: opened.db, signingSecret, logger })

// Only a first start of the embedded database seeds by itself; PostgreSQL is seeded with
// `npm run seed`, and production never is.
let demoKeys: DemoKey[] = []
if (config.env !== 'production' && opened.kind === 'pglite' && !(await hasAnyStore(opened.db))) {
  demoKeys = (await seedDemo(services)).keys
}

const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }) : null
redis?.on('error', (error) => logger.warn({ err: error.message }, 'redis unavailable'))
const app = await buildApp(services, { logger, redis, ...servicePlugins() })
// Idempotency records are kept 24 hours; expired ones are cleared hourly.
const purge = setInterval(() => void purgeExpired(opened.db).catch((error) => logger.warn({ err: error }, 'idempotency purge failed')), 3600_000)
purge.unref()
const stopCatchUp = startCatchUpLoop(opened.db, services.eventStore, projections, 5000, (error) => logger.error({ err: error }, 'projection catch-up failed'))

await app.listen({ port: config.port, host: config.host })
const stores = await opened.db.selectFrom('stores').select(['store_id', 'name', 'slug']).orderBy('store_id').execute()
const lines = [
  '',
  `Storefront theme service on ${config.baseUrl} (${opened.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}, node ${process.version})`,
  `  REST API        ${config.baseUrl}/api/v1   (OpenAPI: ${config.baseUrl}/api/v1/openapi.json)`,
  `  MCP endpoint    ${config.baseUrl}/api/v1/mcp`,
  ...stores.map((s) => `  Storefront      ${config.baseUrl}/s/${s.slug}   (${s.name}, ${s.store_id})`),
  ...(demoKeys.length > 0
    ? ['', 'Demo API keys (shown once; create more with `npm run keys -- create --store <id>`):', ...demoKeys.map((k) => `  ${k.storeName.padEnd(18)} ${k.name.padEnd(26)} ${k.key}`)]
    : ['', 'API keys: `npm run keys -- create --store <store id>` (the demo keys were printed at first start).']),
  '',
]
process.stdout.write(lines.join('\n') + '\n')

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  logger.info({ signal }, 'draining in-flight requests')
  await app.close()
  clearInterval(purge)
  await stopCatchUp()
  await redis?.quit().catch(() => {})
  await opened.close()
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
