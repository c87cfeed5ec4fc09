import t from 'tap'
import { spawn } from 'node:child_process'
import { bearer, testApp } from '../support/app.ts'
import { freePort, sample } from './support.ts'

// RATE_LIMIT_BACKEND=redis and Redis goes away (a redis-server of this test's own, never the
// shared one): the API keeps answering and keeps limiting, each instance on its own counters,
// and the fallback is counted. Never a 500, never every request refused.
t.test('Redis down with RATE_LIMIT_BACKEND=redis: the API limit falls back to per-instance counters', async (t) => {
  const port = await freePort()
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  )
  const redisExited = new Promise((resolve) => redis.on('exit', resolve))
  t.teardown(() => {
    redis.kill('SIGKILL')
    return redisExited
  })
  const url = `redis://127.0.0.1:${port}`
  for (let i = 0; i < 50; i++) {
    const up = await fetch(`http://127.0.0.1:${port}`).then(
      () => true,
      (e: Error & { cause?: { code?: string } }) => e.cause?.code !== 'ECONNREFUSED',
    )
    if (up) break
    await new Promise((r) => setTimeout(r, 100))
  }
  const app = await testApp(t, { redisUrl: url, rateLimit: { max: 4, windowSeconds: 60 } })
  const metrics = async () => (await app.app.inject({ method: 'GET', url: '/metrics' })).body
  const get = async () =>
    (await app.app.inject({ method: 'GET', url: '/api/v1/themes', headers: bearer(app.keyA) })).statusCode

  t.same([await get(), await get()], [200, 200], 'counted in Redis')
  const before = sample(await metrics(), 'sfts_rate_limit_backend_errors_total')
  redis.kill('SIGKILL')
  await redisExited

  const statuses: number[] = []
  for (let i = 0; i < 6; i++) statuses.push(await get())
  t.same(statuses, [200, 200, 200, 200, 429, 429], 'answered and still limited (this instance counts from zero)')
  t.ok(sample(await metrics(), 'sfts_rate_limit_backend_errors_total') - before >= 6, 'each fallback is counted')
  const ready = await app.app.inject({ method: 'GET', url: '/readyz' })
  t.equal(ready.statusCode, 503, '/readyz reports Redis down')
  t.equal(ready.json().error.details.checks.redis, 'down')
})
