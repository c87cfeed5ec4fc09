import type { Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'
import type { EventStore } from '../../events/event-store.ts'
import type { ThemeEvent } from '../../aggregates/theme/events.ts'
import {
  blame,
  carryHistoryIndex,
  currentState,
  themeAt,
  versionEntries,
  type Blame,
  type HistoryEvent,
  type VersionEntry,
} from '../../aggregates/theme/history.ts'
import { diffDocuments, summarizeDiff, type ThemeDiff } from '../../aggregates/theme/diff.ts'
import type { Theme } from '../../aggregates/theme/state.ts'
import { defaultThemeDocument, type ThemeDocument } from '../../theme/document.ts'
import { activitySummaries } from '../activity.ts'
import { decodeCursor, encodeCursor, resolveLimit, type Page } from '../pagination.ts'
import { themeStream } from '../../aggregates/theme/events.ts'

// The read side of a theme's history: everything is replayed from the theme's own stream (the
// history is not stored twice); summaries come from the developer-activity view.

export type HistoryReader = { db: Kysely<Database>; eventStore: Pick<EventStore, 'readStream'>; cursorSecret: string }

export type ThemeHistory = { theme: Theme; events: HistoryEvent[] }

// Events are never changed or deleted (the store refuses it), so a stream read once is kept in
// memory and only its tail is read again: one query that usually returns no rows.
const MAX_CACHED_STREAMS = 64
const caches = new WeakMap<object, Map<string, HistoryEvent[]>>()

async function readStreamCached(r: HistoryReader, streamId: string): Promise<HistoryEvent[]> {
  let cache = caches.get(r.eventStore)
  if (!cache) caches.set(r.eventStore, (cache = new Map()))
  const known = cache.get(streamId) ?? []
  const tail = (await r.eventStore.readStream<ThemeEvent>(streamId, {
    fromVersion: (known.at(-1)?.streamVersion ?? 0) + 1,
  })) as unknown as HistoryEvent[]
  const events = tail.length ? known.concat(tail) : known
  // The versions already folded (and their snapshots) carry over: only the tail is replayed.
  if (tail.length) carryHistoryIndex(known, events)
  cache.delete(streamId)
  if (events.length) cache.set(streamId, events)
  if (cache.size > MAX_CACHED_STREAMS) cache.delete(cache.keys().next().value!)
  return events
}

// Null when the theme does not exist or belongs to another store (the caller answers 404).
export async function readThemeHistory(
  r: HistoryReader,
  storeId: string,
  themeId: string,
): Promise<ThemeHistory | null> {
  const events = await readStreamCached(r, themeStream(themeId))
  const theme = currentState(events)
  if (!theme.exists || theme.storeId !== storeId) return null
  return { theme, events }
}

export type VersionListItem = Omit<VersionEntry, 'version' | 'position'> & { summary: string }

const cursorScope = (storeId: string, themeId: string) => ({ resource: `theme-versions:${themeId}`, storeId })
const cursorTime = (iso: string) => iso.replace(/\.(\d{3})Z$/, '.$1000Z')

// Newest first; the cursor holds the first version of the last entry of the page.
export async function listVersions(
  r: HistoryReader,
  history: ThemeHistory,
  args: { limit?: number | undefined; cursor?: string | undefined },
): Promise<Page<VersionListItem>> {
  const limit = resolveLimit(args.limit)
  const scope = cursorScope(history.theme.storeId, history.theme.themeId)
  const before = args.cursor === undefined ? Infinity : Number(decodeCursor(r.cursorSecret, scope, args.cursor).id)
  const all = versionEntries(history.events)
    .reverse()
    .filter((e) => e.fromVersion < before)
  const page = all.slice(0, limit)
  const summaries = await activitySummaries(
    r.db,
    page.map((e) => e.commandId),
  )
  const hasMore = all.length > limit
  const last = page.at(-1)
  return {
    items: page.map(({ version: _v, position: _p, ...e }) => ({
      ...e,
      summary: summaries.get(e.commandId) ?? e.command,
    })),
    pagination: {
      nextCursor:
        hasMore && last
          ? encodeCursor(r.cursorSecret, scope, { createdAt: cursorTime(last.at), id: String(last.fromVersion) })
          : null,
      hasMore,
      limit,
    },
  }
}

// `live` is the store's live document (the default theme when none is live), `draft` this
// theme's current document, a number this theme at that version.
export type VersionRef = number | 'live' | 'draft'

export type ResolvedRef = { ref: VersionRef; themeId: string | null; version: number | null; document: ThemeDocument }

export async function resolveRef(
  r: HistoryReader,
  history: ThemeHistory,
  ref: VersionRef,
): Promise<ResolvedRef | null> {
  if (ref === 'draft')
    return { ref, themeId: history.theme.themeId, version: history.theme.version, document: history.theme.document }
  if (ref === 'live') {
    if (history.theme.status === 'active')
      return { ref, themeId: history.theme.themeId, version: history.theme.version, document: history.theme.document }
    const live = await r.db
      .selectFrom('themes')
      .select(['theme_id', 'version', 'document'])
      .where('store_id', '=', history.theme.storeId)
      .where('status', '=', 'active')
      .executeTakeFirst()
    if (!live) return { ref, themeId: null, version: null, document: defaultThemeDocument() }
    return { ref, themeId: live.theme_id, version: live.version, document: live.document as ThemeDocument }
  }
  const then = themeAt(history.events, ref)
  return then ? { ref, themeId: then.themeId, version: ref, document: then.document } : null
}

export type DiffResult = {
  from: Omit<ResolvedRef, 'document'>
  to: Omit<ResolvedRef, 'document'>
  changes: ThemeDiff
  summary: string[]
}

export function diffRefs(from: ResolvedRef, to: ResolvedRef): DiffResult {
  const changes = diffDocuments(from.document, to.document)
  const { document: _f, ...fromRef } = from
  const { document: _t, ...toRef } = to
  return { from: fromRef, to: toRef, changes, summary: summarizeDiff(changes) }
}

export const themeBlame = (history: ThemeHistory): Blame => blame(history.events)!
