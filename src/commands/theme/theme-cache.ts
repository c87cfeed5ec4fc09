import type { ThemeState } from '../../aggregates/theme/state.ts'
import type { Loaded } from './load.ts'

export type CachedTheme = Loaded<ThemeState & { exists: true }>

// Themes as this process last wrote or read them, so a command on a theme it has just changed
// decides without reading it again (one round trip: the append). Never trusted on its own: the
// append's expected version is the cached stream version, so a theme changed elsewhere (another
// instance, the CLI) conflicts and the command is decided again on a fresh read; and a refusal
// decided on a cached theme is decided again on a fresh read before it is given (runCommand).
// States are immutable (evolve copies the path to a change), so entries are shared, not copied.
export type ThemeCache = {
  get(themeId: string): CachedTheme | undefined
  // Keeps the newer of the entry and what is given (two commands of this process may finish in
  // either order).
  put(themeId: string, loaded: CachedTheme): void
  drop(themeId: string): void
  // A view for one command that remembers whether it answered from the cache.
  tracking(): ThemeCache & { readonly hit: boolean }
}

export function createThemeCache(max = 256): ThemeCache {
  const entries = new Map<string, CachedTheme>()
  const cache: ThemeCache = {
    get(themeId) {
      const entry = entries.get(themeId)
      if (entry) {
        // Most recently used last: the first key is the one to evict.
        entries.delete(themeId)
        entries.set(themeId, entry)
      }
      return entry
    },
    put(themeId, loaded) {
      const current = entries.get(themeId)
      if (current && current.streamVersion >= loaded.streamVersion) return
      entries.delete(themeId)
      entries.set(themeId, loaded)
      if (entries.size > max) entries.delete(entries.keys().next().value!)
    },
    drop(themeId) {
      entries.delete(themeId)
    },
    tracking() {
      let hit = false
      return {
        get(themeId) {
          const entry = cache.get(themeId)
          if (entry) hit = true
          return entry
        },
        put: cache.put,
        drop: cache.drop,
        tracking: cache.tracking,
        get hit() {
          return hit
        },
      }
    },
  }
  return cache
}
