import t from 'tap'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { buildApp, loggerOptions } from '../../src/http/app.ts'
import { bearer, testApp } from '../support/app.ts'

t.test('one structured log line per request: request id, credential id, outcome; never a secret', async (t) => {
  const { services, keyA } = await testApp(t, { plugins: false })
  const lines: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).trim().split('\n')) lines.push(JSON.parse(l))
      done()
    },
  })
  const logger = pino(loggerOptions('info'), sink)
  const app = await buildApp(services, { logger })
  t.teardown(() => app.close())
  await app.inject({ method: 'GET', url: '/api/v1/themes', headers: { ...bearer(keyA), 'x-request-id': 'req-log-1' } })
  await app.inject({
    method: 'POST',
    url: '/api/v1/themes',
    headers: { ...bearer(keyA), 'x-request-id': 'req-log-2' },
    payload: { name: '<b>x</b>', provider: 'claude' },
  })
  await app.inject({
    method: 'GET',
    url: '/api/v1/themes',
    headers: { authorization: 'Bearer sk_live_notarealkeynotarealkeynotarealkey12345678', 'x-request-id': 'req-log-3' },
  })
  logger.info(
    { req: { headers: { authorization: `Bearer ${keyA}` } }, secret: 'hunter2' },
    'a handler logging carelessly',
  )
  await new Promise((r) => setImmediate(r))
  const done = lines.filter((l) => l.msg === 'request completed')
  t.match(done[0], {
    requestId: 'req-log-1',
    statusCode: 200,
    operationId: 'listThemes',
    storeId: 'st_demo_atlas',
    credentialId: /^key_/,
  })
  t.match(done[1], { requestId: 'req-log-2', statusCode: 400, errorCode: 'UNSAFE_CONTENT', credentialId: /^key_/ })
  t.match(done[2], { requestId: 'req-log-3', statusCode: 401, errorCode: 'UNAUTHENTICATED' })
  const all = JSON.stringify(lines)
  t.notOk(all.includes(keyA), 'the API key never appears')
  t.notOk(all.includes('notarealkey'), 'nor a presented bad key')
  t.notOk(all.includes('hunter2'), 'secret-named fields are redacted')
})

t.test('the OAuth token endpoint needs no bearer, answers in RFC 6749 form, and is documented', async (t) => {
  const { app } = await testApp(t)
  const res = await app.inject({
    method: 'POST',
    url: '/api/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'req-oauth-1' },
    payload: 'grant_type=authorization_code&code=x&client_id=y',
  })
  t.equal(res.statusCode, 401)
  t.same(res.json(), { error: 'invalid_client', error_description: 'no client is registered with this client_id' })
  t.match(res.headers['www-authenticate'], /^Basic /)
  t.equal(res.headers['x-request-id'], 'req-oauth-1')
  t.ok(res.headers['x-ratelimit-limit'])
  const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  t.ok(doc.paths['/api/oauth/token'].post, 'documented in OpenAPI')
  t.equal(doc.paths['/api/oauth/token'].post.operationId, 'oauthToken')
})
