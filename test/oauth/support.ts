import { createHash, randomBytes } from 'node:crypto'
import { hashCredential } from '../../src/auth/credentials.ts'
import { merchantActor } from '../../src/auth/caller.ts'
import { approveGrant } from '../../src/commands/access/oauth-grants.ts'
import { issueCode } from '../../src/oauth/tokens.ts'
import { base62 } from '../../src/ids.ts'
import type { TestApp } from '../support/app.ts'

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

export const form = (fields: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined)).toString()

export type TestClient = { clientId: string; secret: string | null; redirectUri: string }

// A client as registration would leave it (public unless a secret is asked for).
export async function registeredClient(
  app: TestApp,
  opts: { confidential?: boolean; redirectUri?: string; name?: string } = {},
): Promise<TestClient> {
  const clientId = `sfc_${base62(24)}`
  const secret = opts.confidential ? `sfcs_${base62(43)}` : null
  const redirectUri = opts.redirectUri ?? 'https://client.example/callback'
  await app.services.db
    .insertInto('oauth_clients')
    .values({
      client_id: clientId,
      kind: 'registered',
      client_name: opts.name ?? 'Test agent',
      client_secret_hash: secret ? hashCredential(secret) : null,
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
      redirect_uris: [redirectUri],
      metadata: '{}',
      registered_from: null,
    })
    .execute()
  return { clientId, secret, redirectUri }
}

// An app the merchant created in the dashboard (verified, one store), public unless confidential.
export async function dashboardApp(
  app: TestApp,
  opts: { storeId?: string; confidential?: boolean; redirectUri?: string } = {},
): Promise<TestClient> {
  const clientId = `sfc_${base62(24)}`
  const secret = opts.confidential ? `sfcs_${base62(43)}` : null
  const redirectUri = opts.redirectUri ?? 'https://client.example/callback'
  await app.services.db
    .insertInto('apps')
    .values({
      app_id: `app_${base62(16)}`,
      store_id: opts.storeId ?? 'st_demo_atlas',
      name: 'Dashboard app',
      client_id: clientId,
      client_secret_hash: secret ? hashCredential(secret) : null,
      redirect_uris: [redirectUri],
      kind: secret ? 'confidential' : 'public',
    })
    .execute()
  return { clientId, secret, redirectUri }
}

// What the consent page leaves behind: a grant and a fresh code bound to a PKCE challenge.
export async function authorized(
  app: TestApp,
  client: TestClient,
  opts: { storeId?: string; scopes?: string[]; resource?: string } = {},
) {
  const storeId = opts.storeId ?? 'st_demo_atlas'
  const scopes = opts.scopes ?? ['store:read', 'themes:read', 'themes:create']
  const merchant = await app.services.db
    .selectFrom('stores')
    .select('merchant_id')
    .where('store_id', '=', storeId)
    .executeTakeFirstOrThrow()
  const { grantId } = await approveGrant(
    app.services.commands,
    { storeId, actor: merchantActor(merchant.merchant_id), channel: 'dashboard', operation: 'approveOAuthGrant' },
    {
      merchantId: merchant.merchant_id,
      client: { clientId: client.clientId, name: 'Test agent', verified: false, appId: null },
      scopes,
    },
  )
  const { verifier, challenge } = pkce()
  const code = await issueCode(app.services, {
    grantId,
    clientId: client.clientId,
    storeId,
    redirectUri: client.redirectUri,
    codeChallenge: challenge,
    scopes,
    resource: opts.resource ?? `${app.baseUrl}/api/v1/mcp`,
  })
  return { grantId, code, verifier, challenge }
}

export async function token(
  app: TestApp,
  fields: Record<string, string | undefined>,
  headers: Record<string, string> = {},
) {
  return app.app.inject({
    method: 'POST',
    url: '/api/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: form(fields),
  })
}

export async function exchange(app: TestApp, client: TestClient, grant: { code: string; verifier: string }) {
  const res = await token(app, {
    grant_type: 'authorization_code',
    code: grant.code,
    redirect_uri: client.redirectUri,
    code_verifier: grant.verifier,
    client_id: client.clientId,
    client_secret: client.secret ?? undefined,
  })
  if (res.statusCode !== 200) throw new Error(`exchange failed: ${res.statusCode} ${res.body}`)
  return res.json() as {
    access_token: string
    refresh_token: string
    scope: string
    expires_in: number
    token_type: string
  }
}
