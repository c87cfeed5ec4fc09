import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// The dashboard's "connected apps": every live grant of a store, the app behind it, its scopes
// and when it was last used. Revoked grants are history (the activity view shows them).
// `source`: how the client arrived: a dashboard app, Dynamic Client Registration, or a Client ID
// Metadata Document (its client id is the document's URL).
export type ClientSource = 'dashboard' | 'registered' | 'metadata_document'
export type ConnectedApp = {
  grantId: string
  clientId: string
  appId: string | null
  name: string
  verified: boolean
  source: ClientSource
  scopes: string[]
  createdAt: Date
  lastUsedAt: Date | null
}

export async function connectedApps(
  db: Kysely<Database>,
  storeId: string,
  opts: { appId?: string } = {},
): Promise<ConnectedApp[]> {
  let q = db
    .selectFrom('oauth_grants as g')
    .leftJoin('oauth_clients as c', 'c.client_id', 'g.client_id')
    .select([
      'g.grant_id',
      'g.client_id',
      'g.app_id',
      'g.client_name',
      'g.verified',
      'g.scopes',
      'g.created_at',
      'g.last_used_at',
      'c.kind',
    ])
    .where('g.store_id', '=', storeId)
    .where('g.revoked_at', 'is', null)
  if (opts.appId !== undefined) q = q.where('g.app_id', '=', opts.appId)
  const rows = await q.orderBy('g.created_at', 'desc').orderBy('g.grant_id').execute()
  return rows.map((r) => ({
    grantId: r.grant_id,
    clientId: r.client_id,
    appId: r.app_id,
    name: r.client_name,
    verified: r.verified,
    source: r.app_id ? 'dashboard' : (r.kind ?? 'registered'),
    scopes: r.scopes,
    createdAt: new Date(r.created_at),
    lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
  }))
}

// One grant of the store (revoked or not), or undefined: another store's grant looks like none.
export async function findGrant(db: Kysely<Database>, storeId: string, grantId: string) {
  return db
    .selectFrom('oauth_grants')
    .select(['grant_id', 'app_id', 'client_name', 'revoked_at'])
    .where('grant_id', '=', grantId)
    .where('store_id', '=', storeId)
    .executeTakeFirst()
}
