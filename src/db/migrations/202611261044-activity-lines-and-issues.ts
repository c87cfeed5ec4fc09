import { sql, type Kysely } from 'kysely'

// The developer-activity view reads as an account of what happened (issue 34 A):
// * lines: what each command changed in the merchant's words, as data (src/aggregates/merchant-line.ts);
// * issues: a refusal's problems as the caller was told them (the first 20), and issue_count how
//   many there were. Null on rows written before: the view says their problems were not kept.
// The activity projection's prepared insert (migration 0012) writes the new columns too.
// Existing rows keep null lines until `npm run projections:rebuild` (the projection's version
// says one is due), which describes them again from their events.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table developer_activity add column lines jsonb, add column issues jsonb, add column issue_count integer`.execute(
    db,
  )
  await sql`
    create or replace function sfts_project_activity_insert(bigint[], bigint[], timestamptz, jsonb) returns void language plpgsql as $fn$
    begin
    insert into developer_activity (command_id, store_id, occurred_at, first_position, last_position, action, outcome, theme_id,
      channel, tool, credential_kind, credential_id, app_id, request_id, summary, changes, error_code, lines, issues, issue_count)
    select r.command_id, r.store_id, date_trunc('milliseconds', $3), $1[r.first_ord], $1[r.last_ord], r.action, r.outcome, r.theme_id,
      r.channel, r.tool, r.credential_kind, r.credential_id, r.app_id, r.request_id, r.summary, r.changes, r.error_code,
      r.lines, r.issues, r.issue_count
    from jsonb_to_recordset($4) as r(command_id text, store_id text, first_ord integer, last_ord integer, action text, outcome text, theme_id text,
      channel text, tool text, credential_kind text, credential_id text, app_id text, request_id text, summary text, changes jsonb, error_code text,
      lines jsonb, issues jsonb, issue_count integer);
    end
    $fn$`.execute(db)
}
