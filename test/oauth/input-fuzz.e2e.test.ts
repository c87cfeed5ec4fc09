import t, { type Test } from 'tap'
import { testApp, type TestApp } from '../support/app.ts'
import { authorized, pkce, registeredClient } from './support.ts'

// The OAuth endpoints (register, authorize, token, revoke) under a fuzz of their inputs: every
// answer is a 4xx in the endpoint's own form (RFC 6749 / 7591 JSON, or a page or an error
// redirect on /oauth/authorize), never a 5xx. Deterministic: a seeded generator, so a failure
// names a case that can be replayed.

function generator(seed: number) {
  let s = seed >>> 0
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0
    let x = s
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!
  return { next, pick }
}

// Text a hostile client sends: controls, NUL, lone surrogates, huge, odd Unicode, injection-ish.
const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '💥'.repeat(50),
  'x'.repeat(5000),
  '\u202e\u2028\u2029',
  '%00',
  '%ff%fe',
  "'; drop table oauth_clients; --",
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  'https://client.example/callback',
  'http://127.0.0.1:1/cb',
  'https://169.254.169.254/latest/meta-data',
  'sfc_doesnotexist',
  `sfrt_${'A'.repeat(43)}`,
  `sfat_${'A'.repeat(43)}`,
  'authorization_code',
  'refresh_token',
  'S256',
  'code',
  'store:read themes:publish',
  '-1',
  '1e309',
  'null',
  '\r\nSet-Cookie: x=1',
] as const

const JSON_VALUES = [...NASTY, 0, -1, 1.5, true, false, null, [], {}, [null], ['\u0000'], { a: '\ud800' }] as const

const REGISTER_FIELDS = [
  'redirect_uris',
  'client_name',
  'token_endpoint_auth_method',
  'grant_types',
  'response_types',
  'scope',
  'logo_uri',
  '\u0000',
  '__proto__',
  'constructor',
] as const
const AUTHORIZE_FIELDS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const
const TOKEN_FIELDS = [
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'client_id',
  'client_secret',
  'refresh_token',
  'scope',
  'resource',
  'token',
  'token_type_hint',
] as const

const OAUTH_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'unsupported_token_type',
  'access_denied',
  'temporarily_unavailable',
])

const CASES = 150

function checkOAuthBody(t: Test, name: string, res: { statusCode: number; body: string }) {
  if (res.statusCode >= 500) return t.fail(`${name}: ${res.statusCode} ${res.body.slice(0, 300)}`)
  if (res.statusCode < 400) return
  let body: { error?: unknown; error_description?: unknown }
  try {
    body = JSON.parse(res.body)
  } catch {
    return t.fail(`${name}: ${res.statusCode} is not JSON: ${res.body.slice(0, 200)}`)
  }
  if (!OAUTH_ERRORS.has(String(body.error)) || typeof body.error_description !== 'string')
    t.fail(`${name}: not an RFC 6749 error body: ${res.body.slice(0, 200)}`)
}

// Percent-encoding of the UTF-8 bytes (a lone surrogate goes as U+FFFD's, as a browser sends it).
const encode = (value: string) => [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')
// One form value, sometimes raw (so "%00" and "%ff%fe", invalid UTF-8, arrive as they are).
const formPair = (key: string, value: string, raw: boolean) => `${encode(key)}=${raw ? value : encode(value)}`

t.test('no 5xx and RFC 6749/7591 error bodies under a fuzz of the OAuth endpoints', async (t) => {
  const app: TestApp = await testApp(t, { env: { OAUTH_REGISTRATIONS_PER_HOUR: '100000' } })
  const client = await registeredClient(app, { redirectUri: 'https://client.example/callback' })
  const confidential = await registeredClient(app, { confidential: true, redirectUri: 'https://agent.example/cb' })
  const grant = await authorized(app, client)
  const { challenge } = pkce()
  const real: Record<string, string> = {
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code: grant.code,
    code_verifier: grant.verifier,
    code_challenge: challenge,
  }
  const { next, pick } = generator(33)
  let cases = 0

  for (let i = 0; i < CASES; i++) {
    // register: JSON objects with odd fields and values, or a body that is not an object at all.
    const body: Record<string, unknown> = { redirect_uris: ['https://client.example/cb'] }
    for (let f = 0; f < 1 + Math.floor(next() * 4); f++)
      body[pick(REGISTER_FIELDS)] = next() < 0.3 ? [pick(JSON_VALUES), pick(JSON_VALUES)] : pick(JSON_VALUES)
    const payload = next() < 0.1 ? JSON.stringify(pick(JSON_VALUES)) : JSON.stringify(body)
    const reg = await app.app.inject({
      method: 'POST',
      url: '/api/oauth/register',
      headers: { 'content-type': pick(['application/json', 'application/json; charset=utf-8', 'text/plain']) },
      payload,
    })
    checkOAuthBody(t, `register #${i} ${payload.slice(0, 120)}`, reg)

    // token and revoke: form fields, real values mixed with hostile ones, Basic credentials.
    for (const url of ['/api/oauth/token', '/api/oauth/revoke']) {
      const pairs: string[] = []
      for (let f = 0; f < 1 + Math.floor(next() * 6); f++) {
        const key = pick(TOKEN_FIELDS)
        const value = next() < 0.3 && real[key] ? real[key]! : pick(NASTY)
        pairs.push(formPair(key, value, next() < 0.2))
      }
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
      if (next() < 0.3)
        headers.authorization = `Basic ${Buffer.from(`${pick([confidential.clientId, ...NASTY])}:${pick(NASTY)}`).toString('base64')}`
      const res = await app.app.inject({ method: 'POST', url, headers, payload: pairs.join('&') })
      checkOAuthBody(t, `${url} #${i} ${pairs.join('&').slice(0, 160)}`, res)
    }

    // authorize: a page (400/403) or an error redirect; never a 5xx.
    const query: string[] = []
    for (const key of AUTHORIZE_FIELDS)
      if (next() < 0.7) query.push(formPair(key, next() < 0.5 && real[key] ? real[key]! : pick(NASTY), next() < 0.2))
    const res = await app.app.inject({ method: 'GET', url: `/oauth/authorize?${query.join('&')}` })
    if (res.statusCode >= 500) t.fail(`authorize #${i} ${query.join('&').slice(0, 200)}: ${res.statusCode}`)
    cases += 4
  }
  t.pass(`${cases} fuzzed requests, no 5xx`)
})

t.test('client_name with a NUL or a lone surrogate is 400 invalid_client_metadata; a huge body is 413', async (t) => {
  const app = await testApp(t)
  for (const [name, clientName] of [
    ['NUL', 'Agent\u0000'],
    ['lone high surrogate', 'Agent \ud800'],
    ['lone low surrogate', '\udc00 Agent'],
  ] as const) {
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/oauth/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ client_name: clientName, redirect_uris: ['https://client.example/cb'] }),
    })
    t.equal(res.statusCode, 400, `${name}: 400`)
    t.equal(res.json().error, 'invalid_client_metadata', `${name}: invalid_client_metadata`)
    t.match(res.json().error_description, /client_name/)
  }
  const huge = await app.app.inject({
    method: 'POST',
    url: '/api/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ client_name: 'x'.repeat(2.5 * 1024 * 1024), redirect_uris: ['https://c.example/cb'] }),
  })
  t.equal(huge.statusCode, 413, 'a 2.5 MiB registration is 413')
  t.equal(huge.json().error, 'invalid_request')
  t.match(huge.json().error_description, /too large/)
  const hugeForm = await app.app.inject({
    method: 'POST',
    url: '/api/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `grant_type=authorization_code&code=${'x'.repeat(100 * 1024)}`,
  })
  t.equal(hugeForm.statusCode, 413, 'a 100 KiB token request is 413')
  t.equal(hugeForm.json().error, 'invalid_request')
  const clients = await app.services.db.selectFrom('oauth_clients').select('client_id').execute()
  t.equal(clients.length, 0, 'nothing was registered')
})
