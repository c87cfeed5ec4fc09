import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// Every read of the developer-activity view (one row per command, refused ones included): the
// dashboard's activity page, its CSV and chart, the themes list's "last change", the editor's
// "who changed this theme", the summaries of a theme's versions and `npm run activity`.

export type ActivityFilters = {
  appId?: string | null
  themeId?: string | null
  channel?: string | null
  outcome?: 'applied' | 'rejected' | null
  /** Rows at or after this instant. */
  since?: Date | null
  /** Rows before this instant. */
  until?: Date | null
}

function filtered(db: Kysely<Database>, storeId: string, f: ActivityFilters) {
  let q = db
    .selectFrom('developer_activity as a')
    .leftJoin('apps as p', 'p.app_id', 'a.app_id')
    .where('a.store_id', '=', storeId)
  if (f.appId) q = q.where('a.app_id', '=', f.appId)
  if (f.themeId) q = q.where('a.theme_id', '=', f.themeId)
  if (f.channel) q = q.where('a.channel', '=', f.channel)
  if (f.outcome) q = q.where('a.outcome', '=', f.outcome)
  if (f.since) q = q.where('a.occurred_at', '>=', f.since)
  if (f.until) q = q.where('a.occurred_at', '<', f.until)
  return q
}

const COLUMNS = [
  'a.command_id',
  'a.occurred_at',
  'a.first_position',
  'a.action',
  'a.outcome',
  'a.theme_id',
  'a.channel',
  'a.tool',
  'a.credential_kind',
  'a.credential_id',
  'a.app_id',
  'a.request_id',
  'a.summary',
  'a.changes',
  'a.error_code',
  'p.name as app_name',
] as const

/**
 * Newest first (by the command's first event). `before`: the first position of the last row of
 * the previous page.
 */
export function listActivity(
  db: Kysely<Database>,
  storeId: string,
  filters: ActivityFilters,
  page: { limit: number; before?: number | null },
) {
  let q = filtered(db, storeId, filters).select(COLUMNS)
  if (page.before !== undefined && page.before !== null) q = q.where('a.first_position', '<', page.before)
  return q.orderBy('a.first_position', 'desc').limit(page.limit).execute()
}

export type ActivityEntry = Awaited<ReturnType<typeof listActivity>>[number]

/** Who acted and when, newest first: what the activity chart counts. */
export function activityTimes(db: Kysely<Database>, storeId: string, filters: ActivityFilters, limit: number) {
  return filtered(db, storeId, filters)
    .select(['a.occurred_at', 'a.credential_kind', 'p.name as app_name'])
    .orderBy('a.first_position', 'desc')
    .limit(limit)
    .execute()
}

/**
 * The latest applied changes to the store's themes (previews excepted), newest first: the first
 * row of each theme is its last change.
 */
export function latestThemeChanges(db: Kysely<Database>, storeId: string, limit: number) {
  return db
    .selectFrom('developer_activity as a')
    .leftJoin('apps as p', 'p.app_id', 'a.app_id')
    .select(['a.theme_id', 'a.occurred_at', 'a.credential_kind', 'p.name as app_name', 'a.channel'])
    .where('a.store_id', '=', storeId)
    .where('a.outcome', '=', 'applied')
    .where('a.theme_id', 'is not', null)
    .where('a.action', '!=', 'createThemePreviewToken')
    .orderBy('a.first_position', 'desc')
    .limit(limit)
    .execute()
}

/** The activity summary of each of these commands (a command without a row is absent). */
export async function activitySummaries(db: Kysely<Database>, commandIds: string[]): Promise<Map<string, string>> {
  if (commandIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('developer_activity')
    .select(['command_id', 'summary'])
    .where('command_id', 'in', commandIds)
    .execute()
  return new Map(rows.map((row) => [row.command_id, row.summary]))
}

// The latest entries for one theme, with a readable "who": the app's name for agents, the
// merchant's name for dashboard and editor changes. The editor shows it when a save meets a newer
// version, so the merchant knows who moved the theme.
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
