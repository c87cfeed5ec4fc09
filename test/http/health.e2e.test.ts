import t from 'tap'
import { pino } from 'pino'
import { Redis } from 'ioredis'
import { loadConfig } from '../../src/config.ts'
import { openPostgres } from '../../src/db/connect.ts'
import { buildApp } from '../../src/http/app.ts'
import { createServices } from '../../src/services.ts'
import { testApp } from '../support/app.ts'

t.test('healthz while the process lives; readyz only while the database and Redis answer', async (t) => {
  const { app } = await testApp(t, { plugins: false, redisUrl: 'redis://127.0.0.1:6379' })
  t.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200)
  const ready = await app.inject({ method: 'GET', url: '/readyz' })
  t.equal(ready.statusCode, 200)
  t.same(ready.json().checks, { database: 'ok', redis: 'ok' })
})

t.test('readyz is 503 UNAVAILABLE with the failing checks when a dependency is down', async (t) => {
  const config = loadConfig({ NODE_ENV: 'test', SIGNING_SECRET: 'test-signing-secret-0123456789abcdef' })
  // Nothing listens on port 1: both dependencies are down.
  const db = openPostgres('postgres://postgres@127.0.0.1:1/nowhere', 1)
  const redis = new Redis('redis://127.0.0.1:1', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  })
  redis.on('error', () => {})
  const services = createServices({
    config,
    db: db.db,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
  })
  const app = await buildApp(services, { redis })
  t.teardown(async () => {
    await app.close()
    redis.disconnect()
    await db.close()
  })
  t.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'alive all the same')
  const ready = await app.inject({ method: 'GET', url: '/readyz' })
  t.equal(ready.statusCode, 503)
  t.match(ready.json(), {
    error: { code: 'UNAVAILABLE', details: { checks: { database: 'down', redis: 'down' } }, requestId: /./ },
  })
})
