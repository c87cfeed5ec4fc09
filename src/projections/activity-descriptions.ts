import type { DomainEvent, SectionTarget } from '../events/theme-events.ts'

const where = (t: SectionTarget) => ('template' in t ? `the ${t.template} template` : `page ${t.pageId}`)
const list = (names: string[]) => names.join(', ')

// One readable line per event for the merchant's developer-activity view; null for bookkeeping.
export function describeEvent(event: DomainEvent, streamId: string): string | null {
  switch (event.type) {
    case 'ThemeCreated': {
      const d = event.data
      return d.duplicatedFrom ? `Duplicated theme ${d.duplicatedFrom} as draft "${d.name}"` : `Created draft theme "${d.name}" (provider: ${d.provider})`
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
        ? `Published theme ${streamId.slice('theme-'.length)} to the live storefront, replacing ${event.data.previousThemeId}`
        : `Published theme ${streamId.slice('theme-'.length)} to the live storefront`
    case 'ThemeUnpublished':
      return `Theme ${streamId.slice('theme-'.length)} is no longer live (replaced by ${event.data.replacedBy}) and is now private`
    case 'ThemeArchived':
      return `Archived theme ${streamId.slice('theme-'.length)}`
    case 'ThemePreviewIssued':
      return `Issued a preview link for version ${event.data.themeVersion}, valid until ${event.data.expiresAt}`
    case 'NavigationMenusUpdated':
      return `Updated navigation menus: ${list(event.data.changed)}`
    case 'MediaAssetRegistered':
      return event.data.source === 'upload' ? `Uploaded image ${event.data.url} (${event.data.contentType}, ${event.data.byteSize} bytes)` : `Registered image URL ${event.data.url}`
    case 'CommandRejected':
      return `Refused: ${event.data.code}: ${event.data.message}`
    case 'StoreThemeAdded':
    case 'StoreThemeArchived':
    case 'LiveThemeChanged':
      return null
  }
}

export function themeIdOf(event: DomainEvent, streamId: string): string | null {
  if (streamId.startsWith('theme-')) return streamId.slice('theme-'.length)
  if ('themeId' in event.data && typeof event.data.themeId === 'string') return event.data.themeId
  return null
}

export function summarize(lines: string[]): string {
  if (lines.length === 0) return 'No visible change'
  if (lines.length === 1) return lines[0]!
  const shown = lines.slice(0, 3).join('; ')
  return `${lines.length} changes: ${shown}${lines.length > 3 ? `; and ${lines.length - 3} more` : ''}`
}
