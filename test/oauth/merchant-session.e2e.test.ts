import t from 'tap'
import { sessionCookieName, startSession } from '../../src/auth/merchant-session.ts'
import { STORE_A, testApp } from '../support/app.ts'
import { readConsentForm, submission } from './consent-form.ts'
import { pkce, registeredClient } from './support.ts'

t.test(
  'the authorization page with the real merchant session: consent, CSRF bound to the session, code back to the client',
  async (t) => {
    const app = await testApp(t)
    const client = await registeredClient(app)
    const merchantId = (
      await app.services.db
        .selectFrom('stores')
        .select('merchant_id')
        .where('store_id', '=', STORE_A)
        .executeTakeFirstOrThrow()
    ).merchant_id
    const { token } = await startSession(
      { db: app.services.db, baseUrl: app.baseUrl, clock: app.services.clock },
      { merchantId, storeId: STORE_A },
    )
    const cookie = `${sessionCookieName(app.baseUrl)}=${token}`
    const { challenge } = pkce()
    const url = `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri, state: 'state-12345678', code_challenge: challenge, code_challenge_method: 'S256', scope: 'store:read themes:read' })}`
    const signedOut = await app.app.inject({ method: 'GET', url })
    t.equal(signedOut.statusCode, 303)
    t.match(signedOut.headers.location, /^\/dashboard\/login/)
    const page = await app.app.inject({ method: 'GET', url, headers: { cookie } })
    t.equal(page.statusCode, 200)
    const form = readConsentForm(page.body)
    const post = (body: string, headers: Record<string, string> = { cookie }) =>
      app.app.inject({
        method: 'POST',
        url: '/oauth/authorize',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      })
    t.equal(
      (await post(submission({ ...form, hidden: { ...form.hidden, _csrf: 'forged' } }, 'allow'))).statusCode,
      403,
      'a forged CSRF token is refused',
    )
    t.equal((await post(submission(form, 'allow'), {})).statusCode, 401, 'without the session cookie it is refused')
    t.equal(
      await app.services.db
        .selectFrom('oauth_grants')
        .select('grant_id')
        .execute()
        .then((r) => r.length),
      0,
      'nothing granted by the refused posts',
    )
    const allowed = await post(submission(form, 'allow'))
    t.equal(allowed.statusCode, 303)
    const back = new URL(allowed.headers.location as string)
    t.equal(`${back.origin}${back.pathname}`, client.redirectUri)
    t.ok(back.searchParams.get('code'))
  },
)
