import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { Actor } from '../events/event-store.ts'
import { base62, newId } from '../ids.ts'
import { isScope, type Scope } from '../operations/scopes.ts'

export const API_KEY_PREFIX = 'sk_live_'

// 43 base62 characters carry 256 bits; only the SHA-256 of a credential is ever stored.
export const hashCredential = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex')

export type Principal = { storeId: string; scopes: ReadonlySet<string>; actor: Actor }

export type Authenticated = { ok: true; principal: Principal } | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'expired' | 'revoked' }

export function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined || header === '') return undefined
  const match = /^Bearer +([\x21-\x7e]{1,512})\s*$/i.exec(header)
  return match ? match[1]! : null
}

export async function authenticate(db: Kysely<Database>, header: string | undefined, now: Date = new Date()): Promise<Authenticated> {
  const token = bearerToken(header)
  if (token === undefined) return { ok: false, reason: 'missing' }
  if (token === null) return { ok: false, reason: 'malformed' }
  if (!token.startsWith(API_KEY_PREFIX)) return { ok: false, reason: 'unknown' }
  const key = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', hashCredential(token)).executeTakeFirst()
  if (!key) return { ok: false, reason: 'unknown' }
  if (key.revoked_at) return { ok: false, reason: 'revoked' }
  if (key.expires_at && new Date(key.expires_at) <= now) return { ok: false, reason: 'expired' }
  return { ok: true, principal: { storeId: key.store_id, scopes: new Set(key.scopes), actor: { kind: 'api_key', credentialId: key.key_id, appId: key.app_id } } }
}

export async function ensureApp(db: Kysely<Database>, input: { storeId: string; name: string }): Promise<string> {
  const existing = await db.selectFrom('apps').select('app_id').where('store_id', '=', input.storeId).where('name', '=', input.name).executeTakeFirst()
  if (existing) return existing.app_id
  const appId = newId('app')
  await db.insertInto('apps').values({ app_id: appId, store_id: input.storeId, name: input.name, client_id: `cli_${base62(24)}`, client_secret_hash: null, redirect_uris: [] }).execute()
  return appId
}

export async function createApiKey(db: Kysely<Database>, input: { storeId: string; appId: string; name: string; scopes: readonly string[]; expiresAt?: Date | null }): Promise<{ key: string; keyId: string; scopes: Scope[] }> {
  const unknown = input.scopes.filter((s) => !isScope(s))
  if (unknown.length > 0) throw new Error(`unknown scopes: ${unknown.join(', ')}`)
  const key = `${API_KEY_PREFIX}${base62(43)}`
  const keyId = newId('key')
  const scopes = [...new Set(input.scopes)] as Scope[]
  await db
    .insertInto('api_keys')
    .values({ key_id: keyId, app_id: input.appId, store_id: input.storeId, name: input.name, key_hash: hashCredential(key), key_hint: `${key.slice(0, API_KEY_PREFIX.length + 4)}…`, scopes, expires_at: input.expiresAt ?? null })
    .execute()
  return { key, keyId, scopes }
}

export async function revokeApiKey(db: Kysely<Database>, keyId: string): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: new Date() }).where('key_id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}
