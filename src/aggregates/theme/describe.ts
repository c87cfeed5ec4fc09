import type { SectionTarget, ThemeEvent } from './events.ts'
import { themeStream } from './events.ts'

const where = (t: SectionTarget) => ('template' in t ? `the ${t.template} template` : `page ${t.pageId}`)
const list = (names: string[]) => names.join(', ')

// One line per theme event for the merchant's developer-activity view and the agents' change lists.
export function describeThemeEvent(event: ThemeEvent, streamId: string): string | null {
  const themeId = themeStream.idOf(streamId)
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
        ? `Published theme ${themeId} to the live storefront, replacing ${event.data.previousThemeId}`
        : `Published theme ${themeId} to the live storefront`
    case 'ThemeUnpublished':
      return `Theme ${themeId} is no longer live (replaced by ${event.data.replacedBy}) and is now private`
    case 'ThemeArchived':
      return `Archived theme ${themeId}`
    case 'ThemePreviewIssued':
      return `Issued a preview link for version ${event.data.themeVersion}, valid until ${event.data.expiresAt}`
  }
}
