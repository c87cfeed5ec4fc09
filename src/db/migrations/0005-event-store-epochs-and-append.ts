import { sql, type Kysely } from 'kysely'

// Commit order that survives a move to another cluster, and appends in one round trip.
//
// Epochs. Commit order was (transaction_id, global_position), read below the oldest running
// transaction. Transaction ids belong to a cluster: restored into a new one (pg_dump/pg_restore),
// the events keep their old ids while the new cluster hands out low ones again, so new events
// sorted first and the read horizon hid the restored ones. Order is now (epoch, transaction_id,
// global_position). An epoch is a span of the log written by one cluster's transaction-id
// counter; the horizon applies to the current epoch only (every event of an older epoch was
// committed by a cluster that is no longer writing). A new epoch starts when the newest event of
// the current epoch has a transaction id this cluster has not handed out yet (>= the snapshot's
// xmax): that event cannot be this cluster's own, so the log came from elsewhere. pg_upgrade
// keeps transaction ids and starts no epoch; a restore into a cluster already past every
// restored id needs none either, since every new id sorts after them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table event_epochs (
      epoch integer primary key,
      -- The first transaction id the cluster had not handed out when the epoch began.
      first_xid xid8 not null,
      started_at timestamptz not null default now()
    )`.execute(db)
  await sql`insert into event_epochs (epoch, first_xid) values (1, '0')`.execute(db)
  // A constant default: existing rows are epoch 1 without rewriting the table.
  await sql`alter table events add column epoch integer not null default 1`.execute(db)
  await sql`drop index events_commit_order`.execute(db)
  await sql`drop index events_store_order`.execute(db)
  await sql`create index events_commit_order on events (epoch, transaction_id, global_position)`.execute(db)
  await sql`create index events_store_order on events (store_id, epoch, transaction_id, global_position)`.execute(db)
  await sql`alter table projection_checkpoints add column epoch integer not null default 0`.execute(db)
  await sql`update projection_checkpoints set epoch = 1 where global_position > 0`.execute(db)

  // The current epoch, started here when the log came from another cluster. Checked once per
  // session (a session never changes cluster) and kept in a session setting.
  await sql`
    create function event_store_epoch() returns integer language plpgsql as $$
    declare
      cached text := current_setting('event_store.epoch', true);
      current_epoch integer;
      newest xid8;
    begin
      if cached is not null and cached <> '' then
        return cached::integer;
      end if;
      select max(epoch) into current_epoch from event_epochs;
      select max(transaction_id) into newest from events where epoch = current_epoch;
      if newest is not null and newest >= pg_snapshot_xmax(pg_current_snapshot()) then
        -- One session starts the epoch; the others wait here and then see it.
        lock table event_epochs in share row exclusive mode;
        select max(epoch) into current_epoch from event_epochs;
        select max(transaction_id) into newest from events where epoch = current_epoch;
        if newest is not null and newest >= pg_snapshot_xmax(pg_current_snapshot()) then
          current_epoch := current_epoch + 1;
          insert into event_epochs (epoch, first_xid) values (current_epoch, pg_snapshot_xmax(pg_current_snapshot()));
        end if;
      end if;
      perform set_config('event_store.epoch', current_epoch::text, false);
      return current_epoch;
    end $$`.execute(db)
  await sql`alter table events alter column epoch set default event_store_epoch()`.execute(db)

  // Writers of a stream queue on one lock, taken in one order (by hash) before any write. A
  // command that must decide and append without interference takes the same locks first (they
  // are re-entrant within a transaction).
  await sql`
    create function event_store_lock_streams(p_streams text[]) returns void language plpgsql as $$
    declare
      lock_key integer;
    begin
      for lock_key in select distinct hashtext(s) from unnest(p_streams) s order by 1 loop
        perform pg_advisory_xact_lock(1163280212, lock_key);
      end loop;
    end $$`.execute(db)

  // One append in one statement: lock, check every expected version, claim, insert, return the
  // generated columns. A conflict returns one 'c' row and writes nothing. Streams are locked with
  // transaction-scoped advisory locks in one order (their hash) before any write: a transaction's
  // id is assigned at its first write (the stream row), so it is greater than the id of every
  // earlier writer of the same streams, also when it writes several streams; commit order then
  // agrees with each stream's version order.
  // expected: 'any', 'no_stream', 'exists', or a version number as text.
  // Rows: ('s', stream_id, new version) per stream, then ('e', null, stream version, position,
  // transaction id, recorded at, epoch) per event in input order.
  await sql`
    create function event_store_append(
      p_streams text[], p_stream_types text[], p_store_ids text[], p_expected text[], p_counts integer[],
      p_event_stream integer[], p_event_ids uuid[], p_types text[], p_schema_versions integer[], p_data text[], p_metadata text[]
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
      return query
        with input as (
          select u.o, u.k, u.id, u.t, u.sv, u.d, u.m,
            new_versions[u.k] - p_counts[u.k] + row_number() over (partition by u.k order by u.o) as v
          from unnest(p_event_stream, p_event_ids, p_types, p_schema_versions, p_data, p_metadata) with ordinality u(k, id, t, sv, d, m, o)
        ), inserted as (
          insert into events (epoch, event_id, stream_id, stream_version, store_id, type, schema_version, data, metadata)
          select current_epoch, input.id, p_streams[input.k], input.v, p_store_ids[input.k], input.t, input.sv, input.d::jsonb, input.m::jsonb
          from input order by input.o
          returning events.global_position, events.stream_version, events.transaction_id, events.recorded_at
        )
        select 'e'::text, null::text, inserted.stream_version, inserted.global_position, inserted.transaction_id::text, inserted.recorded_at, current_epoch
        from inserted order by inserted.global_position;
    end $$`.execute(db)
}
