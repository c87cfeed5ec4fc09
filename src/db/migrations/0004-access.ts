import { sql, type Kysely } from 'kysely'

// Developer apps, credentials (hashes only) and idempotency records.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table apps (
      app_id text primary key,
      store_id text not null references stores,
      name text not null,
      client_id text not null unique,
      client_secret_hash text,
      redirect_uris text[] not null default '{}',
      created_at timestamptz not null default now()
    )`.execute(db)
  await sql`
    create table api_keys (
      key_id text primary key,
      app_id text not null references apps,
      store_id text not null references stores,
      name text not null,
      key_hash text not null unique,
      key_hint text not null,
      scopes text[] not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz,
      expires_at timestamptz
    )`.execute(db)
  await sql`
    create table idempotency_keys (
      store_id text not null,
      operation text not null,
      idem_key text not null,
      request_hash text not null,
      state text not null check (state in ('in_flight', 'done')),
      response_status integer,
      response_body text,
      response_headers jsonb,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      primary key (store_id, operation, idem_key)
    )`.execute(db)
  await sql`create index idempotency_keys_expiry on idempotency_keys (expires_at)`.execute(db)
}
