import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// An Idempotency-Key's record, as a retry finds it (src/operations/idempotency.ts claims them).
export type IdempotencyKey = { storeId: string; operation: string; key: string }

export async function idempotencyRecord(db: Kysely<Database>, key: IdempotencyKey) {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('store_id', '=', key.storeId)
    .where('operation', '=', key.operation)
    .where('idem_key', '=', key.key)
    .executeTakeFirst()
}
