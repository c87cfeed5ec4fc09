import type { AccessEvent } from './events.ts'

const list = (names: string[]) => names.join(', ')

export function describeAccessEvent(event: AccessEvent): string | null {
  switch (event.type) {
    case 'AppCreated':
      return `Created ${event.data.kind} app "${event.data.name}" (client ID ${event.data.clientId}${event.data.redirectUris.length ? `, redirect URIs: ${list(event.data.redirectUris)}` : ''})`
    case 'AppRedirectUrisChanged':
      return `Set the redirect URIs of app "${event.data.name}": ${event.data.redirectUris.length ? list(event.data.redirectUris) : 'none'}`
    case 'AppSecretRotated':
      return `Rotated the client secret of app "${event.data.name}" (new secret ends ${event.data.hint})`
    case 'AppDeleted':
      return `Deleted app "${event.data.name}"${event.data.revokedKeys ? ` and revoked its ${event.data.revokedKeys} API key${event.data.revokedKeys === 1 ? '' : 's'}` : ''}`
    case 'ApiKeyCreated':
      return `Created API key "${event.data.name}" (${event.data.hint}) with scopes ${list(event.data.scopes)}`
    case 'ApiKeyRevoked':
      return `Revoked API key "${event.data.name}"`
    case 'MerchantPasswordChanged':
      return `Changed the dashboard password${event.data.endedSessions ? ` and signed out ${event.data.endedSessions} other session${event.data.endedSessions === 1 ? '' : 's'}` : ''}`
  }
}
