import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// A store's API keys as an operator lists them: never the key, only the hint of its first characters.
export async function storeApiKeys(db: Kysely<Database>, storeId: string) {
  return db
    .selectFrom('api_keys')
    .select(['key_id', 'name', 'key_hint', 'scopes', 'created_at', 'revoked_at'])
    .where('store_id', '=', storeId)
    .orderBy('created_at')
    .execute()
}
