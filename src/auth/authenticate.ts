import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { AppError } from '../errors.ts'
import type { Caller, CallerChannel } from './caller.ts'
import type { CachedCredential, CredentialCache } from './credential-cache.ts'
import { API_KEY_PREFIX, hashCredential } from './credentials.ts'
import type { LastUsedRecorder } from './last-used.ts'
import { ACCESS_TOKEN_PREFIX, lookUpAccessToken, oauthResources } from './oauth-access.ts'

// A credential (later: a dashboard session) becomes a Caller or a refusal. Each adapter renders
// the refusal its own way: REST a 401 envelope with its challenge, MCP a 401 with
// resource_metadata, the dashboard a redirect to sign-in.

export type RefusalReason = 'missing' | 'malformed' | 'unknown' | 'expired' | 'revoked'
export type Refusal = { reason: RefusalReason; error: AppError<'UNAUTHENTICATED'> }
export type Authentication = { ok: true; caller: Caller } | { ok: false; refusal: Refusal }

// baseUrl: the audience an OAuth access token must have been issued for.
export type CallContext = { channel: CallerChannel; requestId: string; now: Date; baseUrl: string }

// What authentication may use besides the database: the credential cache (src/auth/credential-cache.ts)
// and the batched last-used writer. Both optional: without them every request looks its credential up.
export type CredentialServices = { credentials?: CredentialCache; lastUsed?: LastUsedRecorder }

export function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined || header === '') return undefined
  const match = /^Bearer +([\x21-\x7e]{1,512})\s*$/i.exec(header)
  return match ? match[1]! : null
}

export function refusal(reason: RefusalReason): { ok: false; refusal: Refusal } {
  const message =
    reason === 'missing'
      ? 'a bearer credential is required'
      : `the credential is ${reason === 'unknown' || reason === 'malformed' ? 'not valid' : reason}`
  return { ok: false, refusal: { reason, error: { code: 'UNAUTHENTICATED', message } } }
}

// A verified credential (cached or just looked up) as the caller of this request: expiry and the
// OAuth audience are checked every time, against the cached values.
function admit(credential: CachedCredential, context: CallContext, extra: CredentialServices): Authentication {
  if (credential.expiresAt !== null && credential.expiresAt <= context.now.getTime()) return refusal('expired')
  if (
    credential.resource !== undefined &&
    !(oauthResources(context.baseUrl) as readonly string[]).includes(credential.resource)
  )
    return refusal('unknown')
  if (credential.actor.credentialId)
    extra.lastUsed?.touch(
      credential.grantId === undefined ? 'api_key' : 'oauth_grant',
      credential.actor.credentialId,
      context.now,
    )
  return {
    ok: true,
    caller: {
      storeId: credential.storeId,
      scopes: new Set(credential.scopes),
      actor: credential.actor,
      channel: context.channel,
      requestId: context.requestId,
    },
  }
}

async function lookUpApiKey(
  db: Kysely<Database>,
  hash: string,
  now: Date,
): Promise<CachedCredential | { refused: RefusalReason }> {
  const key = await db
    .selectFrom('api_keys')
    .select(['key_id', 'store_id', 'scopes', 'app_id', 'revoked_at', 'expires_at'])
    .where('key_hash', '=', hash)
    .executeTakeFirst()
  if (!key) return { refused: 'unknown' }
  if (key.revoked_at) return { refused: 'revoked' }
  const expiresAt = key.expires_at ? new Date(key.expires_at).getTime() : null
  if (expiresAt !== null && expiresAt <= now.getTime()) return { refused: 'expired' }
  return {
    storeId: key.store_id,
    scopes: new Set(key.scopes),
    actor: { kind: 'api_key', credentialId: key.key_id, appId: key.app_id },
    expiresAt,
  }
}

// The Authorization header of an agent's request: an API key or an OAuth access token.
export async function authenticateBearer(
  db: Kysely<Database>,
  header: string | undefined,
  context: CallContext,
  extra: CredentialServices = {},
): Promise<Authentication> {
  const token = bearerToken(header)
  if (token === undefined) return refusal('missing')
  if (token === null) return refusal('malformed')
  const isAccessToken = token.startsWith(ACCESS_TOKEN_PREFIX)
  if (!isAccessToken && !token.startsWith(API_KEY_PREFIX)) return refusal('unknown')
  const hash = hashCredential(token)
  const cached = extra.credentials?.get(hash)
  if (cached && 'hit' in cached) return admit(cached.hit, context, extra)
  const startedAt = extra.credentials?.clock() ?? 0
  const found = isAccessToken ? await lookUpAccessToken(db, hash, context) : await lookUpApiKey(db, hash, context.now)
  if ('refused' in found) return refusal(found.refused)
  if (cached) extra.credentials!.remember(hash, found, cached.ticket, startedAt)
  return admit(found, context, extra)
}
