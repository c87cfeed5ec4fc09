import { sql, type Kysely } from 'kysely'

// getContext reads the theme headers from the themes projection (one row per theme) instead of a
// per-store copy in store_context.themes. That copy made every theme command of a store update one
// shared row, so commands on different themes of one store waited on each other's row lock until
// commit. store_context keeps the catalogue part only, which the platform's version bump refreshes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table store_context drop column themes`.execute(db)
  await sql`delete from projection_checkpoints where name = 'store_context'`.execute(db)
  await sql`delete from projection_versions where name = 'store_context'`.execute(db)
}
