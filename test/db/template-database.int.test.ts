import { type Kysely, sql } from 'kysely'
import t from 'tap'
import type { Database } from '../../src/db/database.ts'
import { emptyDatabase, freshDatabase } from '../support/database.ts'
import { fillStep, type TemplateContents, templateSources } from '../support/template-database.ts'

// A test file's database is a copy of a template made once (test/support/template-database.ts).
// The copy must be what the migrations and the seed make on an empty database, and the template's
// name must change with every file they are made from, or tests would run on a stale schema.

// The schema: every column, index, constraint, function (with its body), trigger and sequence.
async function schema(db: Kysely<Database>) {
  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(db)).rows
  return {
    columns: await rows(sql`
      select table_name, column_name, data_type, column_default, is_nullable
      from information_schema.columns where table_schema = 'public' order by 1, 2`),
    indexes: await rows(sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1`),
    constraints: await rows(sql`
      select conrelid::regclass::text as tbl, conname, pg_get_constraintdef(oid) as def
      from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`),
    functions: await rows(sql`
      select proname, pg_get_function_identity_arguments(oid) as args, md5(prosrc) as body
      from pg_proc where pronamespace = 'public'::regnamespace order by 1, 2`),
    triggers: await rows(sql`
      select tgrelid::regclass::text as tbl, tgname, pg_get_triggerdef(oid) as def
      from pg_trigger where not tgisinternal order by 1, 2`),
    sequences: await rows(sql`
      select sequencename, last_value from pg_sequences where schemaname = 'public' order by 1`),
    migrations: await rows(sql`select name from kysely_migration order by name`),
  }
}

const tables = async (db: Kysely<Database>) =>
  (
    await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(db)
  ).rows.map((r) => r.name)

// Values made afresh by every seed: generated ids, secrets' hashes and hints, clocks and
// transaction ids. Everything else of a row is the seed's data and must match.
const VOLATILE =
  /^(theme_id|event_id|command_id|key_id|app_id|merchant_id|key_hash|key_hint|password_hash|value|request_id|credential_id|stream_id|transaction_id|first_xid|timestamp|.*_at)$/

// A table's rows, volatile values masked, in a stable order; JSON inside rows (event data,
// theme documents, activity) is compared whole, its generated ids replaced by their kind.
async function content(db: Kysely<Database>, table: string): Promise<string[]> {
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)
  return rows
    .map((row) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(row)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, VOLATILE.test(k) ? typeof v : v]),
        ),
      )
        // Generated ids (src/ids.ts: a prefix and 16 base62, client ids 24) wherever they appear;
        // the demo catalogue's ids are hex digests of their names, and must match.
        .replace(/\b([a-z]+)_([0-9A-Za-z]{16,})\b/g, (id, prefix: string, rest: string) =>
          /^[0-9a-f]+$/.test(rest) ? id : `${prefix}_*`,
        )
        .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, 'uuid')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)/g, 'time'),
    )
    .sort()
}

// What each template must hold besides the schema (and the one before it).
const HOLDS: Record<TemplateContents, string[]> = {
  migrated: [],
  commerce: ['stores', 'products', 'product_variants', 'collections', 'customers', 'orders', 'media_blobs'],
  demo: ['themes', 'live_themes', 'navigation_menus', 'media_assets', 'api_keys', 'developer_activity'],
}

// One database made from scratch step by step (migrations, then the catalogue, then the rest of
// the seed), each step held to a copy of its template: the way every test file's database was
// made before templates.
t.test('a copy of each template is what the migrations and the seed make from scratch', async (t) => {
  const scratch = (await emptyDatabase(t)).db
  for (const contents of ['migrated', 'commerce', 'demo'] as const) {
    await fillStep(scratch, contents)
    await t.test(`the ${contents} template`, async (t) => {
      const copy = (await freshDatabase(t, contents === 'migrated' ? {} : { seed: contents })).db
      t.same(await schema(copy), await schema(scratch), 'the same schema, migrations and sequences')
      const names = await tables(scratch)
      t.same(await tables(copy), names)
      for (const table of names)
        t.same(await content(copy, table), await content(scratch, table), `${table}: the same rows`)
      const count = async (table: string) =>
        Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(copy)).rows[0]!.n)
      for (const table of HOLDS[contents]) t.ok((await count(table)) > 0, `it holds ${table}`)
    })
  }
})

t.test('copies are separate: a write to one is not seen by the next', async (t) => {
  const first = (await freshDatabase(t, { seed: 'demo' })).db
  await first
    .updateTable('stores')
    .set({ name: 'Renamed by this test' })
    .where('store_id', '=', 'st_demo_atlas')
    .execute()
  const second = (await freshDatabase(t, { seed: 'demo' })).db
  const { name } = await second
    .selectFrom('stores')
    .select('name')
    .where('store_id', '=', 'st_demo_atlas')
    .executeTakeFirstOrThrow()
  t.not(name, 'Renamed by this test')
})

t.test("the template's name covers the migrations, the seed and what the seed runs through", async (t) => {
  const sources = templateSources()
  for (const path of [
    'src/db/migrations/0001-event-store.ts',
    'src/db/migrate.ts',
    'src/seed/seed-demo.ts',
    'src/seed/demo-catalog.ts',
    'src/aggregates/theme/decider.ts',
    'src/projections/index.ts',
    'package-lock.json',
    'test/support/template-database.ts',
  ])
    t.ok(sources.includes(path), path)
})
