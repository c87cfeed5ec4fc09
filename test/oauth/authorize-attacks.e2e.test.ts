import t from 'tap'
import { sql } from 'kysely'
import { testApp, type TestApp } from '../support/app.ts'
import { dashboardApp, pkce, registeredClient } from './support.ts'

const state = 'state-12345678'
const authorize = (app: TestApp, params: Record<string, string | undefined>) => {
  const query = new URLSearchParams(
    Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString()
  return app.app.inject({ method: 'GET', url: `/oauth/authorize?${query}` })
}
const snapshot = async (app: TestApp) =>
  (
    await sql<{
      n: string
    }>`select concat_ws('/', (select count(*) from oauth_codes), (select count(*) from oauth_grants), (select count(*) from oauth_tokens), (select count(*) from events), (select count(*) from oauth_clients)) as n`.execute(
      app.services.db,
    )
  ).rows[0]!.n

t.test(
  'authorization requests that must be refused: a page for client and redirect problems, an error redirect for the rest',
  async (t) => {
    const app = await testApp(t)
    // A dashboard app: its errors are redirected even before sign-in (self-registered clients' are
    // shown on a page: test/oauth/pre-sign-in-errors.e2e.test.ts).
    const web = await dashboardApp(app, { redirectUri: 'https://client.example/callback' })
    const loopback = await registeredClient(app, { redirectUri: 'http://127.0.0.1:8765/callback' })
    const { challenge } = pkce()
    const valid = {
      response_type: 'code',
      client_id: web.clientId,
      redirect_uri: web.redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }
    const before = await snapshot(app)
    let refused = 0

    // Never redirected: the client is unknown or the address is not exactly one it registered.
    const pageCases: [string, Record<string, string | undefined>][] = [
      ['unknown client', { ...valid, client_id: 'sfc_doesnotexist' }],
      ['missing client_id', { ...valid, client_id: undefined }],
      ['missing redirect_uri', { ...valid, redirect_uri: undefined }],
      ['trailing slash', { ...valid, redirect_uri: 'https://client.example/callback/' }],
      ['extra query', { ...valid, redirect_uri: 'https://client.example/callback?next=x' }],
      ['other path', { ...valid, redirect_uri: 'https://client.example/other' }],
      ['other scheme', { ...valid, redirect_uri: 'http://client.example/callback' }],
      ['upper-case host', { ...valid, redirect_uri: 'https://CLIENT.example/callback' }],
      ['userinfo', { ...valid, redirect_uri: 'https://user@client.example/callback' }],
      ['fragment', { ...valid, redirect_uri: 'https://client.example/callback#frag' }],
      ['other loopback path', { ...valid, client_id: loopback.clientId, redirect_uri: 'http://127.0.0.1:9999/other' }],
      [
        'non-loopback http',
        { ...valid, client_id: loopback.clientId, redirect_uri: 'http://evil.example:8765/callback' },
      ],
      [
        'loopback look-alike host',
        { ...valid, client_id: loopback.clientId, redirect_uri: 'http://127.0.0.1.evil.example:8765/callback' },
      ],
      ["another client's redirect", { ...valid, client_id: loopback.clientId, redirect_uri: web.redirectUri }],
    ]
    for (const [name, params] of pageCases) {
      const res = await authorize(app, params)
      t.equal(res.statusCode, 400, `${name}: 400`)
      t.notOk(res.headers.location, `${name}: no redirect`)
      t.match(res.headers['content-type'], /text\/html/, `${name}: an HTML page`)
      t.match(res.headers['content-security-policy'], /default-src 'none'/)
      refused++
    }

    // Sent back to the client, with state (when there is one) and iss.
    const redirectCases: [string, Record<string, string | undefined>, string][] = [
      ['PKCE missing', { ...valid, code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      ['PKCE plain', { ...valid, code_challenge_method: 'plain' }, 'invalid_request'],
      ['PKCE method missing', { ...valid, code_challenge_method: undefined }, 'invalid_request'],
      ['malformed challenge', { ...valid, code_challenge: 'short' }, 'invalid_request'],
      ['state missing', { ...valid, state: undefined }, 'invalid_request'],
      ['state short', { ...valid, state: 'abc1234' }, 'invalid_request'],
      ['implicit flow', { ...valid, response_type: 'token' }, 'unsupported_response_type'],
      ['unknown scope', { ...valid, scope: 'store:read admin' }, 'invalid_scope'],
      ['foreign resource', { ...valid, resource: 'https://other.example/api/v1/mcp' }, 'invalid_target'],
    ]
    for (const [name, params, error] of redirectCases) {
      const res = await authorize(app, params)
      t.equal(res.statusCode, 302, `${name}: redirected to the client`)
      const location = new URL(res.headers.location as string)
      t.equal(`${location.origin}${location.pathname}`, web.redirectUri)
      t.equal(location.searchParams.get('error'), error, `${name}: ${error}`)
      t.ok(location.searchParams.get('error_description'))
      t.equal(location.searchParams.get('iss'), app.baseUrl, `${name}: iss (RFC 9207)`)
      t.equal(location.searchParams.get('state'), params.state ?? null, `${name}: state echoed`)
      t.equal(location.searchParams.get('code'), null, `${name}: no code`)
      refused++
    }
    t.equal(await snapshot(app), before, 'nothing changed')
    t.comment(`authorization requests refused: ${refused}`)

    // Valid, but nobody is signed in: the sign-in page first, coming back here afterwards.
    const res = await authorize(app, valid)
    t.equal(res.statusCode, 303)
    const login = new URL(res.headers.location as string, app.baseUrl)
    t.equal(login.pathname, '/dashboard/login')
    t.match(login.searchParams.get('next'), /^\/oauth\/authorize\?/)

    // The loopback redirect URI matches on any port (RFC 8252 §7.3).
    const anyPort = await authorize(app, {
      ...valid,
      client_id: loopback.clientId,
      redirect_uri: 'http://127.0.0.1:49152/callback',
    })
    t.equal(anyPort.statusCode, 303, 'another port on loopback is accepted')
  },
)

t.test(
  'the authorization server metadata (RFC 8414) and the protected-resource metadata name each other',
  async (t) => {
    const app = await testApp(t)
    const res = await app.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })
    t.equal(res.statusCode, 200)
    const m = res.json()
    t.match(m, {
      issuer: app.baseUrl,
      authorization_endpoint: `${app.baseUrl}/oauth/authorize`,
      token_endpoint: `${app.baseUrl}/api/oauth/token`,
      registration_endpoint: `${app.baseUrl}/api/oauth/register`,
      revocation_endpoint: `${app.baseUrl}/api/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    })
    t.ok(m.scopes_supported.includes('themes:publish'))
    const prm = (
      await app.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/api/v1/mcp' })
    ).json()
    t.same(prm.authorization_servers, [m.issuer])

    const off = await testApp(t, { env: { OAUTH_DYNAMIC_REGISTRATION: 'off' } })
    const offMeta = (await off.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json()
    t.notOk('registration_endpoint' in offMeta, 'no registration endpoint when registration is off')
    const refused = await off.app.inject({
      method: 'POST',
      url: '/api/oauth/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ redirect_uris: ['https://client.example/cb'] }),
    })
    t.equal(refused.statusCode, 403)
    t.equal(refused.json().error, 'access_denied')
  },
)

t.test(
  'dynamic client registration: public and confidential clients, bad redirect URIs refused, rate-limited per address',
  async (t) => {
    const app = await testApp(t, { env: { OAUTH_REGISTRATIONS_PER_HOUR: '4' } })
    const register = (body: unknown) =>
      app.app.inject({
        method: 'POST',
        url: '/api/oauth/register',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      })
    const pub = await register({
      client_name: 'ChatGPT',
      redirect_uris: ['https://chatgpt.com/connector_platform_oauth_redirect'],
      token_endpoint_auth_method: 'none',
      scope: 'themes:publish orders:read',
    })
    t.equal(pub.statusCode, 201)
    t.match(pub.json(), {
      client_id: /^sfc_/,
      client_name: 'ChatGPT',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['https://chatgpt.com/connector_platform_oauth_redirect'],
    })
    t.notOk(pub.json().client_secret, 'a public client gets no secret')
    t.notOk('scope' in pub.json(), 'registration grants no scope')
    t.equal(pub.headers['cache-control'], 'no-store')
    const conf = await register({
      client_name: 'Server agent',
      redirect_uris: ['https://agent.example/cb'],
      token_endpoint_auth_method: 'client_secret_post',
    })
    t.match(conf.json(), { client_secret: /^sfcs_[0-9A-Za-z]{43}$/, client_secret_expires_at: 0 })
    const row = await app.services.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('client_id', '=', conf.json().client_id)
      .executeTakeFirstOrThrow()
    t.not(row.client_secret_hash, conf.json().client_secret, 'the secret is stored hashed')
    t.notOk(JSON.stringify(row).includes(conf.json().client_secret))

    // Cursor's three callbacks: the private-use one that is not in reverse-domain form is left out.
    const cursor = await register({
      client_name: 'Cursor',
      redirect_uris: [
        'cursor://anysphere.cursor-mcp/oauth/callback',
        'https://www.cursor.com/agents/mcp/oauth/callback',
        'http://localhost:8787/callback',
      ],
      token_endpoint_auth_method: 'none',
    })
    t.equal(cursor.statusCode, 201)
    t.same(
      cursor.json().redirect_uris,
      ['https://www.cursor.com/agents/mcp/oauth/callback', 'http://localhost:8787/callback'],
      'the registration lists what was kept',
    )

    const before = await snapshot(app)
    const bad: [string, unknown, string][] = [
      [
        'javascript: next to a good one',
        { redirect_uris: ['https://client.example/cb', 'javascript:alert(1)//'] },
        'invalid_redirect_uri',
      ],
      ['javascript: redirect', { redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      ['data: redirect', { redirect_uris: ['data:text/html,x'] }, 'invalid_redirect_uri'],
      ['private-IP http redirect', { redirect_uris: ['http://10.0.0.7/callback'] }, 'invalid_redirect_uri'],
      ['private-IP https redirect', { redirect_uris: ['https://192.168.1.20/callback'] }, 'invalid_redirect_uri'],
      ['link-local redirect', { redirect_uris: ['https://169.254.169.254/latest'] }, 'invalid_redirect_uri'],
      ['fragment', { redirect_uris: ['https://client.example/cb#x'] }, 'invalid_redirect_uri'],
      ['no redirect URIs', { redirect_uris: [] }, 'invalid_redirect_uri'],
      [
        'implicit grant',
        { redirect_uris: ['https://client.example/cb'], grant_types: ['implicit'] },
        'invalid_client_metadata',
      ],
      [
        'unknown auth method',
        { redirect_uris: ['https://client.example/cb'], token_endpoint_auth_method: 'private_key_jwt' },
        'invalid_client_metadata',
      ],
    ]
    for (const [name, body, error] of bad) {
      const res = await register(body)
      t.equal(res.statusCode, 400, `${name}: 400`)
      t.equal(res.json().error, error, `${name}: ${error}`)
    }
    t.equal(await snapshot(app), before, 'nothing registered')
    t.comment(`registrations refused: ${bad.length}`)
    t.equal(
      (await register({ redirect_uris: ['https://client.example/cb'] })).statusCode,
      201,
      'the fourth registration of the hour',
    )
    const limited = await register({ redirect_uris: ['https://client.example/cb'] })
    t.equal(limited.statusCode, 429, 'the fifth registration from one address within the hour is refused')
    t.equal(limited.json().error, 'temporarily_unavailable')
    t.ok(limited.headers['retry-after'])
  },
)
