import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// The latest entries of the developer-activity view for one theme, with a readable "who":
// the app's name for agents, the merchant's name for dashboard and editor changes. The editor
// shows it when a save meets a newer version, so the merchant knows who moved the theme.
export type ThemeActivityEntry = {
  at: string
  action: string
  outcome: 'applied' | 'rejected'
  channel: string
  tool: string | null
  actorKind: string
  who: string
  summary: string
}

export async function recentThemeActivity(
  db: Kysely<Database>,
  storeId: string,
  themeId: string,
  limit = 5,
): Promise<ThemeActivityEntry[]> {
  const rows = await db
    .selectFrom('developer_activity as a')
    .leftJoin('apps', 'apps.app_id', 'a.app_id')
    .leftJoin('merchants', (join) =>
      join.onRef('merchants.merchant_id', '=', 'a.credential_id').on('a.credential_kind', '=', 'merchant'),
    )
    .select([
      'a.occurred_at',
      'a.action',
      'a.outcome',
      'a.channel',
      'a.tool',
      'a.credential_kind',
      'a.summary',
      'apps.name as app_name',
      'merchants.name as merchant_name',
      'merchants.email as merchant_email',
    ])
    .where('a.store_id', '=', storeId)
    .where('a.theme_id', '=', themeId)
    .orderBy('a.occurred_at', 'desc')
    .orderBy('a.last_position', 'desc')
    .limit(limit)
    .execute()
  return rows.map((r) => ({
    at: new Date(r.occurred_at).toISOString(),
    action: r.action,
    outcome: r.outcome,
    channel: r.channel,
    tool: r.tool,
    actorKind: r.credential_kind,
    who:
      r.credential_kind === 'merchant'
        ? r.merchant_name || r.merchant_email || 'a merchant'
        : (r.app_name ?? (r.credential_kind === 'system' ? 'the service' : 'an app')),
    summary: r.summary,
  }))
}
