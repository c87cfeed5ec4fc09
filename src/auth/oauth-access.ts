import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { CallContext, RefusalReason } from './authenticate.ts'
import type { CachedCredential } from './credential-cache.ts'

export const ACCESS_TOKEN_PREFIX = 'sfat_'
export const REFRESH_TOKEN_PREFIX = 'sfrt_'

// The resources a token may be issued for (RFC 8707). They are one API: a token for either
// works on both, so the audience check only refuses tokens minted for another deployment.
export const oauthResources = (baseUrl: string) => [`${baseUrl}/api/v1/mcp`, `${baseUrl}/api/v1`] as const

// An OAuth access token (sfat_…) as a principal: store and scopes from its grant, checked live
// (a revoked grant stops its tokens at once; with the credential cache, within its stated bound).
// The grant's last use is noted by the caller (src/auth/last-used.ts writes it in batches).
export async function lookUpAccessToken(
  db: Kysely<Database>,
  tokenHash: string,
  context: CallContext,
): Promise<CachedCredential | { refused: RefusalReason }> {
  const row = await db
    .selectFrom('oauth_tokens as t')
    .innerJoin('oauth_grants as g', 'g.grant_id', 't.grant_id')
    .select([
      't.kind',
      't.scopes',
      't.resource',
      't.expires_at',
      't.revoked_at',
      'g.grant_id',
      'g.app_id',
      'g.client_id',
      'g.store_id as grant_store_id',
      'g.revoked_at as grant_revoked_at',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst()
  if (row?.kind !== 'access') return { refused: 'unknown' }
  if (!(oauthResources(context.baseUrl) as readonly string[]).includes(row.resource)) return { refused: 'unknown' }
  if (row.revoked_at || row.grant_revoked_at) return { refused: 'revoked' }
  const expiresAt = new Date(row.expires_at).getTime()
  if (expiresAt <= context.now.getTime()) return { refused: 'expired' }
  return {
    storeId: row.grant_store_id,
    scopes: new Set(row.scopes),
    actor: { kind: 'oauth', credentialId: row.grant_id, appId: row.app_id ?? row.client_id },
    expiresAt,
    resource: row.resource,
    grantId: row.grant_id,
  }
}
