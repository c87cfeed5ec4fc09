import t from 'tap'
import { sessionCookieName, startSession } from '../../src/auth/merchant-session.ts'
import { STORE_A, testApp, type TestApp } from '../support/app.ts'
import { readConsentForm, submission } from './consent-form.ts'
import { dashboardApp, pkce } from './support.ts'

// Issue 33 points 5 and 6: a self-registered client cannot use the authorization endpoint as an
// open redirect before anyone signs in (RFC 9700 §4.11.2), and a public client approved once is
// asked again every time (RFC 8252 §8.6): anyone can present its client id.

const { challenge } = pkce()
const authorizeUrl = (params: Record<string, string>) =>
  `/oauth/authorize?${new URLSearchParams({ response_type: 'code', state: 'state-12345678', code_challenge: challenge, code_challenge_method: 'S256', ...params })}`

async function ownerCookie(app: TestApp) {
  const { merchant_id } = await app.services.db
    .selectFrom('stores')
    .select('merchant_id')
    .where('store_id', '=', STORE_A)
    .executeTakeFirstOrThrow()
  const { token } = await startSession(
    { db: app.services.db, baseUrl: app.baseUrl, clock: app.services.clock },
    { merchantId: merchant_id, storeId: STORE_A },
  )
  return `${sessionCookieName(app.baseUrl)}=${token}`
}

async function register(app: TestApp, redirectUri: string, method = 'none') {
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      client_name: 'Helpful agent',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: method,
    }),
  })
  return res.json() as { client_id: string; client_secret?: string }
}

t.test('a self-registered client: errors before sign-in are a page with a link, never a redirect', async (t) => {
  const app = await testApp(t)
  const phish = 'https://phish.evil.example/login'
  const { client_id } = await register(app, phish)
  for (const [name, params] of [
    ['implicit flow', { response_type: 'token' }],
    ['no PKCE', { code_challenge_method: 'plain' }],
    ['unknown scope', { scope: 'admin' }],
    ['foreign resource', { resource: 'https://other.example/' }],
  ] as const) {
    const res = await app.app.inject({
      method: 'GET',
      url: authorizeUrl({ client_id, redirect_uri: phish, ...params }),
    })
    t.equal(res.statusCode, 400, `${name}: a page`)
    t.notOk(res.headers.location, `${name}: no automatic redirect`)
    t.match(res.headers['content-type'], /text\/html/)
    const link = /<a href="([^"]+)"/.exec(res.body)?.[1]?.replace(/&amp;/g, '&')
    t.ok(link, `${name}: a link back to the client`)
    const back = new URL(link!)
    t.equal(`${back.origin}${back.pathname}`, phish)
    t.ok(back.searchParams.get('error'), `${name}: the link carries the error`)
    t.match(res.body, /phish\.evil\.example/, `${name}: the page names where the link goes`)
  }

  // Signed in, the merchant has authenticated: errors go back to the client as RFC 6749 says.
  const cookie = await ownerCookie(app)
  const signedIn = await app.app.inject({
    method: 'GET',
    url: authorizeUrl({ client_id, redirect_uri: phish, response_type: 'token' }),
    headers: { cookie },
  })
  t.equal(signedIn.statusCode, 302, 'signed in: redirected with the error')
  t.match(signedIn.headers.location, /^https:\/\/phish\.evil\.example\/login\?error=unsupported_response_type/)

  // An app the merchant created in the dashboard is trusted with its redirect URIs.
  const own = await dashboardApp(app, { redirectUri: 'https://own-app.example/cb' })
  const dashboard = await app.app.inject({
    method: 'GET',
    url: authorizeUrl({ client_id: own.clientId, redirect_uri: own.redirectUri, response_type: 'token' }),
  })
  t.equal(dashboard.statusCode, 302, 'a dashboard app: redirected even before sign-in')
})

t.test('a public loopback client is asked for consent every time; a confidential one is not', async (t) => {
  const app = await testApp(t)
  const cookie = await ownerCookie(app)
  const approve = async (clientId: string, redirectUri: string) => {
    const page = await app.app.inject({
      method: 'GET',
      url: authorizeUrl({ client_id: clientId, redirect_uri: redirectUri, scope: 'store:read themes:read' }),
      headers: { cookie },
    })
    t.equal(page.statusCode, 200, 'the consent page')
    const allowed = await app.app.inject({
      method: 'POST',
      url: '/oauth/authorize',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: submission(readConsentForm(page.body), 'allow'),
    })
    t.equal(allowed.statusCode, 303)
    t.ok(new URL(allowed.headers.location as string).searchParams.get('code'), 'a code after consent')
  }

  const pub = await register(app, 'http://127.0.0.1:8765/callback')
  await approve(pub.client_id, 'http://127.0.0.1:8765/callback')
  // Another local program, its own port, the same client id: it must not get a code silently.
  const again = await app.app.inject({
    method: 'GET',
    url: authorizeUrl({
      client_id: pub.client_id,
      redirect_uri: 'http://127.0.0.1:40123/callback',
      scope: 'store:read',
    }),
    headers: { cookie },
  })
  t.equal(again.statusCode, 200, 'the consent page again, not a code')
  t.notOk(again.headers.location, 'no redirect with a code')
  t.match(again.body, /Allow/)

  // A confidential client must prove itself at the token endpoint: the earlier grant is enough.
  const conf = await register(app, 'https://agent.example/cb', 'client_secret_basic')
  await approve(conf.client_id, 'https://agent.example/cb')
  const silent = await app.app.inject({
    method: 'GET',
    url: authorizeUrl({ client_id: conf.client_id, redirect_uri: 'https://agent.example/cb', scope: 'store:read' }),
    headers: { cookie },
  })
  t.equal(silent.statusCode, 302, 'confidential client with a live grant: no second consent')
  t.ok(new URL(silent.headers.location as string).searchParams.get('code'))
})
