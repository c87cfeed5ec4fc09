import { eventTypes, streamName } from '../stream-name.ts'

// Events of a store's theme registry (`store-themes-<storeId>`): which themes count against the
// store's limit, and which one is live. Publishing appends here too, so two publishes in one
// store conflict on this stream and exactly one theme stays active.
export type StoreThemesEvent =
  | { type: 'StoreThemeAdded'; data: { themeId: string; at: string } }
  | { type: 'StoreThemeArchived'; data: { themeId: string; at: string } }
  | { type: 'LiveThemeChanged'; data: { themeId: string; previousThemeId: string | null; at: string } }

export const storeThemesStream = streamName('store-themes')

export const STORE_THEMES_EVENT_TYPES = eventTypes<StoreThemesEvent>()([
  'StoreThemeAdded',
  'StoreThemeArchived',
  'LiveThemeChanged',
])
