import { sql, type Kysely } from 'kysely'

// A command in one round trip: the append and the inline projections' writes in one statement,
// so one implicit transaction with no begin and commit.
//
// The projections decide their rows in the application before the append (they know the state
// the command decided on) and hand over each write as SQL text and a JSON payload. The function
// runs them after the events are inserted and only when the append succeeded: the stream rows stay
// the transaction's first writes (commit order), the projection tables are locked after the
// streams' append locks (the same lock order as an append followed by projections in a
// transaction), and a conflict writes nothing. A write gets the appended events' generated columns
// by their 1-based position in the input (ord): $1 global positions (bigint[]), $2 stream versions
// (bigint[]), $3 the time they were recorded (one per transaction), and $4 its own payload (jsonb).
// The SQL text is the service's own, never input.
//
// Events' data and metadata come as JSON arrays (the client joins the JSON it has anyway: nothing
// to escape, and each distinct metadata object, one per command, is sent and parsed once):
// p_data holds one element per event, p_metadata the distinct metadata, p_event_metadata each
// event's 1-based index into it; p_payloads one element per write.
//
// The append itself is the one of migration 0005 (lock in one order, check every expected
// version, claim, insert, return the generated columns; a conflict returns one 'c' row and writes
// nothing), now written once here: event_store_append becomes this function without writes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function event_store_append_projected(
      p_streams text[], p_stream_types text[], p_store_ids text[], p_expected text[], p_counts integer[],
      p_event_stream integer[], p_event_ids uuid[], p_types text[], p_schema_versions integer[], p_data jsonb, p_metadata jsonb,
      p_event_metadata integer[], p_writes text[], p_payloads jsonb
    ) returns table (kind text, stream_id text, version bigint, global_position bigint, transaction_id text, recorded_at timestamptz, epoch integer)
    language plpgsql as $$
    #variable_conflict use_column
    declare
      ok boolean;
      i integer;
      current_version bigint;
      new_versions bigint[] := array_fill(0::bigint, array[cardinality(p_streams)]);
      expected text;
      current_epoch integer := event_store_epoch();
      positions bigint[];
      versions bigint[];
      recorded timestamptz;
      txid text;
    begin
      perform event_store_lock_streams(p_streams);
      for i in select o from unnest(p_streams) with ordinality u(s, o) order by s loop
        select s.version into current_version from streams s where s.stream_id = p_streams[i];
        expected := p_expected[i];
        ok := case expected
          when 'any' then true
          when 'no_stream' then current_version is null
          when '0' then current_version is null
          when 'exists' then current_version is not null
          else current_version is not distinct from expected::bigint
        end;
        if not ok then
          return query select 'c'::text, p_streams[i], current_version, null::bigint, null::text, null::timestamptz, null::integer;
          return;
        end if;
      end loop;
      for i in select o from unnest(p_streams) with ordinality u(s, o) order by s loop
        insert into streams as s (stream_id, stream_type, store_id, version)
        values (p_streams[i], p_stream_types[i], p_store_ids[i], p_counts[i])
        on conflict on constraint streams_pkey do update set version = s.version + excluded.version, updated_at = now()
        returning s.version into current_version;
        new_versions[i] := current_version;
        return query select 's'::text, p_streams[i], current_version, null::bigint, null::text, null::timestamptz, null::integer;
      end loop;
      if coalesce(cardinality(p_writes), 0) = 0 then
        -- Nothing to project: return the generated columns straight from the insert.
        return query
          with input as (
            select u.o, u.k, u.id, u.t, u.sv, p_data -> (u.o::integer - 1) as d, p_metadata -> (u.mi - 1) as m,
              new_versions[u.k] - p_counts[u.k] + row_number() over (partition by u.k order by u.o) as v
            from unnest(p_event_stream, p_event_ids, p_types, p_schema_versions, p_event_metadata) with ordinality u(k, id, t, sv, mi, o)
          ), inserted as (
            insert into events (epoch, event_id, stream_id, stream_version, store_id, type, schema_version, data, metadata)
            select current_epoch, input.id, p_streams[input.k], input.v, p_store_ids[input.k], input.t, input.sv, input.d, input.m
            from input order by input.o
            returning events.global_position, events.stream_version, events.transaction_id, events.recorded_at
          )
          select 'e'::text, null::text, inserted.stream_version, inserted.global_position, inserted.transaction_id::text, inserted.recorded_at, current_epoch
          from inserted order by inserted.global_position;
        return;
      end if;
      -- Positions are drawn in input order, so ordering by them keeps the input order (ord).
      with input as (
        select u.o, u.k, u.id, u.t, u.sv, p_data -> (u.o::integer - 1) as d, p_metadata -> (u.mi - 1) as m,
          new_versions[u.k] - p_counts[u.k] + row_number() over (partition by u.k order by u.o) as v
        from unnest(p_event_stream, p_event_ids, p_types, p_schema_versions, p_event_metadata) with ordinality u(k, id, t, sv, mi, o)
      ), inserted as (
        insert into events (epoch, event_id, stream_id, stream_version, store_id, type, schema_version, data, metadata)
        select current_epoch, input.id, p_streams[input.k], input.v, p_store_ids[input.k], input.t, input.sv, input.d, input.m
        from input order by input.o
        returning events.global_position, events.stream_version, events.transaction_id, events.recorded_at
      )
      select array_agg(inserted.global_position order by inserted.global_position), array_agg(inserted.stream_version order by inserted.global_position),
        min(inserted.recorded_at), min(inserted.transaction_id)::text
        into positions, versions, recorded, txid
        from inserted;
      for i in 1 .. cardinality(p_writes) loop
        execute p_writes[i] using positions, versions, recorded, p_payloads -> (i - 1);
      end loop;
      return query select 'e'::text, null::text, versions[o], positions[o], txid, recorded, current_epoch
        from generate_subscripts(positions, 1) o order by o;
    end $$`.execute(db)

  // One body for both: an append without projections is this function without writes.
  await sql`
    create or replace function event_store_append(
      p_streams text[], p_stream_types text[], p_store_ids text[], p_expected text[], p_counts integer[],
      p_event_stream integer[], p_event_ids uuid[], p_types text[], p_schema_versions integer[], p_data text[], p_metadata text[]
    ) returns table (kind text, stream_id text, version bigint, global_position bigint, transaction_id text, recorded_at timestamptz, epoch integer)
    language sql as $$
      select * from event_store_append_projected(p_streams, p_stream_types, p_store_ids, p_expected, p_counts,
        p_event_stream, p_event_ids, p_types, p_schema_versions,
        (select coalesce(jsonb_agg(x::jsonb order by o), '[]') from unnest(p_data) with ordinality d(x, o)),
        (select coalesce(jsonb_agg(x::jsonb order by o), '[]') from unnest(p_metadata) with ordinality m(x, o)),
        array(select generate_series(1, cardinality(p_metadata))), null, null)
    $$`.execute(db)
}
