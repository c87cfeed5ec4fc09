import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// Names for the apps and OAuth clients a store's history mentions (deleted apps keep their name:
// the history still shows who did what).
export async function appNames(db: Kysely<Database>, storeId: string): Promise<Map<string, string>> {
  const [apps, grants] = await Promise.all([
    db.selectFrom('apps').select(['app_id', 'name']).where('store_id', '=', storeId).execute(),
    db
      .selectFrom('oauth_grants')
      .select(['client_id', 'grant_id', 'client_name'])
      .where('store_id', '=', storeId)
      .execute(),
  ])
  const names = new Map<string, string>()
  for (const g of grants) {
    names.set(g.client_id, g.client_name)
    names.set(g.grant_id, g.client_name)
  }
  for (const a of apps) names.set(a.app_id, a.name)
  return names
}

// Every app of the store by name, deleted ones included (their activity stays).
export function appsByName(db: Kysely<Database>, storeId: string) {
  return db.selectFrom('apps').select(['app_id', 'name']).where('store_id', '=', storeId).orderBy('name').execute()
}
