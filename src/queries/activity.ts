import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { formatTime } from '../web/time.ts'
import { actorDirectory, actorText, channelText } from './actors.ts'
import { headlineOf, headlineText } from './activity-words.ts'

// Every read of the developer-activity view (one row per command, refused ones included): the
// dashboard's activity page, its CSV and chart, the themes list's "last change", the editor's
// "who changed this theme", the summaries of a theme's versions and `npm run activity`.

export type ActivityFilters = {
  // An app's id (as the rows record it), or YOU_FILTER for the merchant's own actions.
  appId?: string | null
  themeId?: string | null
  channel?: string | null
  outcome?: 'applied' | 'rejected' | null
  /** Rows at or after this instant. */
  since?: Date | null
  /** Rows before this instant. */
  until?: Date | null
}

export const YOU_FILTER = 'you'

function filtered(db: Kysely<Database>, storeId: string, f: ActivityFilters) {
  let q = db.selectFrom('developer_activity as a').where('a.store_id', '=', storeId)
  if (f.appId === YOU_FILTER) q = q.where('a.credential_kind', '=', 'merchant')
  else if (f.appId) q = q.where('a.app_id', '=', f.appId)
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
  'a.lines',
  'a.issues',
  'a.issue_count',
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
    .select(['a.occurred_at', 'a.credential_kind', 'a.credential_id', 'a.app_id'])
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
    .select(['a.theme_id', 'a.occurred_at', 'a.credential_kind', 'a.credential_id', 'a.app_id', 'a.channel'])
    .where('a.store_id', '=', storeId)
    .where('a.outcome', '=', 'applied')
    .where('a.theme_id', 'is not', null)
    .where('a.action', '!=', 'createThemePreviewToken')
    .orderBy('a.first_position', 'desc')
    .limit(limit)
    .execute()
}

/** Every app that acted in the store (the app filter's choices), with a credential to name it by. */
export function appsThatActed(db: Kysely<Database>, storeId: string) {
  return db
    .selectFrom('developer_activity')
    .select(['app_id'])
    .select((eb) => [
      eb.fn.min('credential_kind').as('credential_kind'),
      eb.fn.min('credential_id').as('credential_id'),
    ])
    .where('store_id', '=', storeId)
    .where('app_id', 'is not', null)
    .groupBy('app_id')
    .execute()
}

/** The rows of these commands (an undo's row shows what the undone command did). */
export async function activityOf(db: Kysely<Database>, storeId: string, commandIds: string[]) {
  if (commandIds.length === 0) return []
  return db
    .selectFrom('developer_activity as a')
    .select(COLUMNS)
    .where('a.store_id', '=', storeId)
    .where('a.command_id', 'in', commandIds)
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

// The latest entries for one theme, as the editor's conflict banner shows them when a save meets
// a newer version: who (named as everywhere), through what, when (in the store's zone) and what.
export type ThemeActivityEntry = {
  at: string
  // The time as every page writes it (src/web/time.ts).
  atText: string
  outcome: 'applied' | 'rejected'
  // "the API", "MCP", "the dashboard", "the editor".
  via: string
  who: string
  summary: string
}

export async function recentThemeActivity(
  db: Kysely<Database>,
  storeId: string,
  themeId: string,
  zone: string | null,
  limit = 5,
): Promise<ThemeActivityEntry[]> {
  const [rows, actors, names] = await Promise.all([
    filtered(db, storeId, { themeId }).select(COLUMNS).orderBy('a.first_position', 'desc').limit(limit).execute(),
    actorDirectory(db, storeId),
    themeNamesOf(db, storeId),
  ])
  return rows.map((r) => ({
    at: new Date(r.occurred_at).toISOString(),
    atText: formatTime(r.occurred_at, zone),
    outcome: r.outcome,
    via: channelText(r.channel),
    who: actorText(actors.nameOf(actorOf(r))),
    summary: headlineText(headlineOf(r), names),
  }))
}

// The credential columns of a row as the actor they record.
export const actorOf = (r: { credential_kind: string; app_id: string | null; credential_id: string | null }) => ({
  kind: r.credential_kind,
  appId: r.app_id,
  credentialId: r.credential_id,
})

/** Every theme's name, archived ones included: rows name themes by their current name. */
export async function themeNamesOf(db: Kysely<Database>, storeId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('themes').select(['theme_id', 'name']).where('store_id', '=', storeId).execute()
  return new Map(rows.map((r) => [r.theme_id, r.name]))
}
