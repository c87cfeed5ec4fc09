import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// How many events a store's log holds (an export's progress counts against it).
export async function storeEventCount(db: Kysely<Database>, storeId: string): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('store_id', '=', storeId)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}
