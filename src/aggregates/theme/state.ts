import type { Page, Section, ThemeDocument } from '../../theme/document.ts'
import type { ThemeStatus } from '../../theme/constants.ts'
import type { SectionTarget, ThemeEvent } from './events.ts'

export type Theme = {
  themeId: string
  storeId: string
  name: string
  provider: string
  status: ThemeStatus
  document: ThemeDocument
  // Grows with every applied change; a preview is recorded but changes nothing, so it keeps the version.
  version: number
  duplicatedFrom: string | null
  createdAt: string
  updatedAt: string
  publishedAt: string | null
  archivedAt: string | null
  lastPreviewAt: string | null
  lastPreviewedVersion: number | null
}

export type ThemeState = { exists: false } | ({ exists: true } & Theme)

export const initialThemeState: ThemeState = { exists: false }

export function evolve(state: ThemeState, event: ThemeEvent): ThemeState {
  if (event.type === 'ThemeCreated') {
    const d = event.data
    return {
      exists: true,
      themeId: d.themeId,
      storeId: d.storeId,
      name: d.name,
      provider: d.provider,
      status: 'draft',
      document: d.document,
      version: 1,
      duplicatedFrom: d.duplicatedFrom,
      createdAt: d.at,
      updatedAt: d.at,
      publishedAt: null,
      archivedAt: null,
      lastPreviewAt: null,
      lastPreviewedVersion: null,
    }
  }
  if (!state.exists) return state
  const changed = { ...state, version: state.version + 1, updatedAt: event.data.at }
  switch (event.type) {
    case 'ThemeRenamed':
      return { ...changed, name: event.data.name }
    case 'ThemePublished':
      return { ...changed, status: 'active', publishedAt: event.data.at }
    case 'ThemeUnpublished':
      return { ...changed, status: 'private' }
    case 'ThemeArchived':
      return { ...changed, status: 'archived', archivedAt: event.data.at }
    case 'ThemePreviewIssued':
      return { ...state, lastPreviewAt: event.data.at, lastPreviewedVersion: event.data.themeVersion }
    default:
      return { ...changed, document: evolveDocument(state.document, event) }
  }
}

export function fold(events: Iterable<ThemeEvent>, from: ThemeState = initialThemeState): ThemeState {
  let state = from
  for (const e of events) state = evolve(state, e)
  return state
}

// --- the document, changed with structural sharing: only the path to the change is copied ---

export function layoutOf(doc: ThemeDocument, target: SectionTarget): Section[] | undefined {
  if ('template' in target) return doc.templates[target.template]
  return doc.pages.find((p) => p.id === target.pageId)?.layout
}

function withLayout(
  doc: ThemeDocument,
  target: SectionTarget,
  change: (layout: Section[]) => Section[],
): ThemeDocument {
  if ('template' in target) {
    return { ...doc, templates: { ...doc.templates, [target.template]: change(doc.templates[target.template]) } }
  }
  return { ...doc, pages: doc.pages.map((p) => (p.id === target.pageId ? { ...p, layout: change(p.layout) } : p)) }
}

const insertAt = <T>(list: T[], index: number, item: T): T[] => [...list.slice(0, index), item, ...list.slice(index)]

export function evolveDocument(doc: ThemeDocument, event: ThemeEvent): ThemeDocument {
  switch (event.type) {
    case 'ThemeTokensUpdated':
      return { ...doc, theme: event.data.tokens }
    case 'ThemeNavigationSet':
      return { ...doc, navigation: event.data.navigation }
    case 'PageCreated':
      return { ...doc, pages: insertAt<Page>(doc.pages, event.data.index, event.data.page) }
    case 'PageUpdated':
      return { ...doc, pages: doc.pages.map((p) => (p.id === event.data.pageId ? event.data.page : p)) }
    case 'PageDeleted':
      return { ...doc, pages: doc.pages.filter((p) => p.id !== event.data.pageId) }
    case 'SectionAdded':
      return withLayout(doc, event.data.target, (l) => insertAt(l, event.data.index, event.data.section))
    case 'SectionUpdated':
      return withLayout(doc, event.data.target, (l) =>
        l.map((s) => (s.id === event.data.sectionId ? event.data.section : s)),
      )
    case 'SectionRemoved':
      return withLayout(doc, event.data.target, (l) => l.filter((s) => s.id !== event.data.sectionId))
    case 'SectionMoved': {
      const { from, to, sectionId, index } = event.data
      const section = layoutOf(doc, from)?.find((s) => s.id === sectionId)
      if (!section) return doc
      const removed = withLayout(doc, from, (l) => l.filter((s) => s.id !== sectionId))
      return withLayout(removed, to, (l) => insertAt(l, index, section))
    }
    default:
      return doc
  }
}

export type SectionLocation = { target: SectionTarget; index: number; section: Section }

export function findSection(doc: ThemeDocument, sectionId: string): SectionLocation | undefined {
  for (const [template, layout] of Object.entries(doc.templates) as [keyof ThemeDocument['templates'], Section[]][]) {
    const index = layout.findIndex((s) => s.id === sectionId)
    if (index >= 0) return { target: { template }, index, section: layout[index]! }
  }
  for (const page of doc.pages) {
    const index = page.layout.findIndex((s) => s.id === sectionId)
    if (index >= 0) return { target: { pageId: page.id }, index, section: page.layout[index]! }
  }
  return undefined
}

export function allSectionIds(doc: ThemeDocument): Set<string> {
  const ids = new Set<string>()
  for (const layout of Object.values(doc.templates)) for (const s of layout) ids.add(s.id)
  for (const page of doc.pages) for (const s of page.layout) ids.add(s.id)
  return ids
}
