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
