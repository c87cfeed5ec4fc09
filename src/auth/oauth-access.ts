import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { refusal, type Authentication, type CallContext } from './authenticate.ts'

export const ACCESS_TOKEN_PREFIX = 'sfat_'
export const REFRESH_TOKEN_PREFIX = 'sfrt_'

// The resources a token may be issued for (RFC 8707). They are one API: a token for either
// works on both, so the audience check only refuses tokens minted for another deployment.
export const oauthResources = (baseUrl: string) => [`${baseUrl}/api/v1/mcp`, `${baseUrl}/api/v1`] as const

// Only a recorded use older than this is written again, so a busy token costs no write per request.
const LAST_USED_RESOLUTION_MS = 60_000

// An OAuth access token (sfat_…) as a principal: store and scopes from its grant, checked live
// (a revoked grant stops its tokens at once).
export async function authenticateAccessToken(db: Kysely<Database>, tokenHash: string, context: CallContext): Promise<Authentication> {
  const now = context.now
  const row = await db
    .selectFrom('oauth_tokens as t')
    .innerJoin('oauth_grants as g', 'g.grant_id', 't.grant_id')
    .select(['t.kind', 't.store_id', 't.scopes', 't.resource', 't.expires_at', 't.revoked_at', 'g.grant_id', 'g.app_id', 'g.client_id', 'g.store_id as grant_store_id', 'g.revoked_at as grant_revoked_at', 'g.last_used_at'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst()
  if (!row || row.kind !== 'access') return refusal('unknown')
  if (!(oauthResources(context.baseUrl) as readonly string[]).includes(row.resource)) return refusal('unknown')
  if (row.revoked_at || row.grant_revoked_at) return refusal('revoked')
  if (new Date(row.expires_at) <= now) return refusal('expired')
  if (!row.last_used_at || now.getTime() - new Date(row.last_used_at).getTime() > LAST_USED_RESOLUTION_MS) {
    await db.updateTable('oauth_grants').set({ last_used_at: now }).where('grant_id', '=', row.grant_id).execute()
  }
  return {
    ok: true,
    caller: { storeId: row.grant_store_id, scopes: new Set(row.scopes), actor: { kind: 'oauth', credentialId: row.grant_id, appId: row.app_id ?? row.client_id }, channel: context.channel, requestId: context.requestId },
  }
}
