import { sql, type Kysely } from 'kysely'

// Read models built from events. Each can be dropped and rebuilt from the event store.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table themes (
      theme_id text primary key,
      store_id text not null,
      name text not null,
      provider text not null,
      status text not null check (status in ('draft', 'private', 'active', 'archived')),
      version integer not null,
      stream_version bigint not null,
      document jsonb not null,
      document_bytes integer not null,
      duplicated_from text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      published_at timestamptz,
      archived_at timestamptz,
      last_preview_at timestamptz,
      last_previewed_version integer
    )`.execute(db)
  await sql`create index themes_by_store on themes (store_id, created_at, theme_id)`.execute(db)
  await sql`
    create table live_themes (
      store_id text primary key,
      theme_id text,
      stream_version bigint not null,
      changed_at timestamptz not null
    )`.execute(db)
  await sql`
    create table developer_activity (
      command_id text primary key,
      store_id text not null,
      occurred_at timestamptz not null,
      first_position bigint not null,
      last_position bigint not null,
      action text not null,
      outcome text not null check (outcome in ('applied', 'rejected')),
      theme_id text,
      channel text not null,
      tool text,
      credential_kind text not null,
      credential_id text,
      app_id text,
      request_id text,
      summary text not null,
      changes jsonb not null,
      error_code text
    )`.execute(db)
  await sql`create index developer_activity_by_store on developer_activity (store_id, occurred_at desc, command_id)`.execute(
    db,
  )
  await sql`
    create table navigation_menus (
      store_id text not null,
      handle text not null,
      title text not null,
      items jsonb not null,
      stream_version bigint not null,
      updated_at timestamptz not null,
      primary key (store_id, handle)
    )`.execute(db)
  await sql`
    create table media_assets (
      asset_id text primary key,
      store_id text not null,
      url text not null,
      source text not null check (source in ('upload', 'url')),
      content_type text,
      byte_size integer,
      width integer,
      height integer,
      sha256 text,
      alt text not null,
      created_at timestamptz not null
    )`.execute(db)
  await sql`create index media_assets_by_store on media_assets (store_id, created_at, asset_id)`.execute(db)
}
