import t from 'tap'
import { testApp } from '../support/app.ts'
import { authorized, registeredClient, token } from './support.ts'

// Issue 33 points 10 and 11 (decision 0112): the token endpoint lists and checks Idempotency-Key
// but never replays a response, since that would mean keeping tokens in clear; its OpenAPI
// success responses, like the MCP endpoint's, document X-Request-Id and X-RateLimit-*.

t.test('Idempotency-Key on the token endpoint: checked, never replayed, no token stored in clear', async (t) => {
  const app = await testApp(t)
  const client = await registeredClient(app)
  const grant = await authorized(app, client)
  const fields = {
    grant_type: 'authorization_code',
    code: grant.code,
    redirect_uri: client.redirectUri,
    code_verifier: grant.verifier,
    client_id: client.clientId,
  }
  for (const bad of ['short', 'x'.repeat(257), 'caf\u00e9-key-123']) {
    const res = await token(app, fields, { 'idempotency-key': bad })
    t.equal(res.statusCode, 400, `${JSON.stringify(bad.slice(0, 12))}: 400`)
    t.equal(res.json().error, 'invalid_request')
    t.match(res.json().error_description, /Idempotency-Key/)
  }
  const key = { 'idempotency-key': 'exchange-0001' }
  const first = await token(app, fields, key)
  t.equal(first.statusCode, 200, 'a valid key: the exchange runs')
  t.notOk(first.headers['idempotent-replayed'])
  const again = await token(app, fields, key)
  t.equal(again.statusCode, 400, 'the same request with the same key is not replayed')
  t.equal(again.json().error, 'invalid_grant', 'a code is single-use')
  t.notOk(again.body.includes(first.json().access_token), 'no token handed out twice')

  // The refresh grace is what a retried refresh gets: a valid new pair within 60 s. (The code
  // used twice above revoked its tokens, so a second grant.)
  const tokens = first.json() as { refresh_token: string; access_token: string }
  const second = await authorized(app, client)
  const fresh = await token(app, { ...fields, code: second.code, code_verifier: second.verifier })
  const refreshFields = {
    grant_type: 'refresh_token',
    refresh_token: fresh.json().refresh_token,
    client_id: client.clientId,
  }
  const r1 = await token(app, refreshFields, { 'idempotency-key': 'refresh-0001' })
  const r2 = await token(app, refreshFields, { 'idempotency-key': 'refresh-0001' })
  t.equal(r1.statusCode, 200)
  t.equal(r2.statusCode, 200, 'a retried refresh within the grace window gets a pair')
  t.not(r2.json().access_token, r1.json().access_token, 'a new pair, not a stored one')

  const stored = JSON.stringify(await app.services.db.selectFrom('oauth_tokens').selectAll().execute())
  for (const secret of [tokens.access_token, tokens.refresh_token, r1.json().access_token, r2.json().refresh_token])
    t.notOk(stored.includes(secret), 'tokens are stored only as hashes')
  const idempotency = await app.services.db.selectFrom('idempotency_keys').selectAll().execute()
  t.notOk(JSON.stringify(idempotency).includes('sfat_'), 'and no token response kept for replay')
})

t.test('OpenAPI: MCP and OAuth success responses carry X-Request-Id and X-RateLimit-*', async (t) => {
  const app = await testApp(t)
  const doc = (await app.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  t.equal(doc.info['x-response-contract'], 'v1.1', 'the response contract is labelled v1.1')
  for (const [path, method, status] of [
    ['/api/v1/mcp', 'post', '200'],
    ['/api/v1/mcp', 'get', '200'],
    ['/api/oauth/token', 'post', '200'],
    ['/api/oauth/revoke', 'post', '200'],
    ['/api/oauth/register', 'post', '201'],
  ] as const) {
    const headers = Object.keys(doc.paths[path][method].responses[status].headers ?? {})
    for (const h of ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
      t.ok(headers.includes(h), `${method.toUpperCase()} ${path} ${status}: ${h}`)
  }
  const tokenParams = doc.paths['/api/oauth/token'].post.parameters as { name?: string }[]
  t.ok(
    tokenParams.some((p) => p.name === 'Idempotency-Key'),
    'the token endpoint lists Idempotency-Key',
  )
})
