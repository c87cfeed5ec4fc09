import type { NavigationEntry, Page, Section, TemplateName, ThemeDocument, ThemeTokens } from '../theme/document.ts'

// Events of one theme's stream (`theme-<themeId>`). Updates carry the full new value of what
// they change, so evolve and every projection stay trivial and order-checkable.

export type SectionTarget = { template: TemplateName } | { pageId: string }

export type ThemeEvent =
  | { type: 'ThemeCreated'; data: { themeId: string; storeId: string; name: string; provider: string; document: ThemeDocument; duplicatedFrom: string | null; at: string } }
  | { type: 'ThemeRenamed'; data: { name: string; previousName: string; at: string } }
  | { type: 'ThemeTokensUpdated'; data: { tokens: ThemeTokens; changed: string[]; at: string } }
  | { type: 'ThemeNavigationSet'; data: { navigation: NavigationEntry[]; at: string } }
  | { type: 'PageCreated'; data: { page: Page; index: number; at: string } }
  | { type: 'PageUpdated'; data: { pageId: string; page: Page; changed: string[]; at: string } }
  | { type: 'PageDeleted'; data: { pageId: string; slug: string; at: string } }
  | { type: 'SectionAdded'; data: { target: SectionTarget; index: number; section: Section; at: string } }
  | { type: 'SectionUpdated'; data: { sectionId: string; target: SectionTarget; section: Section; changed: string[]; at: string } }
  | { type: 'SectionRemoved'; data: { sectionId: string; target: SectionTarget; sectionType: string; at: string } }
  | { type: 'SectionMoved'; data: { sectionId: string; from: SectionTarget; to: SectionTarget; index: number; at: string } }
  | { type: 'ThemePublished'; data: { previousThemeId: string | null; at: string } }
  | { type: 'ThemeUnpublished'; data: { replacedBy: string; at: string } }
  | { type: 'ThemeArchived'; data: { at: string } }
  | { type: 'ThemePreviewIssued'; data: { tokenId: string; expiresAt: string; themeVersion: number; at: string } }

export type ThemeEventType = ThemeEvent['type']

// Events of a store's theme registry (`store-themes-<storeId>`): which themes count against the
// store's limit, and which one is live. Publishing appends here too, so two publishes in one
// store conflict on this stream and exactly one theme stays active.
export type StoreThemesEvent =
  | { type: 'StoreThemeAdded'; data: { themeId: string; at: string } }
  | { type: 'StoreThemeArchived'; data: { themeId: string; at: string } }
  | { type: 'LiveThemeChanged'; data: { themeId: string; previousThemeId: string | null; at: string } }

export type NavigationMenu = { handle: string; title: string; items: NavigationEntry[] }

// Store-level streams outside themes.
export type NavigationEvent = { type: 'NavigationMenusUpdated'; data: { menus: NavigationMenu[]; changed: string[]; at: string } }
export type MediaEvent = {
  type: 'MediaAssetRegistered'
  data: {
    assetId: string
    url: string
    source: 'upload' | 'url'
    contentType: string | null
    byteSize: number | null
    width: number | null
    height: number | null
    sha256: string | null
    alt: string
    at: string
  }
}
// A refused command is audited too (`activity-<storeId>`), so merchants see attempts, not only successes.
export type ActivityEvent = {
  type: 'CommandRejected'
  data: { themeId: string | null; code: string; message: string; at: string }
}

export type DomainEvent = ThemeEvent | StoreThemesEvent | NavigationEvent | MediaEvent | ActivityEvent

export const streams = {
  theme: (themeId: string) => `theme-${themeId}`,
  storeThemes: (storeId: string) => `store-themes-${storeId}`,
  navigation: (storeId: string) => `navigation-${storeId}`,
  media: (storeId: string) => `media-${storeId}`,
  activity: (storeId: string) => `activity-${storeId}`,
}
export const streamTypes = { theme: 'theme', storeThemes: 'store-themes', navigation: 'navigation', media: 'media', activity: 'activity' } as const
