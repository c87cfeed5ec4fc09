import { sql, type Kysely } from 'kysely'

// The inline projections' writes as PL/pgSQL functions. The append (migration 0009) runs each
// write with EXECUTE, which parses and plans its text on every call: for the themes upsert that
// was about 130 µs of PostgreSQL's CPU per command, spent again and again on the same statement.
// A function's static statements are planned once per connection and the plan kept, so the
// projections now hand the append `select sfts_project_…($1, $2, $3, $4)` (a call, cheap to plan)
// and the statements live here, unchanged: $1 the appended events' global positions (bigint[]),
// $2 their stream versions (bigint[]), by 1-based input position (ord); $3 the time they were
// recorded; $4 the write's payload (jsonb, shaped by its projection in src/projections).
const WRITES: Record<string, string> = {
  // themes-projection.ts: the row as the projection decided it; an older stream version never wins.
  sfts_project_themes_upsert: `
    insert into themes (theme_id, store_id, name, provider, status, version, stream_version, document, document_bytes, duplicated_from,
      created_at, updated_at, published_at, archived_at, last_preview_at, last_previewed_version)
    select r.theme_id, r.store_id, r.name, r.provider, r.status, r.version, $2[($4->>'ord')::integer], r.document, r.document_bytes, r.duplicated_from,
      r.created_at, r.updated_at, r.published_at, r.archived_at, r.last_preview_at, r.last_previewed_version
    from jsonb_populate_record(null::themes, $4) r
    on conflict (theme_id) do update set
      name = excluded.name, status = excluded.status, version = excluded.version, stream_version = excluded.stream_version,
      document = excluded.document, document_bytes = excluded.document_bytes, updated_at = excluded.updated_at,
      published_at = excluded.published_at, archived_at = excluded.archived_at, last_preview_at = excluded.last_preview_at,
      last_previewed_version = excluded.last_previewed_version
    where themes.stream_version < excluded.stream_version`,
  // activity-projection.ts: a plain insert (an existing row fails it: the append retries through apply).
  sfts_project_activity_insert: `
    insert into developer_activity (command_id, store_id, occurred_at, first_position, last_position, action, outcome, theme_id,
      channel, tool, credential_kind, credential_id, app_id, request_id, summary, changes, error_code)
    select r.command_id, r.store_id, date_trunc('milliseconds', $3), $1[r.first_ord], $1[r.last_ord], r.action, r.outcome, r.theme_id,
      r.channel, r.tool, r.credential_kind, r.credential_id, r.app_id, r.request_id, r.summary, r.changes, r.error_code
    from jsonb_to_recordset($4) as r(command_id text, store_id text, first_ord integer, last_ord integer, action text, outcome text, theme_id text,
      channel text, tool text, credential_kind text, credential_id text, app_id text, request_id text, summary text, changes jsonb, error_code text)`,
  // live-themes-projection.ts
  sfts_project_live_themes_upsert: `
    insert into live_themes (store_id, theme_id, stream_version, changed_at)
    select r.store_id, r.theme_id, $2[r.ord], r.changed_at
    from jsonb_to_record($4) as r(store_id text, theme_id text, changed_at timestamptz, ord integer)
    on conflict (store_id) do update set theme_id = excluded.theme_id, stream_version = excluded.stream_version, changed_at = excluded.changed_at
    where live_themes.stream_version < excluded.stream_version`,
  // media-projection.ts
  sfts_project_media_insert: `
    insert into media_assets (asset_id, store_id, url, source, content_type, byte_size, width, height, sha256, alt, created_at)
    select r.asset_id, r.store_id, r.url, r.source, r.content_type, r.byte_size, r.width, r.height, r.sha256, r.alt, r.created_at
    from jsonb_populate_recordset(null::media_assets, $4) r
    on conflict (asset_id) do nothing`,
  // navigation-projection.ts: drop the menus older than the event, then insert its menus unless newer ones are there.
  sfts_project_navigation_delete: `
    delete from navigation_menus m
    using jsonb_to_record($4) as r(store_id text, ord integer)
    where m.store_id = r.store_id and m.stream_version < $2[r.ord]`,
  sfts_project_navigation_insert: `
    insert into navigation_menus (store_id, handle, title, items, stream_version, updated_at)
    select r.store_id, x.handle, x.title, x.items, $2[r.ord], r.updated_at
    from jsonb_to_record($4) as r(store_id text, ord integer, updated_at timestamptz, menus jsonb)
    cross join jsonb_to_recordset(r.menus) as x(handle text, title text, items jsonb)
    where not exists (select 1 from navigation_menus m where m.store_id = r.store_id)`,
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, statement] of Object.entries(WRITES)) {
    await sql`create function ${sql.id(name)}(bigint[], bigint[], timestamptz, jsonb) returns void language plpgsql as ${sql.lit(`begin ${statement}; end`)}`.execute(
      db,
    )
  }
}
