import { sql, type Kysely } from 'kysely'

// The event log as range partitions of global_position (docs/scaling.md, decision 0165), so a
// log that grows for years is many tables of bounded size: each with its own indexes, vacuumed
// and backed up on its own, old ones detachable to cheaper storage (never dropped: they are the
// audit log).
//
// * Partitions hold partition_size positions each (event_partitioning; 50 million: about 25 days
//   at the planning figure of 2 million events a day, about 60 GB with indexes at 1,222 bytes an
//   event). The partition of the next position and the two after it always exist: the append
//   function creates the next one when an insert enters a partition with fewer than two after it
//   (event_store_partitions_ahead), so an append would have to draw 100 million positions at once
//   to find no partition.
// * What the unique indexes on event_id and (stream_id, stream_version) guaranteed: a unique index
//   on a partitioned table must contain the partition key. Event ids are unique through
//   event_ids, one non-partitioned table of every id the append function writes, in the insert's
//   own statement. Stream versions are claimed by the append function from the stream's row in
//   streams, under the stream's lock (migration 0005): each append gets versions after the row's
//   version and raises it in the same statement, and a trigger keeps that version from ever going
//   down. Each partition also keeps its unique index on (stream_id, stream_version), which still
//   refuses a duplicate written past the function into the same partition.
// * global_position's identity becomes a sequence default (PostgreSQL 15 has no identity columns
//   on partitioned tables), continuing where the identity stopped.
// * The existing log is copied in position order with every column as it was (positions,
//   transaction ids, epochs): readAll's order (epoch, transaction_id, global_position) is the same
//   before and after. The indexes are built after the copy (bench/event-log-partitioning.ts times it).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`lock table events in access exclusive mode`.execute(db)
  await sql`alter table events rename to events_unpartitioned`.execute(db)
  await sql`alter sequence events_global_position_seq rename to events_unpartitioned_global_position_seq`.execute(db)
  await sql`create sequence events_global_position_seq as bigint`.execute(db)
  await sql`
    select setval('events_global_position_seq', last_value, is_called)
    from events_unpartitioned_global_position_seq`.execute(db)
  await sql`
    create table events (
      global_position bigint not null default nextval('events_global_position_seq'),
      transaction_id xid8 not null default pg_current_xact_id(),
      event_id uuid not null,
      stream_id text not null,
      stream_version bigint not null,
      store_id text not null,
      type text not null,
      schema_version integer not null default 1,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null default now(),
      epoch integer not null default event_store_epoch()
    ) partition by range (global_position)`.execute(db)
  await sql`alter sequence events_global_position_seq owned by events.global_position`.execute(db)

  await sql`
    create table event_partitioning (
      one boolean primary key default true check (one),
      -- Positions per partition, for partitions created from now on.
      partition_size bigint not null check (partition_size > 0),
      -- The first position no partition holds yet.
      created_until bigint not null
    )`.execute(db)
  await sql`insert into event_partitioning (partition_size, created_until) values (50000000, 1)`.execute(db)

  // Creates partitions until the one of the next position and two after it exist, and returns
  // the position from which it must run again (kept per session: event_store.partitions_check_at).
  // A partition is created empty and attached (SHARE UPDATE EXCLUSIVE on events: appends and
  // readers go on), with its own unique index on (stream_id, stream_version) and its own truncate
  // guard (statement triggers are not inherited); the parent's indexes and row triggers are
  // added to it by the attach.
  await sql`
    create function event_store_partitions_ahead() returns bigint language plpgsql as $$
    declare
      size bigint;
      until bigint;
      last_position bigint;
      part text;
    begin
      select case when is_called then last_value else last_value - 1 end into last_position from events_global_position_seq;
      select partition_size, created_until into size, until from event_partitioning;
      if until <= last_position + 1 + 2 * size then
        -- One session creates; another that got here meanwhile waits, then finds them made.
        select partition_size, created_until into size, until from event_partitioning for update;
        while until <= last_position + 1 + 2 * size loop
          part := 'events_from_' || until;
          execute format('create table %I (like events including defaults)', part);
          execute format('create unique index %I on %I (stream_id, stream_version)', part || '_stream_version', part);
          execute format('create trigger events_no_truncate before truncate on %I for each statement execute function events_are_append_only()', part);
          execute format('alter table events attach partition %I for values from (%s) to (%s)', part, until, until + size);
          until := until + size;
        end loop;
        update event_partitioning set created_until = until;
      end if;
      perform set_config('event_store.partitions_check_at', (until - 2 * size - 1)::text, false);
      return until - 2 * size - 1;
    end $$`.execute(db)
  await sql`select event_store_partitions_ahead()`.execute(db)

  // The log, in position order, every column as it was.
  await sql`
    insert into events (global_position, transaction_id, event_id, stream_id, stream_version, store_id, type,
      schema_version, data, metadata, recorded_at, epoch)
    select global_position, transaction_id, event_id, stream_id, stream_version, store_id, type,
      schema_version, data, metadata, recorded_at, epoch
    from events_unpartitioned order by global_position`.execute(db)
  await sql`create table event_ids (event_id uuid not null, global_position bigint not null)`.execute(db)
  await sql`insert into event_ids (event_id, global_position) select event_id, global_position from events_unpartitioned`.execute(
    db,
  )
  await sql`drop table events_unpartitioned`.execute(db)

  // The parent's indexes, built on every partition after the copy and added to later ones.
  await sql`alter table events add constraint events_pkey primary key (global_position)`.execute(db)
  await sql`create index events_commit_order on events (epoch, transaction_id, global_position)`.execute(db)
  await sql`create index events_store_order on events (store_id, epoch, transaction_id, global_position)`.execute(db)
  await sql`alter table event_ids add constraint event_ids_pkey primary key (event_id)`.execute(db)
  await sql`analyze events`.execute(db)
  await sql`analyze event_ids`.execute(db)

  // Append-only, as before (migration 0001), and event_ids likewise.
  await sql`create trigger events_no_update_or_delete before update or delete on events
    for each row execute function events_are_append_only()`.execute(db)
  await sql`create trigger events_no_truncate before truncate on events
    for each statement execute function events_are_append_only()`.execute(db)
  await sql`create trigger event_ids_no_update_or_delete before update or delete on event_ids
    for each row execute function events_are_append_only()`.execute(db)
  await sql`create trigger event_ids_no_truncate before truncate on event_ids
    for each statement execute function events_are_append_only()`.execute(db)

  // A stream's version only grows: the append function's versions come after it.
  await sql`
    create function streams_versions_only_grow() returns trigger language plpgsql as $$
    begin
      raise exception 'stream % would go back from version % to %', old.stream_id, old.version, new.version
        using errcode = 'restrict_violation';
    end $$`.execute(db)
  await sql`create trigger streams_version_never_decreases before update of version on streams for each row
    when (new.version < old.version) execute function streams_versions_only_grow()`.execute(db)

  // The append of migration 0009 with two additions: each event's id goes into event_ids in the
  // insert's own statement (a data-modifying CTE: no second round of planning), and after the
  // insert, once its last position reaches the session's check point, the partitions ahead are
  // made (a comparison per append; the creation itself once per partition).
  await sql`
    create or replace function event_store_append_projected(
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
            returning events.event_id, events.global_position, events.stream_version, events.transaction_id, events.recorded_at
          ), ids as (
            insert into event_ids (event_id, global_position) select inserted.event_id, inserted.global_position from inserted
          )
          select 'e'::text, null::text, inserted.stream_version, inserted.global_position, inserted.transaction_id::text, inserted.recorded_at, current_epoch
          from inserted order by inserted.global_position;
        if coalesce(cardinality(p_event_ids), 0) > 0 then
          if currval('events_global_position_seq') >= coalesce(nullif(current_setting('event_store.partitions_check_at', true), ''), '0')::bigint then
            perform event_store_partitions_ahead();
          end if;
        end if;
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
        returning events.event_id, events.global_position, events.stream_version, events.transaction_id, events.recorded_at
      ), ids as (
        insert into event_ids (event_id, global_position) select inserted.event_id, inserted.global_position from inserted
      )
      select array_agg(inserted.global_position order by inserted.global_position), array_agg(inserted.stream_version order by inserted.global_position),
        min(inserted.recorded_at), min(inserted.transaction_id)::text
        into positions, versions, recorded, txid
        from inserted;
      if positions[cardinality(positions)] >= coalesce(nullif(current_setting('event_store.partitions_check_at', true), ''), '0')::bigint then
        perform event_store_partitions_ahead();
      end if;
      for i in 1 .. cardinality(p_writes) loop
        execute p_writes[i] using positions, versions, recorded, p_payloads -> (i - 1);
      end loop;
      return query select 'e'::text, null::text, versions[o], positions[o], txid, recorded, current_epoch
        from generate_subscripts(positions, 1) o order by o;
    end $$`.execute(db)
}
