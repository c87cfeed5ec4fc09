import t from 'tap'
import { loadConfig } from '../src/config.ts'

t.test('defaults, as the README documents them', async (t) => {
  t.match(loadConfig({}), {
    env: 'development',
    port: 3000,
    host: '127.0.0.1',
    baseUrl: 'http://127.0.0.1:3000',
    databaseUrl: undefined,
    dataDir: './.data',
    rateLimit: { backend: 'memory', max: 120, windowSeconds: 60 },
    logLevel: 'info',
  })
  t.equal(
    loadConfig({ BASE_URL: 'https://shop.example/' }).baseUrl,
    'https://shop.example',
    'no trailing slash in handed-out URLs',
  )
})

t.test('refusals at start-up, with what is wrong', async (t) => {
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), /SIGNING_SECRET/)
  t.throws(() => loadConfig({ NODE_ENV: 'production', SIGNING_SECRET: 'short' }), /SIGNING_SECRET/)
  t.doesNotThrow(() => loadConfig({ NODE_ENV: 'production', SIGNING_SECRET: 'x'.repeat(32) }))
  t.throws(() => loadConfig({ RATE_LIMIT_BACKEND: 'redis' }), /REDIS_URL is required/)
  t.throws(() => loadConfig({ RATE_LIMIT_BACKEND: 'memcached' }), /RATE_LIMIT_BACKEND/)
  t.throws(() => loadConfig({ PORT: '70000' }), /PORT/)
})

t.test('DATABASE_REPLICA_URLS: a list of PostgreSQL URLs, only beside DATABASE_URL', async (t) => {
  const primary = 'postgres://app@db-1:5432/sfts'
  t.same(loadConfig({}).databaseReplicaUrls, [], 'none by default: every read on the primary')
  t.same(
    loadConfig({
      DATABASE_URL: primary,
      DATABASE_REPLICA_URLS: ' postgres://app@db-2:5432/sfts, postgresql://app@db-3/sfts ,',
    }).databaseReplicaUrls,
    ['postgres://app@db-2:5432/sfts', 'postgresql://app@db-3/sfts'],
  )
  t.throws(
    () => loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: 'db-2:5432' }),
    /DATABASE_REPLICA_URLS: each entry must be a postgres:\/\/ or postgresql:\/\/ URL/,
  )
  t.throws(
    () => loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: 'mysql://db-2/sfts' }),
    /DATABASE_REPLICA_URLS/,
  )
  t.throws(
    () => loadConfig({ DATABASE_REPLICA_URLS: 'postgres://app@db-2/sfts' }),
    /DATABASE_REPLICA_URLS needs DATABASE_URL: the embedded PGlite database has no replicas/,
  )
})
