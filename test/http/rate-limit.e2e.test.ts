import { createHash, randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import t, { type Test } from 'tap'
import { buildApp } from '../../src/http/app.ts'
import { envelopeProblems, makeWorld, type Req, type Res, type World } from './support/world.ts'

// Rate limits, per credential and fixed window, with both backends (memory, redis): the three
// X-RateLimit-* headers on every answer (successes and errors alike), 429 RATE_LIMITED with
// Retry-After once the budget is spent, separate budgets per credential, and a window that resets.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const NAMESPACE = 'storefront-rl:'
const MAX = 4

type Backend = 'memory' | 'redis'
type Limited = { inject: (req: Req, auth?: string | null) => Promise<Res>; usedKeys: string[] }

// Another app over the same services and database, with its own limit and backend; every
// counter it touches in Redis is deleted when the test ends.
async function limitedApp(t: Test, w: World, backend: Backend, max: number, windowSeconds: number): Promise<Limited> {
  const redis = backend === 'redis' ? new Redis(REDIS_URL) : null
  // Connected before the first request, or that request is counted by the local fallback.
  await redis?.ping()
  const services = { ...w.services, config: { ...w.services.config, rateLimit: { backend, max, windowSeconds } } }
  const app: FastifyInstance = await buildApp(services, { redis })
  await app.ready()
  t.teardown(async () => {
    await app.close()
    await redis?.quit()
  })
  return over(t, w, app, backend)
}

// Requests to an app with tracked rate-limit counters (deleted from Redis at the end).
function over(t: Test, w: World, app: FastifyInstance, backend: Backend): Limited {
  const usedKeys: string[] = []
  if (backend === 'redis') {
    t.teardown(async () => {
      const redis = new Redis(REDIS_URL)
      if (usedKeys.length > 0) await redis.del(...new Set(usedKeys))
      await redis.quit()
    })
  }
  const inject = async (req: Req, auth?: string | null) => {
    const remoteAddress = req.remoteAddress ?? `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}`
    const token = auth === undefined ? await w.key(w.ids.storeId) : auth
    usedKeys.push(
      NAMESPACE + (token ? `cred:${createHash('sha256').update(token).digest('hex')}` : `ip:${remoteAddress}`),
    )
    const res = await app.inject({
      method: req.method as 'GET',
      url: req.url,
      remoteAddress,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...req.headers },
      ...(req.payload !== undefined ? { payload: req.payload as string } : {}),
    })
    return res as unknown as Res
  }
  return { inject, usedKeys }
}

const int = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN)

for (const backend of ['memory', 'redis'] as const) {
  t.test(`${backend} backend`, async (t) => {
    const w = await makeWorld(t, {
      plugins: false,
      rateLimit: { max: MAX, windowSeconds: 60 },
      ...(backend === 'redis' ? { redisUrl: REDIS_URL } : {}),
    })
    const app = over(t, w, w.app, backend)

    await t.test('X-RateLimit-* on successes and on every kind of error, counting down', async (t) => {
      const token = await w.key(w.ids.storeId)
      const requests: { label: string; req: Req; status: number }[] = [
        { label: 'success', req: { method: 'GET', url: '/api/v1/store' }, status: 200 },
        { label: 'unknown resource', req: { method: 'GET', url: '/api/v1/products/nope' }, status: 404 },
        { label: 'unknown route', req: { method: 'GET', url: '/api/v1/nowhere' }, status: 404 },
        { label: 'invalid input', req: { method: 'GET', url: '/api/v1/products?limit=0' }, status: 400 },
      ]
      let expected = MAX
      for (const { label, req, status } of requests) {
        const res = await app.inject(req, token)
        expected--
        t.equal(res.statusCode, status, label)
        t.equal(int(res.headers['x-ratelimit-limit']), MAX, `${label}: X-RateLimit-Limit`)
        t.equal(int(res.headers['x-ratelimit-remaining']), expected, `${label}: X-RateLimit-Remaining`)
        const reset = int(res.headers['x-ratelimit-reset'])
        t.ok(reset >= 0 && reset <= 60, `${label}: X-RateLimit-Reset in seconds (${res.headers['x-ratelimit-reset']})`)
      }
      const limited = await app.inject({ method: 'GET', url: '/api/v1/store' }, token)
      t.same(envelopeProblems(limited, { status: 429, code: 'RATE_LIMITED' }), [], '429 RATE_LIMITED once spent')
      const retry = int(limited.headers['retry-after'])
      t.ok(retry >= 1 && retry <= 60, `Retry-After in seconds (${limited.headers['retry-after']})`)
      t.equal(int(limited.headers['x-ratelimit-limit']), MAX, '429: X-RateLimit-Limit')
      t.equal(int(limited.headers['x-ratelimit-remaining']), 0, '429: X-RateLimit-Remaining 0')
      t.ok(int(limited.headers['x-ratelimit-reset']) >= 0, '429: X-RateLimit-Reset')
      // Every kind of request is refused now, mutations included, and nothing runs.
      const events = await w.eventCount()
      const create = await app.inject(
        { method: 'POST', url: '/api/v1/themes', payload: { name: 'Over budget', provider: 'tap' } },
        token,
      )
      t.equal(create.statusCode, 429)
      t.equal(await w.eventCount(), events, 'a refused mutation applies nothing')
    })

    await t.test('405, 413 and 415 answers carry the headers too', async (t) => {
      const cases: [string, Req, number][] = [
        ['405', { method: 'PUT', url: '/api/v1/store', payload: {} }, 405],
        [
          '415',
          {
            method: 'POST',
            url: '/api/v1/themes',
            payload: '<theme/>',
            headers: { 'content-type': 'application/xml' },
          },
          415,
        ],
        [
          '413',
          {
            method: 'POST',
            url: '/api/v1/themes',
            payload: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024), provider: 'tap' }),
            headers: { 'content-type': 'application/json' },
          },
          413,
        ],
      ]
      for (const [label, req, status] of cases) {
        const res = await app.inject(req)
        t.equal(res.statusCode, status, label)
        t.equal(int(res.headers['x-ratelimit-limit']), MAX, `${label}: X-RateLimit-Limit`)
        t.equal(int(res.headers['x-ratelimit-remaining']), MAX - 1, `${label}: X-RateLimit-Remaining`)
        t.match(res.headers['x-ratelimit-reset'], /^\d+$/, `${label}: X-RateLimit-Reset`)
      }
    })

    await t.test('401 answers carry the headers too (no credential, unknown credential)', async (t) => {
      const address = `10.8.${randomBytes(1)[0]}.${randomBytes(1)[0]}`
      const none = await app.inject({ method: 'GET', url: '/api/v1/store', remoteAddress: address }, null)
      t.equal(none.statusCode, 401)
      t.equal(int(none.headers['x-ratelimit-limit']), MAX)
      t.equal(int(none.headers['x-ratelimit-remaining']), MAX - 1)
      t.match(none.headers['x-ratelimit-reset'], /^\d+$/)
      const unknown = await app.inject(
        { method: 'GET', url: '/api/v1/store' },
        `sk_live_${randomBytes(24).toString('hex')}`,
      )
      t.equal(unknown.statusCode, 401)
      t.equal(int(unknown.headers['x-ratelimit-remaining']), MAX - 1, 'an unknown credential has a budget of its own')
      // Without a credential the budget is the client address's: spending it gives 429, not 401.
      for (let i = 0; i < MAX - 1; i++)
        await app.inject({ method: 'GET', url: '/api/v1/store', remoteAddress: address }, null)
      const limited = await app.inject({ method: 'GET', url: '/api/v1/store', remoteAddress: address }, null)
      t.same(envelopeProblems(limited, { status: 429, code: 'RATE_LIMITED' }), [])
      t.match(limited.headers['retry-after'], /^\d+$/)
    })

    await t.test('two credentials have separate budgets, even of one store and one address', async (t) => {
      const [k1, k2] = [await w.key(w.ids.storeId), await w.key(w.ids.storeId)]
      const address = '10.7.7.7'
      for (let i = 0; i < MAX; i++)
        t.equal((await app.inject({ method: 'GET', url: '/api/v1/store', remoteAddress: address }, k1)).statusCode, 200)
      t.equal(
        (await app.inject({ method: 'GET', url: '/api/v1/store', remoteAddress: address }, k1)).statusCode,
        429,
        'the first key is spent',
      )
      const other = await app.inject({ method: 'GET', url: '/api/v1/store', remoteAddress: address }, k2)
      t.equal(other.statusCode, 200, 'the second key still has its budget')
      t.equal(int(other.headers['x-ratelimit-remaining']), MAX - 1)
    })

    await t.test('the window resets', async (t) => {
      const short = await limitedApp(t, w, backend, 2, 1)
      const token = await w.key(w.ids.storeId)
      const get = () => short.inject({ method: 'GET', url: '/api/v1/store' }, token)
      t.equal((await get()).statusCode, 200)
      t.equal((await get()).statusCode, 200)
      const limited = await get()
      t.equal(limited.statusCode, 429)
      t.ok(
        int(limited.headers['retry-after']) <= 1,
        `Retry-After within the 1 s window (${limited.headers['retry-after']})`,
      )
      await sleep(1300)
      const again = await get()
      t.equal(again.statusCode, 200, 'a new window')
      t.equal(int(again.headers['x-ratelimit-remaining']), 1, 'with a fresh budget')
    })

    if (backend === 'redis') {
      await t.test('two instances share one budget per credential through Redis', async (t) => {
        const second = await limitedApp(t, w, 'redis', MAX, 60)
        const token = await w.key(w.ids.storeId)
        for (let i = 0; i < MAX; i++) {
          const via = i % 2 === 0 ? app : second
          t.equal((await via.inject({ method: 'GET', url: '/api/v1/store' }, token)).statusCode, 200)
        }
        t.equal(
          (await app.inject({ method: 'GET', url: '/api/v1/store' }, token)).statusCode,
          429,
          'spent across both instances',
        )
        t.equal((await second.inject({ method: 'GET', url: '/api/v1/store' }, token)).statusCode, 429)
      })
    }
  })
}

t.test('the defaults: 120 requests per 60 s', async (t) => {
  const { loadConfig } = await import('../../src/config.ts')
  t.same(loadConfig({}).rateLimit, { backend: 'memory', max: 120, windowSeconds: 60 })
})
