import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// Readiness: the database answers a statement (it throws when it does not).
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db)
}
