import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// The dashboard's "connected apps": every live grant of a store, the app behind it, its scopes
// and when it was last used. Revoked grants are history (the activity view shows them).
export type ConnectedApp = { grantId: string; clientId: string; appId: string | null; name: string; verified: boolean; scopes: string[]; createdAt: Date; lastUsedAt: Date | null }

export async function connectedApps(db: Kysely<Database>, storeId: string): Promise<ConnectedApp[]> {
  const rows = await db
    .selectFrom('oauth_grants')
    .select(['grant_id', 'client_id', 'app_id', 'client_name', 'verified', 'scopes', 'created_at', 'last_used_at'])
    .where('store_id', '=', storeId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('grant_id')
    .execute()
  return rows.map((r) => ({ grantId: r.grant_id, clientId: r.client_id, appId: r.app_id, name: r.client_name, verified: r.verified, scopes: r.scopes, createdAt: new Date(r.created_at), lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null }))
}
