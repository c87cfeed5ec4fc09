import type { OAuthGrantEvent } from './oauth-events.ts'
import type { ThemeEvent } from '../aggregates/theme/events.ts'
import type { NavigationEntry } from '../theme/document.ts'

// Events of a store's theme registry (`store-themes-<storeId>`): which themes count against the
// store's limit, and which one is live. Publishing appends here too, so two publishes in one
// store conflict on this stream and exactly one theme stays active.
export type StoreThemesEvent =
  | { type: 'StoreThemeAdded'; data: { themeId: string; at: string } }
  | { type: 'StoreThemeArchived'; data: { themeId: string; at: string } }
  | { type: 'LiveThemeChanged'; data: { themeId: string; previousThemeId: string | null; at: string } }

export type NavigationMenu = { handle: string; title: string; items: NavigationEntry[] }

// Store-level streams outside themes.
export type NavigationEvent = {
  type: 'NavigationMenusUpdated'
  data: { menus: NavigationMenu[]; changed: string[]; at: string }
}
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

// Apps and API keys, changed by the merchant in the dashboard (or by ops), audited in the
// store's `activity-<storeId>` stream. Secrets never appear in events; a key's hint does.
export type AccessEvent =
  | {
      type: 'AppCreated'
      data: {
        appId: string
        name: string
        kind: 'confidential' | 'public'
        clientId: string
        redirectUris: string[]
        at: string
      }
    }
  | { type: 'AppRedirectUrisChanged'; data: { appId: string; name: string; redirectUris: string[]; at: string } }
  | { type: 'AppSecretRotated'; data: { appId: string; name: string; hint: string; at: string } }
  | { type: 'AppDeleted'; data: { appId: string; name: string; revokedKeys: number; at: string } }
  | {
      type: 'ApiKeyCreated'
      data: { appId: string; keyId: string; name: string; hint: string; scopes: string[]; at: string }
    }
  | { type: 'ApiKeyRevoked'; data: { appId: string; keyId: string; name: string; at: string } }

export type DomainEvent =
  | ThemeEvent
  | StoreThemesEvent
  | NavigationEvent
  | MediaEvent
  | ActivityEvent
  | AccessEvent
  | OAuthGrantEvent

// A stream name is a prefix and an id; the prefix is written here only.
export type StreamName = ((id: string) => string) & { prefix: string; idOf: (streamId: string) => string | null }
const streamName = (prefix: string): StreamName =>
  Object.assign((id: string) => `${prefix}${id}`, {
    prefix,
    idOf: (streamId: string) => (streamId.startsWith(prefix) ? streamId.slice(prefix.length) : null),
  })

export const streams = {
  theme: streamName('theme-'),
  storeThemes: streamName('store-themes-'),
  navigation: streamName('navigation-'),
  media: streamName('media-'),
  activity: streamName('activity-'),
  oauthGrant: streamName('oauth-grant-'),
}
export const streamTypes = {
  theme: 'theme',
  storeThemes: 'store-themes',
  navigation: 'navigation',
  media: 'media',
  activity: 'activity',
  oauthGrant: 'oauth-grant',
} as const
