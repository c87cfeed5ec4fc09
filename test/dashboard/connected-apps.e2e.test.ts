import t from 'tap'
import { bearer, STORE_A, STORE_B, testApp } from '../support/app.ts'
import { authorized, exchange, registeredClient } from '../oauth/support.ts'
import { Browser, EMAIL_A, EMAIL_B, passwordOf } from './support.ts'

// Connected apps in the developer dashboard (issue 10): every approved client (dashboard app,
// dynamically registered, metadata document) with its grant's scopes, approval and last use;
// Revoke ends its tokens at once; deleting a dashboard app ends its grants; isolation and CSRF.

const app = await testApp(t)
const { services } = app
const a = new Browser(app.app, '10.10.0.1')
await a.signIn(EMAIL_A, await passwordOf(services, EMAIL_A))
const b = new Browser(app.app, '10.10.0.2')
await b.signIn(EMAIL_B, await passwordOf(services, EMAIL_B))

const context = (token: string) => app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(token) })
// What the consent page leaves behind, under the client's own name.
async function connected(
  client: Awaited<ReturnType<typeof registeredClient>>,
  name: string,
  opts: Parameters<typeof authorized>[2],
) {
  const grant = await authorized(app, client, opts)
  await services.db
    .updateTable('oauth_grants')
    .set({ client_name: name })
    .where('grant_id', '=', grant.grantId)
    .execute()
  return grant
}
const grantRow = (grantId: string) =>
  services.db
    .selectFrom('oauth_grants')
    .select(['revoked_at', 'revoked_reason'])
    .where('grant_id', '=', grantId)
    .executeTakeFirstOrThrow()

t.test(
  'a registered client: listed with its scopes; Revoke in the dashboard makes its token fail at once',
  async (t) => {
    const client = await registeredClient(app, { name: 'Claude for Atlas' })
    const grant = await connected(client, 'Claude for Atlas', { scopes: ['store:read', 'themes:read'] })
    const tokens = await exchange(app, client, grant)
    t.equal((await context(tokens.access_token)).statusCode, 200, 'the token works')
    // Last uses are written in batches (every 5 s and at shutdown): write the pending one now.
    await services.lastUsed.flush()

    const page = await a.get('/dashboard/developer')
    t.equal(page.statusCode, 200)
    t.notMatch(String(page.headers['content-security-policy']), /unsafe-inline/)
    t.match(page.body, /<h2>Connected apps<\/h2>/)
    t.match(page.body, /<strong>Claude for Atlas<\/strong> <span class="pill unverified">unverified<\/span>/)
    t.match(page.body, /Registered itself \(dynamic client registration\)/)
    t.match(page.body, /<li class="mono">store:read<\/li><li class="mono">themes:read<\/li>/)
    t.match(page.body, /Last used/)
    t.match(
      page.body,
      new RegExp(
        `<td data-label="Last used"><time datetime="[^"]+">[^<]+</time></td>\\s*<td><form method="post" action="/dashboard/developer/grants/${grant.grantId}/revoke">`,
      ),
      'approved and last used dates, then Revoke',
    )
    t.notMatch((await b.get('/dashboard/developer')).body, /Claude for Atlas/, "not on another store's dashboard")

    // Refused: another store's merchant, no CSRF token, a forged one. The token keeps working.
    const csrfB = b.csrf()
    t.equal((await b.post(`/dashboard/developer/grants/${grant.grantId}/revoke`, {}, { csrf: csrfB })).statusCode, 404)
    t.equal((await a.post(`/dashboard/developer/grants/${grant.grantId}/revoke`, {}, { csrf: null })).statusCode, 403)
    await a.get('/dashboard/developer')
    const csrfA = a.csrf()
    t.equal(
      (await a.post(`/dashboard/developer/grants/${grant.grantId}/revoke`, {}, { csrf: 'forged' })).statusCode,
      403,
    )
    t.equal((await a.post(`/dashboard/developer/grants/not_a_grant/revoke`, {}, { csrf: csrfA })).statusCode, 404)
    t.equal((await grantRow(grant.grantId)).revoked_at, null)
    t.equal((await context(tokens.access_token)).statusCode, 200, 'still works after the refused attempts')

    await a.get('/dashboard/developer')
    const revoked = await a.post(`/dashboard/developer/grants/${grant.grantId}/revoke`, {})
    t.equal(revoked.statusCode, 303)
    t.equal(revoked.headers.location, '/dashboard/developer?done=disconnected')
    const refused = await context(tokens.access_token)
    t.equal(refused.statusCode, 401, 'refused on the next request')
    t.match(String(refused.headers['www-authenticate']), /error="invalid_token"/)
    t.equal((await grantRow(grant.grantId)).revoked_reason, 'merchant')
    const after = await a.get('/dashboard/developer?done=disconnected')
    t.match(after.body, /Disconnected\. Its access and refresh tokens stopped working at once\./)
    t.notMatch(after.body, /Claude for Atlas/)
    const activity = await a.get('/dashboard/developer/activity?channel=dashboard')
    t.match(
      activity.body,
      /Disconnected[^<]*Claude for Atlas|Claude for Atlas[^<]*revoked/,
      'recorded in the activity view',
    )
  },
)

t.test('a metadata-document client is listed as such', async (t) => {
  const clientId = 'https://agent.example/oauth/client.json'
  await services.db
    .insertInto('oauth_clients')
    .values({
      client_id: clientId,
      kind: 'metadata_document',
      client_name: 'Doc agent',
      client_secret_hash: null,
      token_endpoint_auth_method: 'none',
      redirect_uris: ['https://agent.example/cb'],
      metadata: '{}',
      registered_from: null,
    })
    .execute()
  const grant = await authorized(
    app,
    { clientId, secret: null, redirectUri: 'https://agent.example/cb' },
    { scopes: ['themes:read'] },
  )
  const page = await a.get('/dashboard/developer')
  t.match(page.body, /<strong>Test agent<\/strong>/)
  t.match(page.body, /Identified by its metadata document/)
  t.match(page.body, /https:\/\/agent.example\/oauth\/client.json/)
  t.equal((await a.post(`/dashboard/developer/grants/${grant.grantId}/revoke`, {})).statusCode, 303)
  t.ok((await grantRow(grant.grantId)).revoked_at)
})

t.test('a dashboard app shows its OAuth access; Revoke there, and deleting the app, end its tokens', async (t) => {
  await a.get('/dashboard/developer')
  const created = await a.post('/dashboard/developer/apps', {
    name: 'Agency agent',
    kind: 'confidential',
    redirectUris: 'https://client.example/callback',
  })
  t.equal(created.statusCode, 201)
  const secret = /sfcs_[A-Za-z0-9]{43}/.exec(created.body)![0]
  const row = await services.db
    .selectFrom('apps')
    .select(['app_id', 'client_id'])
    .where('store_id', '=', STORE_A)
    .where('name', '=', 'Agency agent')
    .executeTakeFirstOrThrow()
  const client = { clientId: row.client_id, secret, redirectUri: 'https://client.example/callback' }
  const connect = async () => {
    const grant = await authorized(app, client, { scopes: ['store:read'] })
    await services.db
      .updateTable('oauth_grants')
      .set({ app_id: row.app_id })
      .where('grant_id', '=', grant.grantId)
      .execute()
    return { grant, tokens: await exchange(app, client, grant) }
  }
  const first = await connect()
  const appPage = await a.get(`/dashboard/developer/apps/${row.app_id}`)
  t.match(appPage.body, /<h2>OAuth access<\/h2>/)
  t.match(appPage.body, /App created in this dashboard/)
  const action = `/dashboard/developer/apps/${row.app_id}/grants/${first.grant.grantId}/revoke`
  t.match(appPage.body, action)
  await b.get('/dashboard/developer')
  t.equal((await b.post(action, {}, { csrf: b.csrf() })).statusCode, 404, "another store's merchant")
  await a.get(`/dashboard/developer/apps/${row.app_id}`)
  const revoked = await a.post(action, {})
  t.equal(revoked.statusCode, 303)
  t.equal(revoked.headers.location, `/dashboard/developer/apps/${row.app_id}?done=disconnected`)
  t.equal((await context(first.tokens.access_token)).statusCode, 401)
  t.match((await a.get(revoked.headers.location!)).body, /You have not approved this app through OAuth/)

  const second = await connect()
  t.equal((await context(second.tokens.access_token)).statusCode, 200)
  await a.get(`/dashboard/developer/apps/${row.app_id}`)
  const deleted = await a.post(`/dashboard/developer/apps/${row.app_id}/delete`, {})
  t.equal(deleted.statusCode, 200)
  t.equal((await context(second.tokens.access_token)).statusCode, 401, 'deleting the app revoked its grant and tokens')
  t.ok((await grantRow(second.grant.grantId)).revoked_at)
  t.equal((await grantRow(second.grant.grantId)).revoked_reason, 'app_deleted')
})

t.test("store B's connections are B's alone", async (t) => {
  const client = await registeredClient(app, { name: 'Lumen helper' })
  const grant = await connected(client, 'Lumen helper', { storeId: STORE_B, scopes: ['store:read'] })
  t.match((await b.get('/dashboard/developer')).body, /Lumen helper/)
  t.notMatch((await a.get('/dashboard/developer')).body, /Lumen helper/)
  t.equal((await a.post(`/dashboard/developer/grants/${grant.grantId}/revoke`, {})).statusCode, 404)
  t.equal((await grantRow(grant.grantId)).revoked_at, null)
})
