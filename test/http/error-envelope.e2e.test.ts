import t from 'tap'
import { createApiKey, ensureApp, revokeApiKey } from '../../src/auth/credentials.ts'
import { SCOPES } from '../../src/auth/scopes.ts'
import { envelopeProblems, makeWorld, type Req } from './support/world.ts'

// Every non-2xx answer, whatever produced it (router, body parser, authentication, handler), is
// { error: { code, message, details?, requestId } } in JSON, and X-Request-Id is echoed (or
// generated when absent or unusable).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

t.test('framework-level errors keep the envelope', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const theme = `/api/v1/themes/${w.ids.draftId}`

  await t.test('unknown routes: 404 NOT_FOUND', async (t) => {
    for (const url of ['/api/v1/nothing', '/api/v1/themes/x/y/z', '/api/v2/themes', '/api/v1', '/nothing-here']) {
      const res = await w.call({ method: 'GET', url })
      t.same(envelopeProblems(res, { status: 404, code: 'NOT_FOUND' }), [], `GET ${url}`)
    }
  })

  await t.test('wrong method: 405 METHOD_NOT_ALLOWED with Allow', async (t) => {
    const cases: [string, string, string[]][] = [
      ['PUT', '/api/v1/themes', ['GET', 'POST']],
      ['DELETE', '/api/v1/products', ['GET']],
      ['POST', '/api/v1/store', ['GET']],
      ['GET', `${theme}/publish`, ['POST']],
      ['PUT', theme, ['GET', 'PATCH', 'DELETE']],
      ['PATCH', '/api/v1/media', ['GET', 'POST']],
    ]
    for (const [method, url, allowed] of cases) {
      const res = await w.call({ method, url, ...(method !== 'GET' && method !== 'DELETE' ? { payload: {} } : {}) })
      t.same(envelopeProblems(res, { status: 405, code: 'METHOD_NOT_ALLOWED' }), [], `${method} ${url}`)
      const allow = String(res.headers.allow ?? '').split(/,\s*/)
      for (const m of allowed) t.ok(allow.includes(m), `${method} ${url}: Allow lists ${m} (${res.headers.allow})`)
      t.notOk(allow.includes(method), `${method} ${url}: Allow does not list ${method}`)
    }
  })

  await t.test('malformed JSON: 400 VALIDATION_FAILED', async (t) => {
    for (const payload of ['{bad', '{"name": "x",}', '[', '"unterminated', '{"a":1}{"b":2}', 'nul']) {
      const res = await w.call({
        method: 'POST',
        url: '/api/v1/themes',
        payload,
        headers: { 'content-type': 'application/json' },
      })
      t.same(envelopeProblems(res, { status: 400, code: 'VALIDATION_FAILED' }), [], `body ${JSON.stringify(payload)}`)
    }
    const patch = await w.call({
      method: 'PATCH',
      url: theme,
      payload: '{"name":',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    t.same(envelopeProblems(patch, { status: 400, code: 'VALIDATION_FAILED' }), [], 'PATCH with a broken body')
  })

  await t.test('wrong content type: 415 UNSUPPORTED_MEDIA_TYPE', async (t) => {
    for (const type of [
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'text/html; charset=utf-8',
      'application/octet-stream',
      'multipart/form-data; boundary=x',
    ]) {
      const events = await w.eventCount()
      const payload = type.includes('urlencoded') ? 'name=Typed&provider=tap' : '{"name":"Typed","provider":"tap"}'
      const res = await w.call({ method: 'POST', url: '/api/v1/themes', payload, headers: { 'content-type': type } })
      t.same(envelopeProblems(res, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }), [], `Content-Type: ${type}`)
      t.equal(await w.eventCount(), events, `${type}: nothing applied`)
    }
    const patch = await w.call({
      method: 'PATCH',
      url: theme,
      payload: 'name=x',
      headers: { 'content-type': 'text/plain' },
    })
    t.same(envelopeProblems(patch, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }), [], 'PATCH text/plain')
  })

  await t.test('oversize body: 413 PAYLOAD_TOO_LARGE', async (t) => {
    const events = await w.eventCount()
    const big = JSON.stringify({ operations: [{ op: 'updateTokens', tokens: { font: 'x'.repeat(3 * 1024 * 1024) } }] })
    const res = await w.call({
      method: 'POST',
      url: `${theme}/batch`,
      payload: big,
      headers: { 'content-type': 'application/json' },
    })
    t.same(envelopeProblems(res, { status: 413, code: 'PAYLOAD_TOO_LARGE' }), [])
    t.equal(await w.eventCount(), events, 'nothing applied')
  })
})

t.test('credentials: 401 UNAUTHENTICATED with WWW-Authenticate', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const db = w.services.db
  const appId = await ensureApp(db, { storeId: w.ids.storeId, name: 'Envelope test' })
  const revoked = await createApiKey(db, { storeId: w.ids.storeId, appId, name: 'revoked', scopes: SCOPES })
  await revokeApiKey(db, revoked.keyId)
  const expired = await createApiKey(db, {
    storeId: w.ids.storeId,
    appId,
    name: 'expired',
    scopes: SCOPES,
    expiresAt: new Date(Date.now() - 1000),
  })
  const valid = await w.key(w.ids.storeId)
  const cases: [string, string | null][] = [
    ['missing', null],
    ['unknown API key', 'Bearer sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['revoked API key', `Bearer ${revoked.key}`],
    ['expired API key', `Bearer ${expired.key}`],
    ['not an API key', 'Bearer hello'],
    ['another scheme', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['the key without a scheme', valid],
    ['an empty bearer', 'Bearer '],
    ['two credentials', `Bearer ${valid} ${valid}`],
  ]
  for (const req of [
    { method: 'GET', url: '/api/v1/store' },
    { method: 'POST', url: '/api/v1/themes', payload: { name: 'No auth', provider: 'tap' } },
  ] as Req[]) {
    for (const [label, auth] of cases) {
      const events = await w.eventCount()
      const res = await w.call(req, { auth: auth === null ? null : auth })
      t.same(envelopeProblems(res, { status: 401, code: 'UNAUTHENTICATED' }), [], `${req.method} ${req.url}, ${label}`)
      t.match(res.headers['www-authenticate'], /^Bearer( |$)/, `${label}: WWW-Authenticate: Bearer ...`)
      if (auth !== null)
        t.match(res.headers['www-authenticate'], /error="invalid_token"/, `${label}: error="invalid_token"`)
      t.notMatch(res.body, /sk_live_/, `${label}: the credential is not echoed`)
      t.equal(await w.eventCount(), events, `${label}: nothing applied`)
    }
  }
  t.equal(
    (await w.call({ method: 'GET', url: '/api/v1/store' }, { auth: `bearer ${valid}` })).statusCode,
    200,
    'the scheme is case-insensitive',
  )
})

t.test('X-Request-Id is echoed, or generated when absent or unusable', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const requests: [string, Req, number][] = [
    ['success', { method: 'GET', url: '/api/v1/store' }, 200],
    ['404 route', { method: 'GET', url: '/api/v1/nothing' }, 404],
    ['400', { method: 'GET', url: '/api/v1/products?limit=0' }, 400],
    ['405', { method: 'PUT', url: '/api/v1/store', payload: {} }, 405],
  ]
  for (const [label, req, status] of requests) {
    const given = `req-${label.replace(/\W/g, '')}-0123`
    const echoed = await w.call({ ...req, headers: { 'x-request-id': given } })
    t.equal(echoed.statusCode, status)
    t.equal(echoed.headers['x-request-id'], given, `${label}: echoed`)
    if (status >= 400) t.equal(echoed.json().error.requestId, given, `${label}: error.requestId is the given id`)
    const generated = await w.call(req)
    t.match(generated.headers['x-request-id'], UUID, `${label}: generated when absent`)
    if (status >= 400) t.equal(generated.json().error.requestId, generated.headers['x-request-id'])
    for (const unusable of ['x'.repeat(201), 'has spaces in it', 'ünïcode']) {
      const res = await w.call({ ...req, headers: { 'x-request-id': unusable } })
      t.match(res.headers['x-request-id'], UUID, `${label}: an unusable id (${unusable.slice(0, 12)}…) is replaced`)
    }
  }
  const unauth = await w.call(
    { method: 'GET', url: '/api/v1/store', headers: { 'x-request-id': 'unauth-1234' } },
    { auth: null },
  )
  t.equal(unauth.json().error.requestId, 'unauth-1234', '401: error.requestId is the given id')
  const a = await w.call({ method: 'GET', url: '/api/v1/store' })
  const b = await w.call({ method: 'GET', url: '/api/v1/store' })
  t.not(a.headers['x-request-id'], b.headers['x-request-id'], 'generated ids differ')
})
