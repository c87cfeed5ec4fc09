import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { AppError } from '../errors.ts'
import type { Caller, CallerChannel } from './caller.ts'
import { API_KEY_PREFIX, hashCredential } from './credentials.ts'
import { ACCESS_TOKEN_PREFIX, authenticateAccessToken } from './oauth-access.ts'

// A credential (later: a dashboard session) becomes a Caller or a refusal. Each adapter renders
// the refusal its own way: REST a 401 envelope with its challenge, MCP a 401 with
// resource_metadata, the dashboard a redirect to sign-in.

export type RefusalReason = 'missing' | 'malformed' | 'unknown' | 'expired' | 'revoked'
export type Refusal = { reason: RefusalReason; error: AppError<'UNAUTHENTICATED'> }
export type Authentication = { ok: true; caller: Caller } | { ok: false; refusal: Refusal }

// baseUrl: the audience an OAuth access token must have been issued for.
export type CallContext = { channel: CallerChannel; requestId: string; now: Date; baseUrl: string }

export function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined || header === '') return undefined
  const match = /^Bearer +([\x21-\x7e]{1,512})\s*$/i.exec(header)
  return match ? match[1]! : null
}

export function refusal(reason: RefusalReason): { ok: false; refusal: Refusal } {
  const message = reason === 'missing' ? 'a bearer credential is required' : `the credential is ${reason === 'unknown' || reason === 'malformed' ? 'not valid' : reason}`
  return { ok: false, refusal: { reason, error: { code: 'UNAUTHENTICATED', message } } }
}

// The Authorization header of an agent's request: an API key or an OAuth access token.
export async function authenticateBearer(db: Kysely<Database>, header: string | undefined, context: CallContext): Promise<Authentication> {
  const token = bearerToken(header)
  if (token === undefined) return refusal('missing')
  if (token === null) return refusal('malformed')
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) return authenticateAccessToken(db, hashCredential(token), context)
  if (!token.startsWith(API_KEY_PREFIX)) return refusal('unknown')
  const key = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', hashCredential(token)).executeTakeFirst()
  if (!key) return refusal('unknown')
  if (key.revoked_at) return refusal('revoked')
  if (key.expires_at && new Date(key.expires_at) <= context.now) return refusal('expired')
  return {
    ok: true,
    caller: { storeId: key.store_id, scopes: new Set(key.scopes), actor: { kind: 'api_key', credentialId: key.key_id, appId: key.app_id }, channel: context.channel, requestId: context.requestId },
  }
}
