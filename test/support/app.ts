import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { loadConfig } from '../../src/config.ts'
import { buildApp, type AppOptions } from '../../src/http/app.ts'
import { createApiKey, ensureApp } from '../../src/auth/credentials.ts'
import { SCOPES, type Scope } from '../../src/auth/scopes.ts'
import { servicePlugins } from '../../src/plugins.ts'
import { closeRedis, openRedis } from '../../src/redis.ts'
import { createServices, type Services } from '../../src/services.ts'
import { freshDatabase } from './database.ts'
import { eventually } from './eventually.ts'
import type { OpenedDatabase } from '../../src/db/connect.ts'
import type { ChangeFeed } from '../../src/notifications/change-feed.ts'
import { pgliteChangeFeed } from '../../src/notifications/pglite-change-feed.ts'
import { postgresChangeFeed, type PostgresChangeFeedOptions } from '../../src/notifications/postgres-change-feed.ts'

// The change feed main.ts would open on this database, listening and healthy once it resolves:
// the caches are used from the first request. Listening is not enough on a loaded machine: the
// feed counts as healthy only once a heartbeat sent in the last 750 ms was answered. `options`
// overrides the feed's timings (a test whose subject is not the bound widens its window).
export type FeedTimings = Omit<PostgresChangeFeedOptions, 'connectionString' | 'onState'>
export async function openChangeFeed(
  opened: OpenedDatabase & { url: string | null },
  options: FeedTimings = {},
): Promise<ChangeFeed> {
  if (opened.pglite) return pgliteChangeFeed(opened.pglite)
  const feed = postgresChangeFeed({ ...options, connectionString: opened.url! })
  await feed.ready()
  if (!(await eventually(async () => feed.healthy(), Boolean))) throw new Error('the change feed never became healthy')
  return feed
}

export const STORE_A = 'st_demo_atlas'
export const STORE_B = 'st_demo_lumen'

export type TestApp = {
  app: FastifyInstance
  services: Services
  // A new API key of the store with exactly these scopes (all scopes when omitted).
  key: (storeId: string, scopes?: readonly Scope[]) => Promise<string>
  keyA: string
  keyB: string
  baseUrl: string
}

type Options = {
  rateLimit?: { max: number; windowSeconds: number }
  redisUrl?: string
  // false: only the REST API (no MCP endpoint, no storefront).
  plugins?: boolean
  env?: Record<string, string>
  // true: a real change feed (LISTEN connection, or PGlite's listen), so the credential cache and
  // the storefront probes are used; otherwise both are bypassed, as before them.
  changeFeed?: boolean
}

// A real app on a fresh, seeded database (PostgreSQL, or PGlite with TEST_DATABASE=pglite).
export async function testApp(t: { teardown: (fn: () => unknown) => void }, options: Options = {}): Promise<TestApp> {
  const opened = await freshDatabase(t, { seed: 'demo' })
  const { db } = opened
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: 'http://storefront.test',
    RATE_LIMIT_MAX: String(options.rateLimit?.max ?? 100000),
    RATE_LIMIT_WINDOW_SECONDS: String(options.rateLimit?.windowSeconds ?? 60),
    ...(options.redisUrl ? { RATE_LIMIT_BACKEND: 'redis', REDIS_URL: options.redisUrl } : {}),
    SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
    ...options.env,
  })
  const changeFeed = options.changeFeed ? await openChangeFeed(opened) : undefined
  const services = createServices({
    config,
    db,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
    ...(changeFeed ? { changeFeed } : {}),
  })
  // The service's own client options; the test starts once it is connected.
  const redis = options.redisUrl ? openRedis(options.redisUrl) : null
  if (redis && redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve))
  const extra: Partial<AppOptions> = options.plugins === false ? {} : servicePlugins()
  const app = await buildApp(services, { redis, ...extra })
  await app.ready()
  // Loading the app can hold the event loop past the feed's heartbeat window: start healthy.
  if (changeFeed) await eventually(async () => changeFeed.healthy(), Boolean)
  t.teardown(async () => {
    await app.close()
    await services.close()
    if (redis) await closeRedis(redis)
  })
  const key = async (storeId: string, scopes: readonly Scope[] = SCOPES) => {
    const appId = await ensureApp(db, { storeId, name: 'Test app' })
    return (await createApiKey(db, { storeId, appId, name: 'test', scopes })).key
  }
  return { app, services, key, keyA: await key(STORE_A), keyB: await key(STORE_B), baseUrl: config.baseUrl }
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
