import type { Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'

// Who a client_id names, as src/oauth/clients.ts looks it up: an app the merchant created in the
// dashboard (live ones only), or a client stored by registration or by its metadata document.

export async function dashboardAppClient(db: Kysely<Database>, clientId: string) {
  return db
    .selectFrom('apps')
    .select(['app_id', 'store_id', 'name', 'client_id', 'client_secret_hash', 'redirect_uris'])
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

export async function storedClient(db: Kysely<Database>, clientId: string) {
  return db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst()
}

// Registrations from one address since a time: how many, and when the oldest of them was made.
export async function registrationsFrom(
  db: Kysely<Database>,
  address: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const row = await db
    .selectFrom('oauth_clients')
    .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('created_at').as('oldest')])
    .where('registered_from', '=', address)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow()
  return { count: Number(row.n), oldest: row.oldest ? new Date(row.oldest) : null }
}
