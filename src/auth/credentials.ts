import { hash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { base62, newId } from '../ids.ts'
import { isScope, type Scope } from './scopes.ts'

export const API_KEY_PREFIX = 'sk_live_'

// How a key is shown after it was shown once, wherever it is shown (the app page, the activity
// details, the CLI): its prefix and its last four characters, "sk_live_…a1B2".
export const keyHint = (key: string) => `${key.slice(0, API_KEY_PREFIX.length)}…${key.slice(-4)}`
export const CLIENT_ID_PREFIX = 'sfc_'
export const CLIENT_SECRET_PREFIX = 'sfcs_'

export const newClientId = () => `${CLIENT_ID_PREFIX}${base62(24)}`
// 43 base62 characters: 256 bits, like API keys; only its SHA-256 is stored.
export const newClientSecret = () => `${CLIENT_SECRET_PREFIX}${base62(43)}`

// 43 base62 characters carry 256 bits; only the SHA-256 of a credential is ever stored. Every
// authenticated request hashes its credential twice (rate-limit key, authentication): the one-shot
// hash is 0.3 µs where a Hash object was 0.7.
export const hashCredential = (secret: string) => hash('sha256', secret, 'hex')

export async function ensureApp(db: Kysely<Database>, input: { storeId: string; name: string }): Promise<string> {
  const existing = await db
    .selectFrom('apps')
    .select('app_id')
    .where('store_id', '=', input.storeId)
    .where('name', '=', input.name)
    .executeTakeFirst()
  if (existing) return existing.app_id
  const appId = newId('app')
  await db
    .insertInto('apps')
    .values({
      app_id: appId,
      store_id: input.storeId,
      name: input.name,
      client_id: newClientId(),
      client_secret_hash: null,
      redirect_uris: [],
      kind: 'public',
    })
    .execute()
  return appId
}

export async function createApiKey(
  db: Kysely<Database>,
  input: { storeId: string; appId: string; name: string; scopes: readonly string[]; expiresAt?: Date | null },
): Promise<{ key: string; keyId: string; scopes: Scope[] }> {
  const unknown = input.scopes.filter((s) => !isScope(s))
  if (unknown.length > 0) throw new Error(`unknown scopes: ${unknown.join(', ')}`)
  const key = `${API_KEY_PREFIX}${base62(43)}`
  const keyId = newId('key')
  const scopes = [...new Set(input.scopes)] as Scope[]
  await db
    .insertInto('api_keys')
    .values({
      key_id: keyId,
      app_id: input.appId,
      store_id: input.storeId,
      name: input.name,
      key_hash: hashCredential(key),
      key_hint: keyHint(key),
      scopes,
      expires_at: input.expiresAt ?? null,
    })
    .execute()
  return { key, keyId, scopes }
}

export async function revokeApiKey(db: Kysely<Database>, keyId: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('key_id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}
