import { sectionLabel, settingLabel, templateLabel } from '../../theme/merchant-texts.ts'
import { changedValue, type MerchantLine } from '../merchant-line.ts'
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
    case 'ThemePublished': {
      const withErrors = event.data.checkErrors
        ? ` with ${event.data.checkErrors.count} check error(s) (${event.data.checkErrors.rules.join(', ')})`
        : ''
      return event.data.previousThemeId
        ? `Published theme ${themeId} to the live storefront${withErrors}, replacing ${event.data.previousThemeId}`
        : `Published theme ${themeId} to the live storefront${withErrors}`
    }
    case 'ThemeUnpublished':
      return `Theme ${themeId} is no longer live (replaced by ${event.data.replacedBy}) and is now private`
    case 'ThemeArchived':
      return `Archived theme ${themeId}`
    case 'ThemePreviewIssued':
      return `Issued a preview link for version ${event.data.themeVersion}, valid until ${event.data.expiresAt}`
  }
}

// --- the same events in the merchant's words (the activity view's headlines and details) ---

// Where a section sits: nothing for the home page (most edits), else the template or "A page".
const placeOf = (t: SectionTarget) =>
  'template' in t ? (t.template === 'home' ? '' : `${templateLabel(t.template)} › `) : 'A page › '
const sectionName = (t: SectionTarget, type: string | undefined) =>
  `${placeOf(t)}${type ? sectionLabel(type) : 'A section'}`
const settingKey = (changed: string) => changed.replace(/^settings\./, '')
const minutesBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 60_000)

export function themeMerchantLines(event: ThemeEvent): MerchantLine[] {
  switch (event.type) {
    case 'ThemeCreated':
      return event.data.duplicatedFrom
        ? [{ text: 'Copied from', theme: event.data.duplicatedFrom }]
        : [{ text: 'Created the theme' }]
    case 'ThemeRenamed':
      return [changedValue('Renamed the theme', event.data.previousName, event.data.name, true)]
    case 'ThemeTokensUpdated': {
      const d = event.data
      return d.changed.map((k) =>
        changedValue(
          `Theme style › ${settingLabel(k)}`,
          d.previous?.[k as keyof typeof d.previous],
          d.tokens[k as keyof typeof d.tokens],
          d.previous !== undefined,
        ),
      )
    }
    case 'ThemeNavigationSet':
      return [{ text: `Changed the theme's menu (${event.data.navigation.length} links)` }]
    case 'PageCreated':
      return [{ text: `Created the page “${event.data.page.title}”` }]
    case 'PageUpdated': {
      const d = event.data
      const name = `Page “${d.page.title}”`
      const lines = d.changed
        .filter((k) => k !== 'layout')
        .map((k) => {
          const key = k as 'title' | 'slug' | 'status'
          return changedValue(`${name} › ${settingLabel(k)}`, d.previous?.[key], d.page[key], d.previous !== undefined)
        })
      if (d.changed.includes('layout')) lines.push({ text: `${name} › Sections` })
      return lines
    }
    case 'PageDeleted':
      return [{ text: `Deleted the page /pages/${event.data.slug}` }]
    case 'SectionAdded':
      return [{ text: `Added ${sectionName(event.data.target, event.data.section.type)}` }]
    case 'SectionUpdated': {
      const d = event.data
      const section = sectionName(d.target, d.section.type)
      const settings = d.section.settings as Record<string, unknown>
      const lines = d.changed
        .filter((c) => c !== 'blocks')
        .map((c) => {
          const key = settingKey(c)
          return changedValue(
            `${section} › ${settingLabel(key)}`,
            d.previous?.[key],
            settings[key],
            d.previous !== undefined && key in d.previous,
          )
        })
      if (d.changed.includes('blocks')) lines.push({ text: `${section} › Items` })
      return lines.length > 0 ? lines : [{ text: `Changed ${section}` }]
    }
    case 'SectionRemoved':
      return [{ text: `Removed ${sectionName(event.data.target, event.data.sectionType)}` }]
    case 'SectionMoved':
      return [
        { text: `Moved ${sectionName(event.data.to, event.data.sectionType)} to position ${event.data.index + 1}` },
      ]
    case 'ThemePublished': {
      const d = event.data
      const version = d.themeVersion !== undefined ? ` (version ${d.themeVersion})` : ''
      const text = d.wasLive ? `Rolled back to this theme${version}` : `Published${version}`
      const lines: MerchantLine[] = [
        d.previousThemeId ? { text: `${text}, replacing`, theme: d.previousThemeId } : { text },
      ]
      if (d.checkErrors)
        lines.push({
          text: `Went live with ${d.checkErrors.count} error${d.checkErrors.count === 1 ? '' : 's'} found by the theme checks`,
        })
      return lines
    }
    case 'ThemeUnpublished':
      // Part of the publish that replaced it, whose line already says "replacing …".
      return []
    case 'ThemeArchived':
      return [{ text: 'Archived the theme' }]
    case 'ThemePreviewIssued': {
      const minutes = minutesBetween(event.data.at, event.data.expiresAt)
      return [
        {
          text: `Shared a preview link of version ${event.data.themeVersion}, valid ${minutes} minute${minutes === 1 ? '' : 's'}`,
        },
      ]
    }
  }
}
