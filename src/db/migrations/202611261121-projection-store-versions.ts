import { sql, type Kysely } from 'kysely'

// Which code version built one store's rows of a projection (a per-store rebuild,
// src/projections/store-rebuild.ts), so a projection's new code can roll out store by store and
// `projections:status --store <id>` says what built what. A store without a row here has the rows
// of the projection's last whole-table build (projection_versions); a whole-table rebuild clears
// the projection's rows here.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table projection_store_versions (
      name text not null,
      store_id text not null,
      code_version integer not null,
      events bigint not null,
      built_at timestamptz not null default now(),
      primary key (name, store_id)
    )`.execute(db)
}
