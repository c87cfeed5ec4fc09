import type { Kysely } from 'kysely'
import { hashCredential } from '../../auth/credentials.ts'
import { ACCESS_TOKEN_PREFIX, oauthResources, REFRESH_TOKEN_PREFIX } from '../../auth/oauth-access.ts'
import { revokeGrant, revokeTokens } from '../../commands/access/oauth-grants.ts'
import type { CommandContext } from '../../commands/context.ts'
import type { Database } from '../../db/database.ts'
import { base62, newId } from '../../ids.ts'
import { authorizationCode, grantOf, liveTokenIdsFromCode, tokenByHash } from '../../queries/oauth/tokens.ts'
import type { Services } from '../../services.ts'
import { oauthError, refused, type OAuthResult } from './oauth-error.ts'
import { verifierMatches } from './pkce.ts'
import { parseScope } from './scope-parameter.ts'

// The authorization server's grants: codes issued on the merchant's consent, and the token
// endpoint's exchange, refresh and revocation. No bearer caller stands behind these calls (the
// token endpoint authenticates the client itself, src/oauth/clients.ts), so they are plain
// application functions the adapter calls, not catalog operations (decision 0064). Codes and
// tokens are rows written here; the grant's revocations are commands, so they reach the activity view.

export const CODE_TTL_MS = 5 * 60_000
export const REFRESH_TTL_MS = 30 * 24 * 3600_000
// A rotated refresh token used again within this window gets a fresh pair (a retry, or two
// processes refreshing at once); later, it is treated as stolen and the whole grant ends.
export const REFRESH_GRACE_MS = 60_000

export type TokenResponse = {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token: string
  scope: string
}

// The authenticated client, as far as its grants care.
export type GrantClient = { clientId: string; appId: string | null }

export async function issueCode(
  services: Services,
  input: {
    grantId: string
    clientId: string
    storeId: string
    redirectUri: string
    codeChallenge: string
    scopes: string[]
    resource: string
  },
): Promise<string> {
  const code = base62(43)
  await services.db
    .insertInto('oauth_codes')
    .values({
      code_hash: hashCredential(code),
      grant_id: input.grantId,
      client_id: input.clientId,
      store_id: input.storeId,
      redirect_uri: input.redirectUri,
      code_challenge: input.codeChallenge,
      scopes: input.scopes,
      resource: input.resource,
      expires_at: new Date(services.clock().getTime() + CODE_TTL_MS),
    })
    .execute()
  return code
}

type Issue = {
  grantId: string
  clientId: string
  storeId: string
  scopes: string[]
  accessScopes: string[]
  resource: string
  codeHash: string | null
  parentId: string | null
}

async function issuePair(services: Services, db: Kysely<Database>, p: Issue): Promise<TokenResponse> {
  const now = services.clock().getTime()
  const ttl = services.config.oauth.accessTokenTtlSeconds
  const access = `${ACCESS_TOKEN_PREFIX}${base62(43)}`
  const refresh = `${REFRESH_TOKEN_PREFIX}${base62(43)}`
  const common = {
    grant_id: p.grantId,
    client_id: p.clientId,
    store_id: p.storeId,
    resource: p.resource,
    code_hash: p.codeHash,
    parent_id: p.parentId,
  }
  await db
    .insertInto('oauth_tokens')
    .values([
      {
        ...common,
        token_hash: hashCredential(access),
        token_id: newId('at'),
        kind: 'access',
        scopes: p.accessScopes,
        expires_at: new Date(now + ttl * 1000),
      },
      {
        ...common,
        token_hash: hashCredential(refresh),
        token_id: newId('rt'),
        kind: 'refresh',
        scopes: p.scopes,
        expires_at: new Date(now + REFRESH_TTL_MS),
      },
    ])
    .execute()
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ttl,
    refresh_token: refresh,
    scope: p.accessScopes.join(' '),
  }
}

// RFC 8707: a resource, when sent, must be one of this API's; the token's audience is then it.
function resourceParam(services: Services, value: string | undefined, fallback: string): OAuthResult<string> {
  if (value === undefined) return { ok: true, value: fallback }
  if (!(oauthResources(services.baseUrl) as readonly string[]).includes(value))
    return refused(oauthError('invalid_target', `resource must be ${oauthResources(services.baseUrl).join(' or ')}`))
  return { ok: true, value }
}

const systemContext = (
  storeId: string,
  grantId: string,
  appId: string,
  requestId: string,
  operation: string,
): CommandContext => ({
  storeId,
  actor: { kind: 'oauth', credentialId: grantId, appId },
  channel: 'rest',
  requestId,
  operation,
})

// grant_type=authorization_code, with the parameters the endpoint found in the form.
export async function redeemCode(
  services: Services,
  client: GrantClient,
  p: { code: string; redirectUri: string; verifier: string; resource: string | undefined },
  requestId: string,
): Promise<OAuthResult<TokenResponse>> {
  const codeHash = hashCredential(p.code)
  const row = await authorizationCode(services.db, codeHash)
  // Another client's code is refused without spending it: it is not this client's to burn.
  if (!row || row.client_id !== client.clientId)
    return refused(oauthError('invalid_grant', 'the authorization code is not valid'))
  if (row.used_at) return codeReused(services, row, requestId)
  if (new Date(row.expires_at) <= services.clock())
    return refused(oauthError('invalid_grant', 'the authorization code has expired'))
  if (row.redirect_uri !== p.redirectUri)
    return refused(oauthError('invalid_grant', 'redirect_uri differs from the one of the authorization request'))
  if (!verifierMatches(p.verifier, row.code_challenge))
    return refused(oauthError('invalid_grant', 'code_verifier does not match the code_challenge'))
  const resource = resourceParam(services, p.resource, row.resource)
  if (!resource.ok) return resource
  const grant = await grantOf(services.db, row.grant_id)
  if (grant.revoked_at) return refused(oauthError('invalid_grant', 'the merchant revoked this authorization'))

  return services.db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('oauth_codes')
      .set({ used_at: services.clock() })
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst()
    if (Number(spent.numUpdatedRows) === 0)
      return refused(oauthError('invalid_grant', 'the authorization code was already used'))
    const value = await issuePair(services, trx, {
      grantId: row.grant_id,
      clientId: client.clientId,
      storeId: row.store_id,
      scopes: row.scopes,
      accessScopes: row.scopes,
      resource: resource.value,
      codeHash,
      parentId: null,
    })
    return { ok: true as const, value }
  })
}

// RFC 6749 §4.1.2: a code used twice revokes what it issued (every generation of its refresh tokens).
async function codeReused(
  services: Services,
  row: { code_hash: string; grant_id: string; store_id: string; client_id: string },
  requestId: string,
): Promise<OAuthResult<TokenResponse>> {
  const tokenIds = await liveTokenIdsFromCode(services.db, row.code_hash)
  const grant = await grantOf(services.db, row.grant_id)
  await revokeTokens(
    services.commands,
    systemContext(row.store_id, row.grant_id, grant.app_id ?? row.client_id, requestId, 'oauthToken'),
    row.grant_id,
    tokenIds,
    'code_reuse',
  )
  return refused(
    oauthError('invalid_grant', 'the authorization code was already used; the tokens issued from it are revoked'),
  )
}

// grant_type=refresh_token: rotation, with the refresh token's row locked for the decision.
export async function refreshTokens(
  services: Services,
  client: GrantClient,
  p: { refreshToken: string; scope: string | undefined; resource: string | undefined },
  requestId: string,
): Promise<OAuthResult<TokenResponse>> {
  if (!p.refreshToken.startsWith(REFRESH_TOKEN_PREFIX))
    return refused(oauthError('invalid_grant', 'the refresh token is not valid'))
  const tokenHash = hashCredential(p.refreshToken)
  let reuse: { grantId: string; storeId: string; appId: string } | null = null
  const result = await services.db.transaction().execute(async (trx): Promise<OAuthResult<TokenResponse>> => {
    const row = await trx
      .selectFrom('oauth_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .forUpdate()
      .executeTakeFirst()
    if (row?.kind !== 'refresh' || row.client_id !== client.clientId)
      return refused(oauthError('invalid_grant', 'the refresh token is not valid'))
    const grant = await grantOf(trx, row.grant_id)
    if (grant.revoked_at || row.revoked_at) return refused(oauthError('invalid_grant', 'the refresh token was revoked'))
    const now = services.clock()
    if (new Date(row.expires_at) <= now) return refused(oauthError('invalid_grant', 'the refresh token has expired'))
    if (row.rotated_at && now.getTime() - new Date(row.rotated_at).getTime() > REFRESH_GRACE_MS) {
      reuse = { grantId: row.grant_id, storeId: row.store_id, appId: grant.app_id ?? row.client_id }
      return refused(oauthError('invalid_grant', 'the refresh token was already used; the authorization is revoked'))
    }
    // Never wider than this refresh token, nor than what the merchant grants today.
    const allowed = row.scopes.filter((s) => grant.scopes.includes(s))
    let accessScopes = allowed
    if (p.scope !== undefined && p.scope.trim() !== '') {
      const asked = parseScope(p.scope)
      if (!asked.ok) return refused(oauthError('invalid_scope', asked.message))
      const wider = asked.scopes.filter((s) => !allowed.includes(s))
      if (wider.length > 0)
        return refused(
          oauthError(
            'invalid_scope',
            `a refresh may narrow the scopes, never widen them: ${wider.join(', ')} not granted`,
          ),
        )
      accessScopes = asked.scopes
    }
    const resource = resourceParam(services, p.resource, row.resource)
    if (!resource.ok) return resource
    if (!row.rotated_at)
      await trx.updateTable('oauth_tokens').set({ rotated_at: now }).where('token_hash', '=', tokenHash).execute()
    const value = await issuePair(services, trx, {
      grantId: row.grant_id,
      clientId: client.clientId,
      storeId: row.store_id,
      scopes: allowed,
      accessScopes,
      resource: resource.value,
      codeHash: row.code_hash,
      parentId: row.token_id,
    })
    return { ok: true, value }
  })
  if (reuse) {
    const r = reuse as { grantId: string; storeId: string; appId: string }
    await revokeGrant(
      services.commands,
      systemContext(r.storeId, r.grantId, r.appId, requestId, 'oauthToken'),
      r.grantId,
      'refresh_token_reuse',
    )
  }
  return result
}

// RFC 7009. A refresh token ends the whole grant (the app disconnects); an access token ends alone.
// Unknown tokens are a success that changes nothing, as the RFC asks.
export async function revokeToken(
  services: Services,
  client: GrantClient,
  token: string,
  requestId: string,
): Promise<OAuthResult<null>> {
  const row = await tokenByHash(services.db, hashCredential(token))
  if (!row || row.revoked_at) return { ok: true, value: null }
  if (row.client_id !== client.clientId)
    return refused(oauthError('invalid_request', 'this token was not issued to this client'))
  const ctx = systemContext(row.store_id, row.grant_id, client.appId ?? client.clientId, requestId, 'oauthRevoke')
  if (row.kind === 'refresh') await revokeGrant(services.commands, ctx, row.grant_id, 'client_revocation')
  else await revokeTokens(services.commands, ctx, row.grant_id, [row.token_id], 'client_revocation')
  return { ok: true, value: null }
}
