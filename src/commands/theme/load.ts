import type { StoreThemesEvent } from '../../events/theme-events.ts'
import type { ThemeEvent } from '../../aggregates/theme/events.ts'
import { streams } from '../../events/theme-events.ts'
import type { CommandDeps } from '../context.ts'
import { fold, initialThemeState, type ThemeState } from '../../aggregates/theme/state.ts'
import { evolveStoreThemes, initialStoreThemes, type StoreThemesState } from './store-themes.ts'

export type Loaded<S> = { state: S; streamVersion: number }

// The projection row is a snapshot written in the same transaction as its events; any events
// past it (a projection that lags or is being rebuilt) are replayed on top.
export async function loadTheme(deps: CommandDeps, themeId: string): Promise<Loaded<ThemeState>> {
  const streamId = streams.theme(themeId)
  // The snapshot and the stream's current version in one read; the tail only when they differ.
  const snapshot = await deps.themeSnapshot(themeId)
  if (snapshot && snapshot.streamVersion === snapshot.snapshotVersion)
    return { state: { exists: true, ...snapshot.theme }, streamVersion: snapshot.snapshotVersion }
  const base: ThemeState = snapshot ? { exists: true, ...snapshot.theme } : initialThemeState
  const baseVersion = snapshot ? snapshot.snapshotVersion : 0
  const tail = await deps.eventStore.readStream<ThemeEvent>(streamId, { fromVersion: baseVersion + 1 })
  const state = fold(tail, base)
  return { state, streamVersion: tail.at(-1)?.streamVersion ?? baseVersion }
}

export async function loadStoreThemes(deps: CommandDeps, storeId: string): Promise<Loaded<StoreThemesState>> {
  const events = await deps.eventStore.readStream<StoreThemesEvent>(streams.storeThemes(storeId))
  let state = initialStoreThemes
  for (const e of events) state = evolveStoreThemes(state, e)
  return { state, streamVersion: events.at(-1)?.streamVersion ?? 0 }
}

export const expectedFrom = (streamVersion: number) => (streamVersion === 0 ? ('no_stream' as const) : streamVersion)
