import { sql, type Kysely } from 'kysely'

// OAuth: clients that registered themselves (RFC 7591) or arrived by a metadata document, the
// merchant's grants, authorization codes and tokens. Codes and tokens are stored as SHA-256
// hashes only; a grant is one merchant's consent for one client on one store.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table oauth_clients (
      client_id text primary key,
      kind text not null check (kind in ('registered', 'metadata_document')),
      client_name text not null,
      client_secret_hash text,
      token_endpoint_auth_method text not null check (token_endpoint_auth_method in ('none', 'client_secret_basic', 'client_secret_post')),
      redirect_uris text[] not null,
      metadata jsonb not null,
      registered_from text,
      fetched_at timestamptz,
      fresh_until timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db)
  await sql`
    create table oauth_grants (
      grant_id text primary key,
      store_id text not null references stores,
      merchant_id text not null,
      client_id text not null,
      app_id text,
      client_name text not null,
      verified boolean not null,
      scopes text[] not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz,
      revoked_reason text
    )`.execute(db)
  // One live consent per client and store; a revoked grant stays for the record.
  await sql`create unique index oauth_grants_live on oauth_grants (store_id, client_id) where revoked_at is null`.execute(
    db,
  )
  await sql`create index oauth_grants_client on oauth_grants (client_id)`.execute(db)
  await sql`
    create table oauth_codes (
      code_hash text primary key,
      grant_id text not null references oauth_grants,
      client_id text not null,
      store_id text not null,
      redirect_uri text not null,
      code_challenge text not null,
      scopes text[] not null,
      resource text not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db)
  await sql`
    create table oauth_tokens (
      token_hash text primary key,
      token_id text not null unique,
      kind text not null check (kind in ('access', 'refresh')),
      grant_id text not null references oauth_grants,
      client_id text not null,
      store_id text not null,
      scopes text[] not null,
      resource text not null,
      code_hash text,
      parent_id text,
      expires_at timestamptz not null,
      rotated_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db)
  await sql`create index oauth_tokens_grant on oauth_tokens (grant_id)`.execute(db)
  await sql`create index oauth_tokens_code on oauth_tokens (code_hash) where code_hash is not null`.execute(db)
}
