import type { Kysely, SqlBool } from 'kysely'
import type { Database } from '../db/database.ts'

// The dashboard's view of a store's apps and their API keys. Secret and key hashes stay in the
// database: a page learns only whether a client secret is set and the hints it may show.

const APP_COLUMNS = [
  'app_id',
  'name',
  'kind',
  'client_id',
  'client_secret_hint',
  'redirect_uris',
  'created_at',
] as const

const withSecretFlag = <R extends { has_secret: SqlBool }>(row: R) => ({ ...row, has_secret: Boolean(row.has_secret) })

// The store's apps that are not deleted.
const liveApps = (db: Kysely<Database>, storeId: string) =>
  db
    .selectFrom('apps')
    .select(APP_COLUMNS)
    .select((eb) => eb('client_secret_hash', 'is not', null).as('has_secret'))
    .where('store_id', '=', storeId)
    .where('deleted_at', 'is', null)

/** The store's apps that are not deleted, oldest first. */
export async function listApps(db: Kysely<Database>, storeId: string) {
  return (await liveApps(db, storeId).orderBy('created_at').execute()).map(withSecretFlag)
}

export type AppView = Awaited<ReturnType<typeof listApps>>[number]

/** One app of the store, unless deleted. */
export async function findApp(db: Kysely<Database>, storeId: string, appId: string): Promise<AppView | undefined> {
  const row = await liveApps(db, storeId).where('app_id', '=', appId).executeTakeFirst()
  return row && withSecretFlag(row)
}

/** How many keys that are not revoked each app of the store holds. */
export async function activeKeyCounts(db: Kysely<Database>, storeId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['app_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('store_id', '=', storeId)
    .where('revoked_at', 'is', null)
    .groupBy('app_id')
    .execute()
  return new Map(rows.map((k) => [k.app_id, Number(k.n)]))
}

/** Every key of one app, revoked ones included, newest first. */
export function listApiKeys(db: Kysely<Database>, storeId: string, appId: string) {
  return db
    .selectFrom('api_keys')
    .select(['key_id', 'name', 'key_hint', 'scopes', 'created_at', 'last_used_at', 'revoked_at'])
    .where('app_id', '=', appId)
    .where('store_id', '=', storeId)
    .orderBy('created_at', 'desc')
    .execute()
}

/** Whether this key belongs to this app of the store. */
export async function isAppKey(db: Kysely<Database>, storeId: string, appId: string, keyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .select('key_id')
    .where('key_id', '=', keyId)
    .where('app_id', '=', appId)
    .where('store_id', '=', storeId)
    .executeTakeFirst()
  return row !== undefined
}

// A store's API keys as an operator lists them: never the key, only the hint of its first characters.
export async function storeApiKeys(db: Kysely<Database>, storeId: string) {
  return db
    .selectFrom('api_keys')
    .select(['key_id', 'name', 'key_hint', 'scopes', 'created_at', 'revoked_at'])
    .where('store_id', '=', storeId)
    .orderBy('created_at')
    .execute()
}
