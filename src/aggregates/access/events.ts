import { eventTypes } from '../stream-name.ts'

// Apps and API keys (and the merchant's password), changed by the merchant in the dashboard (or by ops), audited in the
// store's activity stream (refusals/events.ts: activityStream) next to the row each change
// writes. Secrets never appear in events; a key's hint does.
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
  // The merchant changed their own password; the other sessions ended. No password or hash here.
  | { type: 'MerchantPasswordChanged'; data: { merchantId: string; endedSessions: number; at: string } }

export const ACCESS_EVENT_TYPES = eventTypes<AccessEvent>()([
  'AppCreated',
  'AppRedirectUrisChanged',
  'AppSecretRotated',
  'AppDeleted',
  'ApiKeyCreated',
  'ApiKeyRevoked',
  'MerchantPasswordChanged',
])
