// Shapes the editor reads from the service (as the operations return them).
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

export type SectionTypeInfo = {
  type: string
  description: string
  templates: string[]
  requiredIn: string | null
  settingsSchema: JsonSchema
  blocks: { type: string; description: string; settingsSchema: JsonSchema }[]
}

export type ThemeSchema = {
  templates: string[]
  fonts: string[]
  limits: { sectionsPerLayout: number; blocksPerSection: number }
  rules: { richText: { tags: string[]; attributes: Record<string, string[]> } }
  sections: SectionTypeInfo[]
  document: { properties: { theme: JsonSchema; navigation: JsonSchema; pages: JsonSchema } }
}

export type Block = { id: string; type: string; settings: Record<string, unknown> }
export type Section = { id: string; type: string; settings: Record<string, unknown>; blocks?: Block[] }
export type Page = { id: string; slug: string; title: string; status: 'draft' | 'published'; layout: Section[] }
export type NavigationEntry = { label: string; href: string; children?: { label: string; href: string }[] }

export type ThemeDocument = {
  theme: Record<string, unknown>
  navigation: NavigationEntry[]
  templates: Record<string, Section[]>
  pages: Page[]
}

export type Theme = {
  id: string
  name: string
  status: 'draft' | 'private' | 'active' | 'archived'
  version: number
  updatedAt: string
  editorUrl: string
  document: ThemeDocument
}

export type Target = { template: string } | { pageId: string }

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

export type Activity = {
  at: string
  action: string
  outcome: string
  channel: string
  tool: string | null
  actorKind: string
  who: string
  summary: string
}
