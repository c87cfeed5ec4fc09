import { sql, type Kysely } from 'kysely'

// Merchant sign-in: server-side sessions (hashed ids), failed sign-ins for throttling (kept in
// the database so a restart or a second instance never lets an attacker start over), and the
// app fields the developer dashboard manages.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index merchants_email_lower on merchants (lower(email))`.execute(db)
  await sql`
    create table merchant_sessions (
      session_hash text primary key,
      merchant_id text not null references merchants,
      store_id text not null references stores,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz
    )`.execute(db)
  await sql`create index merchant_sessions_merchant on merchant_sessions (merchant_id)`.execute(db)
  await sql`
    create table login_failures (
      id bigint generated always as identity primary key,
      subject text not null,
      failed_at timestamptz not null default now()
    )`.execute(db)
  await sql`create index login_failures_subject on login_failures (subject, failed_at)`.execute(db)
  await sql`
    create table login_lockouts (
      subject text primary key,
      locked_until timestamptz not null
    )`.execute(db)
  await sql`alter table apps add column kind text not null default 'confidential' check (kind in ('confidential', 'public'))`.execute(
    db,
  )
  await sql`alter table apps add column client_secret_hint text`.execute(db)
  await sql`alter table apps add column secret_rotated_at timestamptz`.execute(db)
  await sql`alter table apps add column deleted_at timestamptz`.execute(db)
}
