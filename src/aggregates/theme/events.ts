import type { NavigationEntry, Page, Section, TemplateName, ThemeDocument, ThemeTokens } from '../../theme/document.ts'
import { eventTypes, streamName } from '../stream-name.ts'

// Events of one theme's stream (themeStream: `theme-<themeId>`). Updates carry the full new value of what
// they change, so evolve and every projection stay trivial and order-checkable.

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
  | { type: 'ThemeTokensUpdated'; data: { tokens: ThemeTokens; changed: string[]; at: string } }
  | { type: 'ThemeNavigationSet'; data: { navigation: NavigationEntry[]; at: string } }
  | { type: 'PageCreated'; data: { page: Page; index: number; at: string } }
  | { type: 'PageUpdated'; data: { pageId: string; page: Page; changed: string[]; at: string } }
  | { type: 'PageDeleted'; data: { pageId: string; slug: string; at: string } }
  | { type: 'SectionAdded'; data: { target: SectionTarget; index: number; section: Section; at: string } }
  | {
      type: 'SectionUpdated'
      data: { sectionId: string; target: SectionTarget; section: Section; changed: string[]; at: string }
    }
  | { type: 'SectionRemoved'; data: { sectionId: string; target: SectionTarget; sectionType: string; at: string } }
  | {
      type: 'SectionMoved'
      data: { sectionId: string; from: SectionTarget; to: SectionTarget; index: number; at: string }
    }
  | { type: 'ThemePublished'; data: { previousThemeId: string | null; at: string } }
  | { type: 'ThemeUnpublished'; data: { replacedBy: string; at: string } }
  | { type: 'ThemeArchived'; data: { at: string } }
  | { type: 'ThemePreviewIssued'; data: { tokenId: string; expiresAt: string; themeVersion: number; at: string } }

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
