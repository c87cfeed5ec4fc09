import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { idempotencyRecord, type IdempotencyKey } from '../queries/idempotency.ts'

// The records behind REST's Idempotency-Key (src/http/idempotency.ts reads the header): one per
// store, operation and key, holding the first response's exact bytes for 24 hours.

export const IDEMPOTENCY_TTL_HOURS = 24
// A claim older than this with no response is taken as abandoned (its process died).
const ABANDONED_AFTER_SECONDS = 60

export type Scope = IdempotencyKey
export type StoredResponse = { status: number; body: string; headers: Record<string, string> }
export type Claim =
  | { kind: 'proceed' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in_use' }
  | { kind: 'reused' }

// One statement claims the key: a new key, an expired one or an abandoned one is taken; anything
// else is left alone and inspected. Concurrent retries therefore see exactly one "proceed".
export async function claim(db: Kysely<Database>, scope: Scope, hash: string): Promise<Claim> {
  const { rows } = await sql<{ idem_key: string }>`
    insert into idempotency_keys (store_id, operation, idem_key, request_hash, state, expires_at)
    values (${scope.storeId}, ${scope.operation}, ${scope.key}, ${hash}, 'in_flight', now() + make_interval(hours => ${IDEMPOTENCY_TTL_HOURS}))
    on conflict (store_id, operation, idem_key) do update set
      request_hash = excluded.request_hash, state = 'in_flight', response_status = null, response_body = null,
      response_headers = null, created_at = now(), expires_at = excluded.expires_at
    where idempotency_keys.expires_at < now()
       or (idempotency_keys.state = 'in_flight' and idempotency_keys.created_at < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS}))
    returning idem_key`.execute(db)
  if (rows.length > 0) return { kind: 'proceed' }
  const row = await idempotencyRecord(db, scope)
  if (!row) return claim(db, scope, hash)
  if (row.request_hash !== hash) return { kind: 'reused' }
  if (row.state === 'in_flight') return { kind: 'in_use' }
  return {
    kind: 'replay',
    response: {
      status: row.response_status!,
      body: row.response_body ?? '',
      headers: (row.response_headers ?? {}) as Record<string, string>,
    },
  }
}

export async function complete(db: Kysely<Database>, scope: Scope, response: StoredResponse): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      state: 'done',
      response_status: response.status,
      response_body: response.body,
      response_headers: JSON.stringify(response.headers),
    })
    .where('store_id', '=', scope.storeId)
    .where('operation', '=', scope.operation)
    .where('idem_key', '=', scope.key)
    .execute()
}

// 5xx responses are not stored: the key is released so a retry runs again.
export async function release(db: Kysely<Database>, scope: Scope): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('store_id', '=', scope.storeId)
    .where('operation', '=', scope.operation)
    .where('idem_key', '=', scope.key)
    .where('state', '=', 'in_flight')
    .execute()
}

export async function purgeExpired(db: Kysely<Database>): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<', new Date()).executeTakeFirst()
  return Number(result.numDeletedRows)
}
