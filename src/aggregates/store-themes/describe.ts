import type { StoreThemesEvent } from './events.ts'

// The registry's events are bookkeeping: the theme's own events (published, archived) say it.
export function describeStoreThemesEvent(_event: StoreThemesEvent): string | null {
  return null
}
