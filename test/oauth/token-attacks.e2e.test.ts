import t from 'tap'
import { sql } from 'kysely'
import { hashCredential } from '../../src/auth/credentials.ts'
import { bearer, testApp, type TestApp } from '../support/app.ts'
import { authorized, exchange, registeredClient, token, type TestClient } from './support.ts'

// Everything that must be refused at the token and revocation endpoints, each changing nothing.
const state = async (app: TestApp) =>
  (
    await sql<{
      s: string
    }>`select concat_ws('/', (select count(*) from oauth_tokens), (select count(*) from oauth_tokens where revoked_at is not null), (select count(*) from oauth_codes where used_at is not null), (select count(*) from oauth_grants where revoked_at is not null), (select count(*) from events), (select string_agg(coalesce(rotated_at::text, '-'), ',' order by token_id) from oauth_tokens)) as s`.execute(
      app.services.db,
    )
  ).rows[0]!.s

const basic = (c: TestClient) => ({
  authorization: `Basic ${Buffer.from(`${c.clientId}:${c.secret}`).toString('base64')}`,
})

t.test('the token endpoint attack matrix', async (t) => {
  const app = await testApp(t)
  const a = await registeredClient(app)
  const b = await registeredClient(app)
  const conf = await registeredClient(app, { confidential: true })
  const grant = await authorized(app, a)
  const confGrant = await authorized(app, conf)
  const live = await exchange(app, conf, confGrant)
  const good = {
    grant_type: 'authorization_code',
    code: grant.code,
    redirect_uri: a.redirectUri,
    code_verifier: grant.verifier,
    client_id: a.clientId,
  }
  const before = await state(app)
  let refused = 0
  const expectRefused = async (name: string, res: Awaited<ReturnType<typeof token>>, status: number, error: string) => {
    t.equal(res.statusCode, status, `${name}: ${status}`)
    t.equal(res.json().error, error, `${name}: ${error}`)
    t.equal(res.headers['cache-control'], 'no-store', `${name}: no-store`)
    t.equal(await state(app), before, `${name}: nothing changed`)
    refused++
  }

  await expectRefused(
    'wrong PKCE verifier',
    await token(app, { ...good, code_verifier: 'x'.repeat(43) }),
    400,
    'invalid_grant',
  )
  await expectRefused(
    'missing PKCE verifier',
    await token(app, { ...good, code_verifier: undefined }),
    400,
    'invalid_request',
  )
  await expectRefused(
    "another client's code",
    await token(app, { ...good, client_id: b.clientId }),
    400,
    'invalid_grant',
  )
  await expectRefused(
    'other redirect_uri',
    await token(app, { ...good, redirect_uri: 'https://client.example/callback/' }),
    400,
    'invalid_grant',
  )
  await expectRefused('unknown code', await token(app, { ...good, code: 'nope' }), 400, 'invalid_grant')
  await expectRefused(
    'public client sending a secret',
    await token(app, { ...good, client_secret: 'sfcs_guess' }),
    401,
    'invalid_client',
  )
  await expectRefused(
    'confidential client without its secret',
    await token(app, { grant_type: 'refresh_token', refresh_token: live.refresh_token, client_id: conf.clientId }),
    401,
    'invalid_client',
  )
  await expectRefused(
    'wrong client secret',
    await token(
      app,
      { grant_type: 'refresh_token', refresh_token: live.refresh_token },
      { authorization: `Basic ${Buffer.from(`${conf.clientId}:sfcs_wrong`).toString('base64')}` },
    ),
    401,
    'invalid_client',
  )
  await expectRefused('unknown client', await token(app, { ...good, client_id: 'sfc_unknown' }), 401, 'invalid_client')
  await expectRefused(
    'password grant',
    await token(app, { grant_type: 'password', username: 'a', password: 'b', client_id: a.clientId }),
    400,
    'unsupported_grant_type',
  )
  await expectRefused(
    'client_credentials grant',
    await token(app, { grant_type: 'client_credentials', client_id: a.clientId }),
    400,
    'unsupported_grant_type',
  )
  await expectRefused(
    'repeated parameter',
    await app.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${new URLSearchParams(good as Record<string, string>)}&code=other`,
    }),
    400,
    'invalid_request',
  )
  await expectRefused(
    'JSON body',
    await app.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(good),
    }),
    400,
    'invalid_request',
  )
  await expectRefused(
    'parameters in the query string',
    await app.app.inject({
      method: 'POST',
      url: `/api/oauth/token?${new URLSearchParams(good as Record<string, string>)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    }),
    400,
    'invalid_request',
  )
  await expectRefused(
    'foreign resource',
    await token(app, { ...good, resource: 'https://other.example/api/v1/mcp' }),
    400,
    'invalid_target',
  )
  await expectRefused(
    'refresh by another client',
    await token(app, { grant_type: 'refresh_token', refresh_token: live.refresh_token, client_id: a.clientId }),
    400,
    'invalid_grant',
  )
  await expectRefused(
    'scope escalation on refresh',
    await token(
      app,
      { grant_type: 'refresh_token', refresh_token: live.refresh_token, scope: 'store:read themes:publish' },
      basic(conf),
    ),
    400,
    'invalid_scope',
  )
  await expectRefused(
    'unknown scope on refresh',
    await token(app, { grant_type: 'refresh_token', refresh_token: live.refresh_token, scope: 'admin' }, basic(conf)),
    400,
    'invalid_scope',
  )
  await expectRefused(
    'access token used as a refresh token',
    await token(app, { grant_type: 'refresh_token', refresh_token: live.access_token }, basic(conf)),
    400,
    'invalid_grant',
  )
  await expectRefused(
    'revoking another client’s token',
    await app.app.inject({
      method: 'POST',
      url: '/api/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${live.refresh_token}&client_id=${a.clientId}`,
    }),
    400,
    'invalid_request',
  )

  // Expired code: refused, and the code stays unspent.
  await app.services.db
    .updateTable('oauth_codes')
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where('code_hash', '=', hashCredential(grant.code))
    .execute()
  const expiredBefore = await state(app)
  const expired = await token(app, good)
  t.equal(expired.json().error, 'invalid_grant', 'expired code refused')
  t.equal(await state(app), expiredBefore, 'expired code: nothing changed')
  refused++
  await app.services.db
    .updateTable('oauth_codes')
    .set({ expires_at: new Date(Date.now() + 60_000) })
    .where('code_hash', '=', hashCredential(grant.code))
    .execute()

  // After all those attempts the code still works once; the second use revokes what it issued.
  const first = await token(app, good)
  t.equal(first.statusCode, 200, 'the untouched code still works')
  const issued = first.json()
  t.equal(
    (await app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(issued.access_token) })).statusCode,
    200,
  )
  const again = await token(app, good)
  t.equal(again.json().error, 'invalid_grant', 'code reuse refused')
  t.equal(
    (await app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(issued.access_token) })).statusCode,
    401,
    'the access token issued from the code is revoked',
  )
  t.equal(
    (
      await token(app, { grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_id: a.clientId })
    ).json().error,
    'invalid_grant',
    'and its refresh token',
  )
  refused++
  const activity = await app.services.db.selectFrom('developer_activity').select('summary').execute()
  t.ok(
    activity.some((r) => /code was used twice/.test(r.summary)),
    'the code reuse is in the activity view',
  )

  // Bearer use of what is not an access token, or of one minted for another deployment.
  t.equal(
    (await app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(live.refresh_token) })).statusCode,
    401,
    'a refresh token is not a bearer credential',
  )
  refused++
  await app.services.db
    .updateTable('oauth_tokens')
    .set({ resource: 'https://other.example/api/v1/mcp' })
    .where('token_hash', '=', hashCredential(live.access_token))
    .execute()
  t.equal(
    (await app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(live.access_token) })).statusCode,
    401,
    'a token for another audience is refused',
  )
  refused++
  t.comment(`token endpoint attacks refused: ${refused}`)
})

t.test("a token of store A on store B's resources is a 404", async (t) => {
  const app = await testApp(t)
  const client = await registeredClient(app)
  const tokens = await exchange(
    app,
    client,
    await authorized(app, client, { scopes: ['themes:read', 'themes:write', 'themes:create'] }),
  )
  const created = await app.app.inject({
    method: 'POST',
    url: '/api/v1/themes',
    headers: { ...bearer(app.keyB), 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'B only', provider: 'claude' }),
  })
  const themeB = created.json().data.id as string
  const read = await app.app.inject({
    method: 'GET',
    url: `/api/v1/themes/${themeB}`,
    headers: bearer(tokens.access_token),
  })
  t.equal(read.statusCode, 404)
  const write = await app.app.inject({
    method: 'PATCH',
    url: `/api/v1/themes/${themeB}`,
    headers: { ...bearer(tokens.access_token), 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'taken' }),
  })
  t.equal(write.statusCode, 404)
  const b = await app.app.inject({ method: 'GET', url: `/api/v1/themes/${themeB}`, headers: bearer(app.keyB) })
  t.equal(b.json().data.name, 'B only', 'unchanged')
})

t.test(
  'revocation (RFC 7009): an access token alone, a refresh token ends the grant; unknown tokens are a quiet success',
  async (t) => {
    const app = await testApp(t)
    const client = await registeredClient(app)
    const one = await exchange(app, client, await authorized(app, client))
    const revoke = (tok: string) =>
      app.app.inject({
        method: 'POST',
        url: '/api/oauth/revoke',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `token=${tok}&client_id=${client.clientId}`,
      })
    t.equal((await revoke('sfat_unknown')).statusCode, 200)
    t.equal((await revoke(one.access_token)).statusCode, 200)
    t.equal(
      (await app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(one.access_token) })).statusCode,
      401,
    )
    const two = await token(app, {
      grant_type: 'refresh_token',
      refresh_token: one.refresh_token,
      client_id: client.clientId,
    })
    t.equal(two.statusCode, 200, 'the grant lives on after an access token is revoked')
    t.equal((await revoke(two.json().refresh_token)).statusCode, 200)
    t.equal(
      (await app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(two.json().access_token) }))
        .statusCode,
      401,
      'revoking the refresh token ends its access tokens',
    )
    const grants = await app.services.db.selectFrom('oauth_grants').select(['revoked_at', 'revoked_reason']).execute()
    t.match(grants, [{ revoked_reason: 'client_revocation' }])
  },
)
