import { sql, type Kysely } from 'kysely'

// A theme's document (about 6 KB of JSON) is compressed into TOAST on every write of its row, that
// is by every command on the theme. With pglz, PostgreSQL's default, that cost about 110 µs of
// PostgreSQL CPU per command; lz4 does the same in about 75 µs and decompresses several times
// faster for every read that sends the document (a getTheme miss, a storefront render). Measured
// as 5,000 updates of the demo theme's row in a PL/pgSQL loop, 2026-11-24.
//
// Only where the server was built with lz4 (Debian's and most distributions' PostgreSQL are; a
// server without it refuses the method): elsewhere the column keeps pglz and nothing else changes.
// Rows already written keep their compression until they are written again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    do $$
    begin
      alter table themes alter column document set compression lz4;
    exception when feature_not_supported then
      raise notice 'lz4 is not available here: themes.document keeps pglz';
    end $$`.execute(db)
}
