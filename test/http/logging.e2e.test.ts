import t from 'tap'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { buildApp, loggerOptions } from '../../src/http/app.ts'
import { bearer, testApp } from '../support/app.ts'

t.test('one structured log line per request: request id, credential id, outcome; never a secret', async (t) => {
  const { services, keyA } = await testApp(t, { plugins: false })
  const lines: Record<string, unknown>[] = []
  const sink = new Writable({ write(chunk, _enc, done) { for (const l of String(chunk).trim().split('\n')) lines.push(JSON.parse(l)); done() } })
  const logger = pino(loggerOptions('info'), sink)
  const app = await buildApp(services, { logger })
  t.teardown(() => app.close())
  await app.inject({ method: 'GET', url: '/api/v1/themes', headers: { ...bearer(keyA), 'x-request-id': 'req-log-1' } })
  await app.inject({ method: 'POST', url: '/api/v1/themes', headers: { ...bearer(keyA), 'x-request-id': 'req-log-2' }, payload: { name: '<b>x</b>', provider: 'claude' } })
  await app.inject({ method: 'GET', url: '/api/v1/themes', headers: { authorization: 'Bearer sk_live_notarealkeynotarealkeynotarealkey12345678', 'x-request-id': 'req-log-3' } })
  logger.info({ req: { headers: { authorization: `Bearer ${keyA}` } }, secret: 'hunter2' }, 'a handler logging carelessly')
  await new Promise((r) => setImmediate(r))
  const done = lines.filter((l) => l.msg === 'request completed')
  t.match(done[0], { requestId: 'req-log-1', statusCode: 200, operationId: 'listThemes', storeId: 'st_demo_atlas', credentialId: /^key_/ })
  t.match(done[1], { requestId: 'req-log-2', statusCode: 400, errorCode: 'UNSAFE_CONTENT', credentialId: /^key_/ })
  t.match(done[2], { requestId: 'req-log-3', statusCode: 401, errorCode: 'UNAUTHENTICATED' })
  const all = JSON.stringify(lines)
  t.notOk(all.includes(keyA), 'the API key never appears')
  t.notOk(all.includes('notarealkey'), 'nor a presented bad key')
  t.notOk(all.includes('hunter2'), 'secret-named fields are redacted')
})

t.test('the OAuth token endpoint exists, needs no bearer, and refuses clearly until OAuth ships', async (t) => {
  const { app } = await testApp(t, { plugins: false })
  const res = await app.inject({ method: 'POST', url: '/api/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=authorization_code&code=x&client_id=y' })
  t.equal(res.statusCode, 400)
  t.match(res.json(), { error: { code: 'UNSUPPORTED_GRANT_TYPE', requestId: /./ } })
  t.ok(res.headers['x-ratelimit-limit'])
  const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  t.ok(doc.paths['/api/oauth/token'].post, 'documented in OpenAPI')
  t.equal(doc.paths['/api/oauth/token'].post.operationId, 'oauthToken')
})
