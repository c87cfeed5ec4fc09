// Shapes the editor reads from the service, derived from the server's own types (type-only
// imports: nothing of the server reaches the bundle). The editor edits every section type the
// same way, through forms generated from their JSON Schemas, so section and block settings are
// widened to records, and the JSON Schemas are read through the vocabulary below.
import type { ChecksResult } from '../../checks/finding.ts'
import type { ThemeActivityEntry } from '../../queries/activity.ts'
import type { ThemeView } from '../../queries/themes/schemas.ts'
import type { TemplateName } from '../../theme/constants.ts'
import type {
  NavigationEntry as DocumentNavigationEntry,
  Page as DocumentPage,
  ThemeDocument as Document,
} from '../../theme/document.ts'
import type { themeSchemaDescription } from '../../theme/schema-description.ts'
import type { Section as DocumentSection } from '../../theme/sections.ts'

// The parts of JSON Schema (2020-12) the generated forms read.
export type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  enum?: (string | number)[]
  anyOf?: JsonSchema[]
  items?: JsonSchema
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  maxItems?: number
  pattern?: string
  format?: string
  contentMediaType?: string
  description?: string
}

type Settings = Record<string, unknown>

export type Block = { id: string; type: string; settings: Settings }
export type Section = Pick<DocumentSection, 'id'> & { type: string; settings: Settings; blocks?: Block[] }
export type Page = Omit<DocumentPage, 'layout'> & { layout: Section[] }
export type NavigationEntry = DocumentNavigationEntry

export type ThemeDocument = Omit<Document, 'version' | 'theme' | 'templates' | 'pages'> & {
  theme: Settings
  templates: Record<TemplateName, Section[]>
  pages: Page[]
}

// getTheme's data.
export type Theme = Omit<ThemeView, 'document'> & { document: ThemeDocument }

// getThemeSchema's data.
type SchemaDescription = ReturnType<typeof themeSchemaDescription>
type CatalogueEntry = SchemaDescription['sections'][number]
export type SectionTypeInfo = Omit<CatalogueEntry, 'settingsSchema' | 'blocks'> & {
  settingsSchema: JsonSchema
  blocks: (Omit<CatalogueEntry['blocks'][number], 'settingsSchema'> & { settingsSchema: JsonSchema })[]
}
export type ThemeSchema = Omit<SchemaDescription, 'sections' | 'document'> & {
  sections: SectionTypeInfo[]
  document: { properties: { theme: JsonSchema; navigation: JsonSchema; pages: JsonSchema } }
}

// getThemeChecks' data: what the theme checks found in a version.
export type Checks = ChecksResult
export type Finding = Checks['findings'][number]

// The editor's "who changed this theme lately".
export type Activity = ThemeActivityEntry

// The edits a save sends (applyThemeBatch). Written out here until the batch edit schemas leave
// src/commands (issue 32 A), which no adapter may import; then derived from them like the rest.
export type Target = { template: TemplateName } | { pageId: string }

export type Operation =
  | { op: 'createSection'; target: Target; index?: number; section: Section }
  | { op: 'updateSection'; sectionId: string; settings?: Record<string, unknown>; blocks?: Block[] }
  | { op: 'deleteSection'; sectionId: string }
  | { op: 'moveSection'; sectionId: string; target?: Target; index: number }
  | { op: 'updateTokens'; tokens: Record<string, unknown> }
  | { op: 'setNavigation'; navigation: NavigationEntry[] }
  | { op: 'createPage'; page: Page }
  | { op: 'updatePage'; pageId: string; changes: Partial<Omit<Page, 'id'>> }
  | { op: 'deletePage'; pageId: string }
