import { sql, type Kysely } from 'kysely'

// Read models shaped for the hot reads (issue 12).
//
// store_context: one row per store for getContext. `themes` is a projection of the theme events
// (themeId -> header with its stream version); the catalogue part (first page of products and
// collections as summaries) is a copy taken at `catalog_version` of stores.catalog_version with
// absolute URLs for `base_url`, refreshed when either differs from what the reader expects.
//
// product_cards: each product as the API returns it (JSON text, keys in contract order), with the
// columns listProducts filters and pages on, so a page is one read of one table. Built per store at
// the catalog_version recorded in product_cards_state, again refreshed when the version moves.
const UTC_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`
const at = (column: string) =>
  sql.raw(`case when ${column} is null then null else to_char(${column} at time zone 'UTC', ${UTC_MS}) end`)

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table store_context (
      store_id text primary key,
      themes jsonb not null default '{}'::jsonb,
      catalog_version integer not null default 0,
      base_url text not null default '',
      products jsonb not null default '[]'::jsonb,
      products_after jsonb,
      collections jsonb not null default '[]'::jsonb,
      collections_after jsonb
    )`.execute(db)
  // Stores that already have themes: the projection's rows as a rebuild would write them.
  await sql`
    insert into store_context (store_id, themes)
    select store_id, jsonb_object_agg(theme_id, jsonb_build_object(
      'themeId', theme_id, 'storeId', store_id, 'name', name, 'provider', provider, 'status', status, 'version', version,
      'duplicatedFrom', duplicated_from, 'createdAt', ${at('created_at')}, 'updatedAt', ${at('updated_at')},
      'publishedAt', ${at('published_at')}, 'archivedAt', ${at('archived_at')}, 'lastPreviewAt', ${at('last_preview_at')},
      'lastPreviewedVersion', last_previewed_version, 'streamVersion', stream_version))
    from themes group by store_id`.execute(db)
  await sql`
    create table product_cards (
      product_id text primary key,
      store_id text not null,
      created_at timestamptz not null,
      cursor_ts text not null,
      status text not null,
      title text not null,
      collection_ids text[] not null,
      card text not null
    )`.execute(db)
  await sql`create index product_cards_by_store on product_cards (store_id, created_at, product_id)`.execute(db)
  await sql`
    create table product_cards_state (
      store_id text primary key,
      catalog_version integer not null,
      base_url text not null
    )`.execute(db)
}
