import type { Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'

// What the token endpoint reads: codes, tokens and the grants they came from, by their hashes.
// Each takes the pool or the transaction it runs in (PGlite has one connection: a read beside an
// open transaction would wait for it).

export async function authorizationCode(db: Kysely<Database>, codeHash: string) {
  return db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst()
}

// The grant behind a code or a token; it exists for as long as they do.
export async function grantOf(db: Kysely<Database>, grantId: string) {
  return db
    .selectFrom('oauth_grants')
    .select(['revoked_at', 'scopes', 'app_id'])
    .where('grant_id', '=', grantId)
    .executeTakeFirstOrThrow()
}

// The client's live grant on a store, if the merchant approved it before.
export async function liveGrant(db: Kysely<Database>, storeId: string, clientId: string) {
  return db
    .selectFrom('oauth_grants')
    .select(['grant_id', 'scopes'])
    .where('store_id', '=', storeId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
}

// Tokens issued from one code (every generation of its refresh tokens) not yet revoked.
export async function liveTokenIdsFromCode(db: Kysely<Database>, codeHash: string): Promise<string[]> {
  const rows = await db
    .selectFrom('oauth_tokens')
    .select('token_id')
    .where('code_hash', '=', codeHash)
    .where('revoked_at', 'is', null)
    .execute()
  return rows.map((r) => r.token_id)
}

export async function tokenByHash(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('oauth_tokens')
    .select(['token_id', 'kind', 'grant_id', 'client_id', 'store_id', 'revoked_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst()
}
