import { LIMITS } from '../../theme/document.ts'
import type { Decider } from '../decider.ts'
import { fail, ok, type Result } from '../result.ts'
import { storeThemesStream, type StoreThemesEvent } from './events.ts'

// A store's theme registry: the themes that count against its limit and the one that is live.
export type StoreThemesState = { themeIds: readonly string[]; activeThemeId: string | null }
export const initialStoreThemes: StoreThemesState = { themeIds: [], activeThemeId: null }

export type StoreThemesCommand =
  | { type: 'AddTheme'; themeId: string }
  | { type: 'RemoveTheme'; themeId: string }
  | { type: 'ChangeLiveTheme'; themeId: string }

export function evolveStoreThemes(state: StoreThemesState, event: StoreThemesEvent): StoreThemesState {
  switch (event.type) {
    case 'StoreThemeAdded':
      return { ...state, themeIds: [...state.themeIds, event.data.themeId] }
    case 'StoreThemeArchived':
      return { ...state, themeIds: state.themeIds.filter((id) => id !== event.data.themeId) }
    case 'LiveThemeChanged':
      return { ...state, activeThemeId: event.data.themeId }
  }
}

export function decideStoreThemes(
  command: StoreThemesCommand,
  state: StoreThemesState,
  at: string,
): Result<StoreThemesEvent[]> {
  switch (command.type) {
    case 'AddTheme':
      if (state.themeIds.length >= LIMITS.themesPerStore) {
        return fail(
          'LIMIT_EXCEEDED',
          `a store has at most ${LIMITS.themesPerStore} themes that are not archived; archive one first`,
          { limit: LIMITS.themesPerStore },
        )
      }
      return ok([{ type: 'StoreThemeAdded', data: { themeId: command.themeId, at } }])
    case 'RemoveTheme':
      return ok(
        state.themeIds.includes(command.themeId)
          ? [{ type: 'StoreThemeArchived', data: { themeId: command.themeId, at } }]
          : [],
      )
    case 'ChangeLiveTheme':
      if (state.activeThemeId === command.themeId) return ok([])
      return ok([
        { type: 'LiveThemeChanged', data: { themeId: command.themeId, previousThemeId: state.activeThemeId, at } },
      ])
  }
}

export const storeThemesDecider: Decider<StoreThemesCommand, StoreThemesState, StoreThemesEvent> = {
  stream: storeThemesStream,
  initialState: initialStoreThemes,
  evolve: evolveStoreThemes,
  decide: (command, state, { at }) => decideStoreThemes(command, state, at),
}
