import type { OAuthGrantEvent } from './events.ts'

const GRANT_REVOCATIONS = {
  merchant: 'revoked by the merchant',
  refresh_token_reuse:
    'a refresh token came back after it had been replaced (possible theft), so every token of the grant is revoked',
  client_revocation: 'the app revoked its refresh token',
  app_deleted: 'the app was deleted',
} as const
const TOKEN_REVOCATIONS = {
  code_reuse: 'an authorization code was used twice, so the tokens issued from it are revoked',
  client_revocation: 'the app revoked an access token',
} as const

export function describeOAuthGrantEvent(event: OAuthGrantEvent): string | null {
  switch (event.type) {
    case 'OAuthGrantApproved': {
      const d = event.data
      const who = `${d.clientName}${d.verified ? '' : ' (unverified)'}`
      return d.previousScopes
        ? `Changed the access of ${who} to: ${d.scopes.join(', ')}`
        : `Connected ${who} with: ${d.scopes.join(', ')}`
    }
    case 'OAuthGrantRevoked':
      return `Disconnected ${event.data.clientName}: ${GRANT_REVOCATIONS[event.data.reason]}`
    case 'OAuthTokensRevoked':
      return `${event.data.clientName}: ${TOKEN_REVOCATIONS[event.data.reason]} (${event.data.tokens})`
  }
}
