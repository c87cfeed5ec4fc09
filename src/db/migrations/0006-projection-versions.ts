import { sql, type Kysely } from 'kysely'

// Which code version of each projection built its live tables, so `projections:status` can say
// that a rebuild is needed after a projection's code changed. No row means version 1 (tables
// built before versions were recorded).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table projection_versions (
      name text primary key,
      code_version integer not null,
      built_at timestamptz not null default now()
    )`.execute(db)
}
