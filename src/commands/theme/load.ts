import type { StoreThemesEvent, ThemeEvent } from '../../events/theme-events.ts'
import { streams } from '../../events/theme-events.ts'
import { rowToTheme } from '../../projections/themes-projection.ts'
import type { CommandDeps } from '../context.ts'
import { fold, initialThemeState, type ThemeState } from './state.ts'
import { evolveStoreThemes, initialStoreThemes, type StoreThemesState } from './store-themes.ts'

export type Loaded<S> = { state: S; streamVersion: number }

// The projection row is a snapshot written in the same transaction as its events; any events
// past it (a projection that lags or is being rebuilt) are replayed on top.
export async function loadTheme(deps: CommandDeps, themeId: string): Promise<Loaded<ThemeState>> {
  const streamId = streams.theme(themeId)
  // The snapshot and the stream's current version in one read; the tail only when they differ.
  const row = await deps.db
    .selectFrom('themes')
    .innerJoin('streams', (join) => join.on('streams.stream_id', '=', streamId))
    .selectAll('themes')
    .select('streams.version as current_version')
    .where('themes.theme_id', '=', themeId)
    .executeTakeFirst()
  if (row && Number(row.current_version) === row.stream_version) return { state: { exists: true, ...rowToTheme(row) }, streamVersion: row.stream_version }
  const base: ThemeState = row ? { exists: true, ...rowToTheme(row) } : initialThemeState
  const baseVersion = row ? row.stream_version : 0
  const tail = await deps.eventStore.readStream(streamId, { fromVersion: baseVersion + 1 })
  const state = fold(tail.map((e) => ({ type: e.type, data: e.data }) as ThemeEvent), base)
  return { state, streamVersion: tail.at(-1)?.streamVersion ?? baseVersion }
}

export async function loadStoreThemes(deps: CommandDeps, storeId: string): Promise<Loaded<StoreThemesState>> {
  const events = await deps.eventStore.readStream(streams.storeThemes(storeId))
  let state = initialStoreThemes
  for (const e of events) state = evolveStoreThemes(state, { type: e.type, data: e.data } as StoreThemesEvent)
  return { state, streamVersion: events.at(-1)?.streamVersion ?? 0 }
}

export const expectedFrom = (streamVersion: number) => (streamVersion === 0 ? ('no_stream' as const) : streamVersion)
