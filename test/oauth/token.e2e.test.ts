import t from 'tap'
import { sql } from 'kysely'
import { bearer, STORE_A, testApp, type TestApp } from '../support/app.ts'
import { authorized, exchange, registeredClient, token } from './support.ts'

const rest = (app: TestApp, accessToken: string, url = '/api/v1/context') =>
  app.app.inject({ method: 'GET', url, headers: bearer(accessToken) })
const counts = async (app: TestApp) => {
  const r = await sql<{
    tokens: number
    live: number
    grants: number
    events: number
  }>`select (select count(*)::int from oauth_tokens) as tokens, (select count(*)::int from oauth_tokens where revoked_at is null) as live, (select count(*)::int from oauth_grants where revoked_at is null) as grants, (select count(*)::int from events) as events`.execute(
    app.services.db,
  )
  return r.rows[0]!
}

t.test(
  'a code becomes sfat_/sfrt_ tokens, stored as hashes, that work on REST and MCP for the grant store and scopes',
  async (t) => {
    const app = await testApp(t)
    const client = await registeredClient(app)
    const grant = await authorized(app, client, { scopes: ['store:read', 'themes:read'] })
    const res = await token(app, {
      grant_type: 'authorization_code',
      code: grant.code,
      redirect_uri: client.redirectUri,
      code_verifier: grant.verifier,
      client_id: client.clientId,
    })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['cache-control'], 'no-store')
    t.ok(res.headers['x-ratelimit-limit'], 'rate-limit headers apply')
    const body = res.json()
    t.match(body, {
      access_token: /^sfat_[0-9A-Za-z]{43}$/,
      refresh_token: /^sfrt_[0-9A-Za-z]{43}$/,
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'store:read themes:read',
    })
    const stored = JSON.stringify(await app.services.db.selectFrom('oauth_tokens').selectAll().execute())
    t.notOk(
      stored.includes(body.access_token) || stored.includes(body.refresh_token) || stored.includes(grant.code),
      'only hashes are stored',
    )

    const context = await rest(app, body.access_token)
    t.equal(context.statusCode, 200)
    t.equal(context.json().data.store.id, STORE_A)
    const mcp = await app.app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: {
        ...bearer(body.access_token),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_store', arguments: {} },
      }),
    })
    t.equal(mcp.statusCode, 200)
    t.equal(mcp.json().result.structuredContent.id, STORE_A)

    const denied = await app.app.inject({
      method: 'POST',
      url: '/api/v1/themes',
      headers: { ...bearer(body.access_token), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x', provider: 'claude' }),
    })
    t.equal(denied.statusCode, 403, 'a scope the grant lacks is refused')
    t.equal(denied.json().error.code, 'INSUFFICIENT_SCOPE')
    t.equal(
      denied.headers['www-authenticate'],
      `Bearer error="insufficient_scope", scope="themes:create", resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/api/v1/mcp"`,
      'the challenge names the scope to step up to',
    )

    // In the query string the token is not a credential.
    const inQuery = await app.app.inject({ method: 'GET', url: `/api/v1/context?access_token=${body.access_token}` })
    t.equal(inQuery.statusCode, 401)

    // Last uses are written in batches (every 5 s and at shutdown): write the pending one now.
    await app.services.lastUsed.flush()
    const grantRow = await app.services.db
      .selectFrom('oauth_grants')
      .select('last_used_at')
      .where('grant_id', '=', grant.grantId)
      .executeTakeFirstOrThrow()
    t.ok(grantRow.last_used_at, 'last use is recorded on the grant')
  },
)

t.test('refresh rotates; the old token works for 60 seconds, later it revokes the whole grant', async (t) => {
  const app = await testApp(t)
  const client = await registeredClient(app, { confidential: true })
  const grant = await authorized(app, client)
  const first = await exchange(app, client, grant)
  const basic = { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}` }

  const second = await token(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token }, basic)
  t.equal(second.statusCode, 200)
  const pair2 = second.json()
  t.not(pair2.refresh_token, first.refresh_token, 'rotated')
  t.equal((await rest(app, pair2.access_token)).statusCode, 200)

  const retry = await token(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token }, basic)
  t.equal(retry.statusCode, 200, 'within the grace window the old token gets a valid new pair')
  t.equal((await rest(app, retry.json().access_token)).statusCode, 200)

  const narrowed = await token(
    app,
    { grant_type: 'refresh_token', refresh_token: pair2.refresh_token, scope: 'store:read' },
    basic,
  )
  t.equal(narrowed.statusCode, 200)
  t.equal(narrowed.json().scope, 'store:read', 'refresh may narrow')

  // The rotation happened more than 60 seconds ago.
  await app.services.db
    .updateTable('oauth_tokens')
    .set({ rotated_at: new Date(Date.now() - 120_000) })
    .where('rotated_at', 'is not', null)
    .execute()
  const before = await counts(app)
  const reuse = await token(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token }, basic)
  t.equal(reuse.statusCode, 400)
  t.same(reuse.json().error, 'invalid_grant')
  const after = await counts(app)
  t.equal(after.live, 0, 'every token of the grant is revoked')
  t.equal(after.grants, before.grants - 1, 'the grant is revoked')
  t.equal(after.tokens, before.tokens, 'nothing new was issued')
  t.equal((await rest(app, narrowed.json().access_token)).statusCode, 401, 'the newest access token stops too')
  t.match((await rest(app, pair2.access_token)).headers['www-authenticate'], /invalid_token/)
  const activity = await app.services.db
    .selectFrom('developer_activity')
    .select(['action', 'summary', 'credential_kind'])
    .where('store_id', '=', STORE_A)
    .execute()
  t.ok(
    activity.some((a) => /refresh token came back/.test(a.summary)),
    'the reuse is in the developer-activity view',
  )
  t.ok(
    activity.some((a) => /Connected Test agent/.test(a.summary)),
    'so is the approval',
  )
})
