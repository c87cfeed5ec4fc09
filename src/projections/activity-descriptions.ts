import { streams, type DomainEvent } from '../events/theme-events.ts'
import type { SectionTarget } from '../aggregates/theme/events.ts'

const where = (t: SectionTarget) => ('template' in t ? `the ${t.template} template` : `page ${t.pageId}`)
const list = (names: string[]) => names.join(', ')
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

// One readable line per event for the merchant's developer-activity view; null for bookkeeping.
export function describeEvent(event: DomainEvent, streamId: string): string | null {
  switch (event.type) {
    case 'ThemeCreated': {
      const d = event.data
      return d.duplicatedFrom
        ? `Duplicated theme ${d.duplicatedFrom} as draft "${d.name}"`
        : `Created draft theme "${d.name}" (provider: ${d.provider})`
    }
    case 'ThemeRenamed':
      return `Renamed the theme from "${event.data.previousName}" to "${event.data.name}"`
    case 'ThemeTokensUpdated':
      return `Changed design tokens: ${list(event.data.changed)}`
    case 'ThemeNavigationSet':
      return `Set the theme navigation (${event.data.navigation.length} entries)`
    case 'PageCreated':
      return `Created page /pages/${event.data.page.slug} (${event.data.page.status}, ${event.data.page.layout.length} sections)`
    case 'PageUpdated':
      return `Updated page /pages/${event.data.page.slug}: ${list(event.data.changed)}`
    case 'PageDeleted':
      return `Deleted page /pages/${event.data.slug}`
    case 'SectionAdded':
      return `Added ${event.data.section.type} section "${event.data.section.id}" to ${where(event.data.target)} at position ${event.data.index + 1}`
    case 'SectionUpdated':
      return `Updated ${event.data.section.type} section "${event.data.sectionId}" in ${where(event.data.target)}${event.data.changed.length ? `: ${list(event.data.changed)}` : ''}`
    case 'SectionRemoved':
      return `Removed ${event.data.sectionType} section "${event.data.sectionId}" from ${where(event.data.target)}`
    case 'SectionMoved':
      return `Moved section "${event.data.sectionId}" from ${where(event.data.from)} to position ${event.data.index + 1} of ${where(event.data.to)}`
    case 'ThemePublished':
      return event.data.previousThemeId
        ? `Published theme ${streams.theme.idOf(streamId)} to the live storefront, replacing ${event.data.previousThemeId}`
        : `Published theme ${streams.theme.idOf(streamId)} to the live storefront`
    case 'ThemeUnpublished':
      return `Theme ${streams.theme.idOf(streamId)} is no longer live (replaced by ${event.data.replacedBy}) and is now private`
    case 'ThemeArchived':
      return `Archived theme ${streams.theme.idOf(streamId)}`
    case 'ThemePreviewIssued':
      return `Issued a preview link for version ${event.data.themeVersion}, valid until ${event.data.expiresAt}`
    case 'NavigationMenusUpdated':
      return `Updated navigation menus: ${list(event.data.changed)}`
    case 'MediaAssetRegistered':
      return event.data.source === 'upload'
        ? `Uploaded image ${event.data.url} (${event.data.contentType}, ${event.data.byteSize} bytes)`
        : `Registered image URL ${event.data.url}`
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
    case 'CommandRejected':
      return `Refused: ${event.data.code}: ${event.data.message}`
    case 'OAuthGrantApproved': {
      const d = event.data
      const who = `${d.clientName}${d.verified ? '' : ' (unverified)'}`
      return d.previousScopes
        ? `Changed the access of ${who} to: ${list(d.scopes)}`
        : `Connected ${who} with: ${list(d.scopes)}`
    }
    case 'OAuthGrantRevoked':
      return `Disconnected ${event.data.clientName}: ${GRANT_REVOCATIONS[event.data.reason]}`
    case 'OAuthTokensRevoked':
      return `${event.data.clientName}: ${TOKEN_REVOCATIONS[event.data.reason]} (${event.data.tokens})`
    case 'StoreThemeAdded':
    case 'StoreThemeArchived':
    case 'LiveThemeChanged':
      return null
  }
}

export function themeIdOf(event: DomainEvent, streamId: string): string | null {
  const themeId = streams.theme.idOf(streamId)
  if (themeId !== null) return themeId
  if ('themeId' in event.data && typeof event.data.themeId === 'string') return event.data.themeId
  return null
}

export function summarize(lines: string[]): string {
  if (lines.length === 0) return 'No visible change'
  if (lines.length === 1) return lines[0]!
  const shown = lines.slice(0, 3).join('; ')
  return `${lines.length} changes: ${shown}${lines.length > 3 ? `; and ${lines.length - 3} more` : ''}`
}
