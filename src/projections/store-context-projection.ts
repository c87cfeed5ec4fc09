import { sql, type QueryCreator } from 'kysely'
import type { ThemeEvent } from '../aggregates/theme/events.ts'
import type { Database } from '../db/database.ts'
import { streams } from '../events/theme-events.ts'
import { groupByStream, groupPending, iso, type Projection } from './projection.ts'
import { evolve } from '../aggregates/theme/state.ts'
import { stateBefore, type ThemeHeader } from './themes-projection.ts'

// The theme part of each store's context row (store_context.themes): every theme's header, keyed by
// theme id, with the stream version it was built at. getContext reads it with the store and the
// catalogue summary in one statement (src/queries/context/store-context.ts).

export type ContextThemeHeader = ThemeHeader & { streamVersion: number }

// The header fields of evolve() (src/aggregates/theme/state.ts) without the document, which the
// context does not carry. test/projections/store-context.int.test.ts checks both agree on every event type.
export function evolveHeader(header: ThemeHeader | null, event: ThemeEvent): ThemeHeader | null {
  if (event.type === 'ThemeCreated') {
    const d = event.data
    const at = iso(d.at)!
    return {
      themeId: d.themeId,
      storeId: d.storeId,
      name: d.name,
      provider: d.provider,
      status: 'draft',
      version: 1,
      duplicatedFrom: d.duplicatedFrom,
      createdAt: at,
      updatedAt: at,
      publishedAt: null,
      archivedAt: null,
      lastPreviewAt: null,
      lastPreviewedVersion: null,
    }
  }
  if (!header) return header
  const at = iso(event.data.at)!
  if (event.type === 'ThemePreviewIssued') return { ...header, lastPreviewAt: at, lastPreviewedVersion: event.data.themeVersion }
  const changed = { ...header, version: header.version + 1, updatedAt: at }
  switch (event.type) {
    case 'ThemeRenamed':
      return { ...changed, name: event.data.name }
    case 'ThemePublished':
      return { ...changed, status: 'active', publishedAt: at }
    case 'ThemeUnpublished':
      return { ...changed, status: 'private' }
    case 'ThemeArchived':
      return { ...changed, status: 'archived', archivedAt: at }
    default:
      return changed
  }
}

// One theme's header into its store's row. The write merges this key only and only forward (a
// newer stream version), so two commands on two themes of one store never undo each other.
export async function writeContextTheme(db: QueryCreator<Database>, header: ContextThemeHeader): Promise<void> {
  const json = JSON.stringify(header)
  await db
    .insertInto('store_context')
    .values({ store_id: header.storeId, themes: sql`jsonb_build_object(${header.themeId}::text, ${json}::jsonb)` as never })
    .onConflict((oc) =>
      oc
        .column('store_id')
        .doUpdateSet({ themes: sql`jsonb_set(store_context.themes, array[${header.themeId}::text], ${json}::jsonb)` as never })
        .where(sql<boolean>`coalesce((store_context.themes -> ${header.themeId}::text ->> 'streamVersion')::bigint, 0) < ${header.streamVersion}`),
    )
    .execute()
}

// The prepared form of writeContextTheme, run by the append statement: $4 is { storeId, themeId,
// ord, header }, the stream version is the appended event's ($2 by ord).
const PREPARED_CONTEXT_UPSERT = `
  insert into store_context (store_id, themes)
  values ($4->>'storeId', jsonb_build_object($4->>'themeId', ($4->'header') || jsonb_build_object('streamVersion', $2[($4->>'ord')::integer])))
  on conflict (store_id) do update set themes = jsonb_set(store_context.themes, array[$4->>'themeId'], excluded.themes -> ($4->>'themeId'))
  where coalesce((store_context.themes -> ($4->>'themeId') ->> 'streamVersion')::bigint, 0) < $2[($4->>'ord')::integer]`

export const storeContextProjection: Projection = {
  name: 'store_context',
  tables: ['store_context'],
  // The header follows from the state the command decided on, as for the themes projection.
  prepare({ streams: appended, events }) {
    const writes = []
    for (const [streamId, list] of groupPending(events, streams.theme.prefix)) {
      let state = stateBefore(appended.find((s) => s.streamId === streamId))
      if (!state) return null
      for (const e of list) state = evolve(state, { type: e.type, data: e.data } as ThemeEvent)
      if (!state.exists) continue
      const { exists: _, document: __, ...header } = state
      writes.push({ sql: PREPARED_CONTEXT_UPSERT, payload: JSON.stringify({ storeId: header.storeId, themeId: header.themeId, ord: list.at(-1)!.ord, header }) })
    }
    return writes
  },
  async apply(db: QueryCreator<Database>, events) {
    const byStream = groupByStream(events, streams.theme.prefix)
    if (byStream.size === 0) return
    const stored = new Map<string, Record<string, ContextThemeHeader>>()
    for (const [streamId, list] of byStream) {
      const themeId = streams.theme.idOf(streamId)!
      const storeId = list[0]!.storeId
      let themes = stored.get(storeId)
      if (!themes) {
        const row = await db.selectFrom('store_context').select('themes').where('store_id', '=', storeId).executeTakeFirst()
        themes = (row?.themes ?? {}) as Record<string, ContextThemeHeader>
        stored.set(storeId, themes)
      }
      const before = themes[themeId]
      let header: ThemeHeader | null = before ? withoutVersion(before) : null
      let streamVersion = before?.streamVersion ?? 0
      for (const e of list) {
        if (e.streamVersion <= streamVersion) continue
        header = evolveHeader(header, { type: e.type, data: e.data } as ThemeEvent)
        streamVersion = e.streamVersion
      }
      if (!header || streamVersion === (before?.streamVersion ?? 0)) continue
      const next = { ...header, streamVersion }
      themes[themeId] = next
      await writeContextTheme(db, next)
    }
  },
}

function withoutVersion(h: ContextThemeHeader): ThemeHeader {
  const { streamVersion: _, ...header } = h
  return header
}
