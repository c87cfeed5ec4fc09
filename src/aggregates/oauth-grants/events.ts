import { eventTypes, streamName } from '../stream-name.ts'

// What happens to a merchant's OAuth grants (stream `oauth-grant-<grantId>`). Token values never
// appear here: a grant is named by its id, its client and its scopes.
export type OAuthGrantEvent =
  | {
      type: 'OAuthGrantApproved'
      data: {
        grantId: string
        clientId: string
        clientName: string
        verified: boolean
        scopes: string[]
        previousScopes: string[] | null
        at: string
      }
    }
  | {
      type: 'OAuthGrantRevoked'
      data: { grantId: string; clientId: string; clientName: string; reason: OAuthGrantRevocationReason; at: string }
    }
  | {
      type: 'OAuthTokensRevoked'
      data: {
        grantId: string
        clientId: string
        clientName: string
        reason: OAuthTokenRevocationReason
        tokens: number
        at: string
      }
    }

// The whole grant ends: the merchant or the app said so, or a rotated refresh token came back.
export type OAuthGrantRevocationReason = 'merchant' | 'refresh_token_reuse' | 'client_revocation' | 'app_deleted'
// Some tokens end, the grant stays: a code used twice, or the app revoked one access token.
export type OAuthTokenRevocationReason = 'code_reuse' | 'client_revocation'

export const oauthGrantStream = streamName('oauth-grant')

export const OAUTH_GRANT_EVENT_TYPES = eventTypes<OAuthGrantEvent>()([
  'OAuthGrantApproved',
  'OAuthGrantRevoked',
  'OAuthTokensRevoked',
])
