import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// Who acted, named one way on every page that says it (activity rows, its filter and CSV, the
// themes list, a theme's history and blame, the editor's conflict banner): the merchant is "You";
// an agent is its app's name, whatever kind of credential it used (a dashboard app's API key or
// OAuth grant, a self-registered OAuth client, a client known by its metadata document), with
// "unverified" beside the name of the last two, as on the consent page; the platform itself is
// "The platform". Deleted apps and revoked grants keep their names: the history still says who.

export type ActorRef = { kind: string; appId: string | null; credentialId: string | null }

export type ActorName = {
  // "You", an app's name, "The platform", or "An app that no longer exists" when nothing names it.
  name: string
  unverified: boolean
  // The API key used, as "“CI key” (sk_live_…a1b2)", for the details; null otherwise.
  key: string | null
}

export const YOU = 'You'

export type ActorDirectory = { nameOf: (actor: ActorRef) => ActorName }

export async function actorDirectory(db: Kysely<Database>, storeId: string): Promise<ActorDirectory> {
  const [apps, grants, keys] = await Promise.all([
    db.selectFrom('apps').select(['app_id', 'name', 'client_id']).where('store_id', '=', storeId).execute(),
    db
      .selectFrom('oauth_grants')
      .select(['grant_id', 'client_id', 'app_id', 'client_name', 'verified'])
      .where('store_id', '=', storeId)
      .execute(),
    db.selectFrom('api_keys').select(['key_id', 'name', 'key_hint']).where('store_id', '=', storeId).execute(),
  ])
  const appName = new Map<string, string>()
  for (const a of apps) {
    appName.set(a.app_id, a.name)
    appName.set(a.client_id, a.name)
  }
  // A grant names its client; a dashboard app's own name wins over the name its client gave.
  const byGrant = new Map<string, { name: string; unverified: boolean }>()
  const byClient = new Map<string, { name: string; unverified: boolean }>()
  for (const g of grants) {
    const own = g.app_id ? appName.get(g.app_id) : undefined
    const named = { name: own ?? g.client_name, unverified: !own && !g.verified }
    byGrant.set(g.grant_id, named)
    byClient.set(g.client_id, named)
  }
  const keyOf = new Map(keys.map((k) => [k.key_id, `“${k.name}” (${k.key_hint})`]))
  return {
    nameOf(actor) {
      if (actor.kind === 'merchant') return { name: YOU, unverified: false, key: null }
      if (actor.kind === 'system') return { name: 'The platform', unverified: false, key: null }
      const key = actor.kind === 'api_key' && actor.credentialId ? (keyOf.get(actor.credentialId) ?? null) : null
      const app = actor.appId ? appName.get(actor.appId) : undefined
      if (app) return { name: app, unverified: false, key }
      const client =
        (actor.credentialId ? byGrant.get(actor.credentialId) : undefined) ??
        (actor.appId ? byClient.get(actor.appId) : undefined)
      if (client) return { ...client, key }
      return { name: 'An app that no longer exists', unverified: false, key }
    },
  }
}

// The name as one line of text (CSV, the editor, a filter option).
export const actorText = (n: ActorName) => (n.unverified ? `${n.name} (unverified)` : n.name)

// The channel an action came through, in words: "MCP", "the API", "the dashboard", "the editor".
export function channelText(channel: string): string {
  switch (channel) {
    case 'mcp':
      return 'MCP'
    case 'rest':
      return 'the API'
    case 'dashboard':
      return 'the dashboard'
    case 'editor':
      return 'the editor'
    case 'cli':
      return 'the command line'
    case 'seed':
      return 'the demo data'
    case 'storefront':
      return 'the storefront'
    default:
      return channel
  }
}
