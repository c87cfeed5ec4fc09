import t from 'tap'
import * as oauth from 'oauth4webapi'
import { DEFAULT_AGENT_SCOPES } from '../../src/auth/scopes.ts'
import { STORE_A } from '../support/app.ts'
import { readConsentForm, submission } from './consent-form.ts'
import { liveOAuthApp } from './live.ts'
import { merchantFor, signIn } from './sign-in.ts'

const insecure = { [oauth.allowInsecureRequests]: true }

// The store's owner, signed in through the real sign-in page.
const signedIn = async (app: Awaited<ReturnType<typeof liveOAuthApp>>) => signIn(app, await merchantFor(app, STORE_A))

t.test(
  'oauth4webapi end to end: discovery, registration, consent, code + PKCE, bearer use, refresh, revocation',
  async (t) => {
    const app = await liveOAuthApp(t)
    const cookie = await signedIn(app)
    const issuer = new URL(app.url)
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    )
    t.equal(as.issuer, app.url)
    t.same(as.code_challenge_methods_supported, ['S256'])

    // A native client on a loopback port it picked at random (Claude Code, Cursor, VS Code style).
    const registered = await fetch(as.registration_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'oauth4webapi agent',
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: 'none',
      }),
    })
    t.equal(registered.status, 201)
    const client: oauth.Client = {
      client_id: ((await registered.json()) as { client_id: string }).client_id,
      token_endpoint_auth_method: 'none',
    }
    const redirectUri = `http://127.0.0.1:${40000 + Math.floor(Math.random() * 20000)}/callback`

    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const authorizationUrl = new URL(as.authorization_endpoint!)
    for (const [k, v] of Object.entries({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'store:read themes:read themes:create themes:publish',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource: app.mcpUrl,
    }))
      authorizationUrl.searchParams.set(k, v)

    const anonymous = await fetch(authorizationUrl, { redirect: 'manual' })
    t.equal(anonymous.status, 303, 'signed out: to the sign-in page first')
    t.match(anonymous.headers.get('location'), /^\/dashboard\/login\?next=%2Foauth%2Fauthorize%3F/)

    const consent = await fetch(authorizationUrl, { redirect: 'manual', headers: { cookie } })
    t.equal(consent.status, 200)
    const csp = consent.headers.get('content-security-policy')!
    t.match(csp, /frame-ancestors 'none'/)
    t.match(csp, /form-action 'self' http:\/\/127\.0\.0\.1:\d+/)
    const html = await consent.text()
    t.match(html, /oauth4webapi agent/)
    t.match(html, /unverified/)
    t.match(html, /Atlas/i, 'the store is named')
    const form = readConsentForm(html)
    t.same(
      form.scopes.map((s) => [s.value, s.checked]),
      [
        ['store:read', true],
        ['themes:read', true],
        ['themes:create', true],
        ['themes:publish', false],
      ],
      'every scope ticked but publishing',
    )

    const allowed = await fetch(`${app.url}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: submission(form, 'allow'),
    })
    t.equal(allowed.status, 303)
    const callback = new URL(allowed.headers.get('location')!)
    t.equal(`${callback.origin}${callback.pathname}`, redirectUri, 'back to the port the client asked for')
    const params = oauth.validateAuthResponse(as, client, callback, state)

    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure),
    )
    t.match(tokens, {
      access_token: /^sfat_/,
      refresh_token: /^sfrt_/,
      token_type: 'bearer',
      scope: 'store:read themes:read themes:create',
    })

    const context = await oauth.protectedResourceRequest(
      tokens.access_token,
      'GET',
      new URL(`${app.url}/api/v1/context`),
      undefined,
      undefined,
      insecure,
    )
    t.equal(context.status, 200)
    const body = (await context.json()) as { data: { store: { id: string } } }
    t.equal(body.data.store.id, STORE_A, 'the store comes from the grant')
    const publish = await oauth
      .protectedResourceRequest(
        tokens.access_token,
        'POST',
        new URL(`${app.url}/api/v1/themes/thm_x/publish`),
        new Headers({ 'content-type': 'application/json' }),
        '{}',
        insecure,
      )
      .catch((e: unknown) => e)
    t.equal(
      (publish as Response).status ?? (publish as { response?: Response }).response?.status,
      403,
      'no publishing: the merchant did not tick it',
    )

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    )
    t.not(refreshed.refresh_token, tokens.refresh_token, 'rotated')
    t.equal(
      (
        await oauth.protectedResourceRequest(
          refreshed.access_token,
          'GET',
          new URL(`${app.url}/api/v1/context`),
          undefined,
          undefined,
          insecure,
        )
      ).status,
      200,
    )

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure),
    )
    const after = await fetch(`${app.url}/api/v1/context`, {
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    })
    t.equal(after.status, 401, 'revoking the refresh token ends the connection')
  },
)

t.test(
  'ChatGPT-style: registers, sends resource, reconnects without scope, is asked again (a public client) and gets the default set',
  async (t) => {
    const app = await liveOAuthApp(t)
    const cookie = await signedIn(app)
    const redirectUri = 'https://chatgpt.com/connector_platform_oauth_redirect'
    const reg = (await (
      await fetch(`${app.url}/api/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'ChatGPT',
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        }),
      })
    ).json()) as { client_id: string }
    const as = await oauth.processDiscoveryResponse(
      new URL(app.url),
      await oauth.discoveryRequest(new URL(app.url), { algorithm: 'oauth2', ...insecure }),
    )
    const client: oauth.Client = { client_id: reg.client_id, token_endpoint_auth_method: 'none' }
    const connect = async (scope: string | undefined) => {
      const verifier = oauth.generateRandomCodeVerifier()
      const state = `oauth_s_${oauth.generateRandomState()}`
      const u = new URL(`${app.url}/oauth/authorize`)
      for (const [k, v] of Object.entries({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: redirectUri,
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        resource: app.mcpUrl,
        ...(scope ? { scope } : {}),
      }))
        u.searchParams.set(k, v)
      return { u, verifier, state }
    }
    const first = await connect(DEFAULT_AGENT_SCOPES.join(' '))
    const page = await fetch(first.u, { redirect: 'manual', headers: { cookie } })
    t.equal(page.status, 200, 'first connection: consent')
    const allowed = await fetch(`${app.url}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: submission(readConsentForm(await page.text()), 'allow'),
    })
    const firstParams = oauth.validateAuthResponse(as, client, new URL(allowed.headers.get('location')!), first.state)
    const firstTokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), firstParams, redirectUri, first.verifier, {
        ...insecure,
        additionalParameters: { resource: app.mcpUrl },
      }),
    )
    t.equal(firstTokens.scope, DEFAULT_AGENT_SCOPES.join(' '))

    // Disconnect in ChatGPT, connect again: no scope parameter this time.
    const again = await connect(undefined)
    // A public client is asked every time (anyone can present its client id; RFC 8252 §8.6).
    const secondPage = await fetch(again.u, { redirect: 'manual', headers: { cookie } })
    t.equal(secondPage.status, 200, 'a public client: the consent page again')
    const reallowed = await fetch(`${app.url}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: submission(readConsentForm(await secondPage.text()), 'allow'),
    })
    const params = oauth.validateAuthResponse(as, client, new URL(reallowed.headers.get('location')!), again.state)
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, again.verifier, {
        ...insecure,
        additionalParameters: { resource: app.mcpUrl },
      }),
    )
    t.equal(tokens.scope, DEFAULT_AGENT_SCOPES.join(' '), 'no scope means the default theme-agent set')
    const mcp = await fetch(app.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_context', arguments: {} },
      }),
    })
    t.equal(
      ((await mcp.json()) as { result: { structuredContent: { store: { id: string } } } }).result.structuredContent
        .store.id,
      STORE_A,
    )

    // Denying sends the client access_denied with state and iss, and grants nothing new.
    const third = await connect('store:read orders:read')
    const consentAgain = await fetch(third.u, { redirect: 'manual', headers: { cookie } })
    t.equal(consentAgain.status, 200, 'a scope not yet granted: consent again')
    const denied = await fetch(`${app.url}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: submission(readConsentForm(await consentAgain.text()), 'deny'),
    })
    const deniedAt = new URL(denied.headers.get('location')!)
    t.equal(deniedAt.searchParams.get('error'), 'access_denied')
    t.equal(deniedAt.searchParams.get('state'), third.state)
    t.equal(deniedAt.searchParams.get('iss'), app.url)
    const grant = await app.services.db
      .selectFrom('oauth_grants')
      .select('scopes')
      .where('client_id', '=', client.client_id)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow()
    t.notOk(grant.scopes.includes('orders:read'))
  },
)
