import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// A store's developer-activity rows, newest first (npm run activity), of one theme when asked.
export async function latestStoreActivity(
  db: Kysely<Database>,
  storeId: string,
  opts: { themeId?: string | undefined; limit: number },
) {
  let q = db.selectFrom('developer_activity').selectAll().where('store_id', '=', storeId)
  if (opts.themeId) q = q.where('theme_id', '=', opts.themeId)
  return q.orderBy('occurred_at', 'desc').orderBy('command_id', 'desc').limit(opts.limit).execute()
}
