import { sql, type Kysely } from 'kysely'

// The events → streams foreign key is replaced by what it guarded, kept more cheaply.
//
// The key checked every inserted event with a query of its own (an index lookup and a row lock
// on its stream): a tenth of PostgreSQL's time per append, ten checks for an agent's ten-edit
// batch (pgbench on one append, and bench:api, 2026-11-26). Those checks could not fail: the one
// writer of events, the append function (migration 0009), writes each stream's row in the same
// statement, before its events. What the key also did is kept by triggers on streams: a stream's
// row is never deleted, truncated or renamed, so every event keeps its stream. Appends only
// update a stream's version, which these triggers do not look at.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events drop constraint if exists events_stream_id_fkey`.execute(db)
  await sql`
    create function streams_are_kept() returns trigger language plpgsql as $$
    begin
      raise exception 'streams are kept: % refused', tg_op using errcode = 'restrict_violation';
    end $$`.execute(db)
  await sql`create trigger streams_no_delete before delete on streams for each row execute function streams_are_kept()`.execute(
    db,
  )
  await sql`create trigger streams_no_rename before update of stream_id on streams for each row
    when (old.stream_id is distinct from new.stream_id) execute function streams_are_kept()`.execute(db)
  await sql`create trigger streams_no_truncate before truncate on streams for each statement execute function streams_are_kept()`.execute(
    db,
  )
}
