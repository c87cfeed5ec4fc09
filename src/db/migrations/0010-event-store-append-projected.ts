import { sql, type Kysely } from 'kysely'

// A command in one round trip: the append (event_store_append, migration 0005) and the inline
// projections' writes in one statement, so one implicit transaction with no begin and commit.
//
// The projections decide their rows in the application before the append (they know the state
// the command decided on) and hand over each write as SQL text and a JSON payload. The function
// runs them after the events are inserted and only when the append succeeded: the stream rows stay
// the transaction's first writes (commit order), the projection tables are locked after the
// streams' append locks (the same lock order as the transaction path), and a conflict writes
// nothing. A write reads the appended events' generated columns from $1, a JSON array of
// {ord, stream_version, global_position, recorded_at} where ord is the event's 1-based position
// in the input, and its own payload from $2. The SQL text is the service's own, never input.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function event_store_append_projected(
      p_streams text[], p_stream_types text[], p_store_ids text[], p_expected text[], p_counts integer[],
      p_event_stream integer[], p_event_ids uuid[], p_types text[], p_schema_versions integer[], p_data text[], p_metadata text[],
      p_writes text[], p_payloads text[]
    ) returns table (kind text, stream_id text, version bigint, global_position bigint, transaction_id text, recorded_at timestamptz, epoch integer)
    language plpgsql as $$
    #variable_conflict use_column
    declare
      result jsonb;
      appended jsonb;
      conflicted boolean;
      i integer;
    begin
      select jsonb_agg(to_jsonb(a) order by a.n),
             coalesce(jsonb_agg(jsonb_build_object('ord', a.ord, 'stream_version', a.version, 'global_position', a.global_position, 'recorded_at', a.recorded_at) order by a.n) filter (where a.kind = 'e'), '[]'::jsonb),
             coalesce(bool_or(a.kind = 'c'), false)
        into result, appended, conflicted
        from (
          select f.*, row_number() over (partition by f.kind order by f.n) as ord
          from event_store_append(p_streams, p_stream_types, p_store_ids, p_expected, p_counts,
            p_event_stream, p_event_ids, p_types, p_schema_versions, p_data, p_metadata)
            with ordinality f(kind, stream_id, version, global_position, transaction_id, recorded_at, epoch, n)
        ) a;
      if not conflicted then
        for i in 1 .. coalesce(cardinality(p_writes), 0) loop
          execute p_writes[i] using appended, p_payloads[i]::jsonb;
        end loop;
      end if;
      return query
        select r.kind, r.stream_id, r.version, r.global_position, r.transaction_id, r.recorded_at, r.epoch
        from jsonb_to_recordset(result) as r(kind text, stream_id text, version bigint, global_position bigint, transaction_id text, recorded_at timestamptz, epoch integer, n bigint)
        order by r.n;
    end $$`.execute(db)
}
