import type { NavigationEntry, Page, Section, TemplateName, ThemeDocument, ThemeTokens } from '../../theme/document.ts'
import { eventTypes, streamName } from '../stream-name.ts'

// Events of one theme's stream (themeStream: `theme-<themeId>`). Updates carry the full new value of what
// they change, so evolve and every projection stay trivial and order-checkable. Since decision
// docs/decisions/0120-events-carry-previous-values.md they also carry, in optional fields, what a
// merchant needs to read the change without the state before it: the previous values of what
// changed, the section's type, whether a publish brought a former live theme back. Events
// recorded before lack them; every reader treats them as optional.

export type SectionTarget = { template: TemplateName } | { pageId: string }

export type ThemeEvent =
  | {
      type: 'ThemeCreated'
      data: {
        themeId: string
        storeId: string
        name: string
        provider: string
        document: ThemeDocument
        duplicatedFrom: string | null
        at: string
      }
    }
  | { type: 'ThemeRenamed'; data: { name: string; previousName: string; at: string } }
  | {
      type: 'ThemeTokensUpdated'
      // previous: the changed tokens' values before (absent: recorded before the field existed).
      data: { tokens: ThemeTokens; changed: string[]; previous?: Partial<ThemeTokens>; at: string }
    }
  | { type: 'ThemeNavigationSet'; data: { navigation: NavigationEntry[]; at: string } }
  | { type: 'PageCreated'; data: { page: Page; index: number; at: string } }
  | {
      type: 'PageUpdated'
      data: {
        pageId: string
        page: Page
        changed: string[]
        previous?: Pick<Page, 'title' | 'slug' | 'status'>
        at: string
      }
    }
  | { type: 'PageDeleted'; data: { pageId: string; slug: string; at: string } }
  | { type: 'SectionAdded'; data: { target: SectionTarget; index: number; section: Section; at: string } }
  | {
      type: 'SectionUpdated'
      // previous: the changed settings' values before, by key; null for a setting that was not set.
      data: {
        sectionId: string
        target: SectionTarget
        section: Section
        changed: string[]
        previous?: Record<string, unknown>
        at: string
      }
    }
  | { type: 'SectionRemoved'; data: { sectionId: string; target: SectionTarget; sectionType: string; at: string } }
  | {
      type: 'SectionMoved'
      data: {
        sectionId: string
        sectionType?: string
        from: SectionTarget
        to: SectionTarget
        index: number
        at: string
      }
    }
  | {
      type: 'ThemePublished'
      // wasLive: the theme had been live before (re-publishing it is the one-step rollback);
      // themeVersion: the version that went live; checkErrors: the theme checks' errors it went
      // live with (their count and rules), when there were any.
      data: {
        previousThemeId: string | null
        wasLive?: boolean
        themeVersion?: number
        checkErrors?: CheckErrors
        at: string
      }
    }
  | { type: 'ThemeUnpublished'; data: { replacedBy: string; at: string } }
  | { type: 'ThemeArchived'; data: { at: string } }
  | { type: 'ThemePreviewIssued'; data: { tokenId: string; expiresAt: string; themeVersion: number; at: string } }

export type CheckErrors = { count: number; rules: string[] }

export type ThemeEventType = ThemeEvent['type']

export const themeStream = streamName('theme')

export const THEME_EVENT_TYPES = eventTypes<ThemeEvent>()([
  'ThemeCreated',
  'ThemeRenamed',
  'ThemeTokensUpdated',
  'ThemeNavigationSet',
  'PageCreated',
  'PageUpdated',
  'PageDeleted',
  'SectionAdded',
  'SectionUpdated',
  'SectionRemoved',
  'SectionMoved',
  'ThemePublished',
  'ThemeUnpublished',
  'ThemeArchived',
  'ThemePreviewIssued',
])
