import { sql, type Kysely } from 'kysely'

// The append-only event store. Commit order is (transaction_id, global_position):
// readers of "all" stop below the oldest transaction still running, so a later-numbered
// event that commits first never lets a reader skip an earlier-numbered one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table streams (
      stream_id text primary key,
      stream_type text not null,
      store_id text not null,
      version bigint not null check (version > 0),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db)
  await sql`create index streams_store on streams (store_id, stream_type)`.execute(db)
  await sql`
    create table events (
      global_position bigint generated always as identity primary key,
      transaction_id xid8 not null default pg_current_xact_id(),
      event_id uuid not null unique,
      stream_id text not null references streams (stream_id),
      stream_version bigint not null,
      store_id text not null,
      type text not null,
      schema_version integer not null default 1,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null default now(),
      unique (stream_id, stream_version)
    )`.execute(db)
  await sql`create index events_commit_order on events (transaction_id, global_position)`.execute(db)
  await sql`create index events_store_order on events (store_id, transaction_id, global_position)`.execute(db)
  await sql`
    create function events_are_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'events are append-only: % refused', tg_op using errcode = 'restrict_violation';
    end $$`.execute(db)
  await sql`create trigger events_no_update_or_delete before update or delete on events
    for each row execute function events_are_append_only()`.execute(db)
  await sql`create trigger events_no_truncate before truncate on events
    for each statement execute function events_are_append_only()`.execute(db)
  await sql`
    create table projection_checkpoints (
      name text primary key,
      transaction_id xid8 not null,
      global_position bigint not null,
      updated_at timestamptz not null default now()
    )`.execute(db)
}
