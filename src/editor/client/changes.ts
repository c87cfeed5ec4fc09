// A change is one batch. Its inverse is computed from the document it applies to, so undo and
// redo are new batches too (nothing is ever erased from the service's history).
import type { Issue } from './api.ts'
import type { TemplateName } from '../../theme/constants.ts'
import { settingLabel } from '../../theme/merchant-texts.ts'
import { sectionDefaults } from '../../theme/section-defaults.ts'
import type { JsonSchema, Operation, Section, SectionTypeInfo, Target, ThemeDocument } from './types.ts'

export type Change = { label: string; ops: Operation[] }

export type Location = { target: Target; index: number; section: Section }

export function layoutOf(doc: ThemeDocument, target: Target): Section[] {
  if ('template' in target) return doc.templates[target.template] ?? []
  return doc.pages.find((p) => p.id === target.pageId)?.layout ?? []
}

export function locate(doc: ThemeDocument, sectionId: string): Location | null {
  for (const [template, layout] of Object.entries(doc.templates) as [TemplateName, Section[]][]) {
    const index = layout.findIndex((s) => s.id === sectionId)
    if (index >= 0) return { target: { template }, index, section: layout[index]! }
  }
  for (const page of doc.pages) {
    const index = page.layout.findIndex((s) => s.id === sectionId)
    if (index >= 0) return { target: { pageId: page.id }, index, section: page.layout[index]! }
  }
  return null
}

function inverseOne(doc: ThemeDocument, op: Operation): Operation | null {
  switch (op.op) {
    case 'createSection':
      return { op: 'deleteSection', sectionId: op.section.id }
    case 'deleteSection': {
      const at = locate(doc, op.sectionId)
      return at ? { op: 'createSection', target: at.target, index: at.index, section: at.section } : null
    }
    case 'moveSection': {
      const at = locate(doc, op.sectionId)
      return at ? { op: 'moveSection', sectionId: op.sectionId, target: at.target, index: at.index } : null
    }
    case 'updateSection': {
      const at = locate(doc, op.sectionId)
      if (!at) return null
      const back: Operation = { op: 'updateSection', sectionId: op.sectionId }
      if (op.settings)
        back.settings = Object.fromEntries(Object.keys(op.settings).map((k) => [k, at.section.settings[k] ?? null]))
      if (op.blocks) back.blocks = at.section.blocks ?? []
      return back
    }
    case 'updateTokens':
      return {
        op: 'updateTokens',
        tokens: Object.fromEntries(Object.keys(op.tokens).map((k) => [k, doc.theme[k] ?? null])),
      }
    case 'setNavigation':
      return { op: 'setNavigation', navigation: doc.navigation }
    case 'createPage':
      return { op: 'deletePage', pageId: op.page.id }
    case 'deletePage': {
      const page = doc.pages.find((p) => p.id === op.pageId)
      return page ? { op: 'createPage', page } : null
    }
    case 'updatePage': {
      const page = doc.pages.find((p) => p.id === op.pageId)
      if (!page) return null
      return {
        op: 'updatePage',
        pageId: op.pageId,
        changes: Object.fromEntries(Object.keys(op.changes).map((k) => [k, page[k as keyof typeof page]])),
      }
    }
  }
}

/** The operations that undo `ops` on `doc` (single-operation changes, which is all the editor makes). */
export function inverse(doc: ThemeDocument, ops: Operation[]): Operation[] | null {
  const back = ops.map((op) => inverseOne(doc, op))
  return back.every((o) => o !== null) ? (back as Operation[]).reverse() : null
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/**
 * What re-applying `ops` on `fresh` would replace that changed since `base` (the document the
 * merchant's change was made on): someone else's edit of the same field, block list or menu. The
 * editor names these before a re-apply, so nobody's change is overwritten without being told.
 */
export function overwrites(base: ThemeDocument, fresh: ThemeDocument, ops: Operation[]): string[] {
  const out: string[] = []
  for (const op of ops) {
    if (op.op === 'updateSection') {
      const was = locate(base, op.sectionId)?.section
      const now = locate(fresh, op.sectionId)?.section
      if (!was || !now) continue
      for (const key of Object.keys(op.settings ?? {}))
        if (!same(was.settings[key], now.settings[key])) out.push(`“${key}” of section ${op.sectionId}`)
      if (op.blocks && !same(was.blocks, now.blocks)) out.push(`the blocks of section ${op.sectionId}`)
    } else if (op.op === 'updateTokens') {
      for (const key of Object.keys(op.tokens))
        if (!same(base.theme[key], fresh.theme[key])) out.push(`the theme setting “${key}”`)
    } else if (op.op === 'setNavigation') {
      if (!same(base.navigation, fresh.navigation)) out.push('the navigation')
    } else if (op.op === 'updatePage') {
      const was = base.pages.find((p) => p.id === op.pageId)
      const now = fresh.pages.find((p) => p.id === op.pageId)
      if (!was || !now) continue
      for (const key of Object.keys(op.changes))
        if (!same(was[key as keyof typeof was], now[key as keyof typeof now])) out.push(`“${key}” of page ${op.pageId}`)
    }
  }
  return out
}

/** The service's issue path made relative to the form that sent it: operations[0].section.settings.heading -> settings.heading. */
export function relativeIssues(issues: Issue[] | undefined): Map<string, string> {
  const out = new Map<string, string>()
  for (const issue of issues ?? []) {
    const path = issue.path.replace(/^operations\[\d+\]\.?/, '').replace(/^(section|page|changes)\.?/, '')
    const previous = out.get(path)
    out.set(path, previous ? `${previous} ${issue.message}` : issue.message)
  }
  return out
}

export const newId = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`

/** Real things of the store a new section can start with, where it must name one (a product, a collection, a picture). */
export type Samples = {
  product: string | null
  collection: string | null
  image: { url: string; alt: string } | null
}
const NO_SAMPLES: Samples = { product: null, collection: null, image: null }

const isImageSchema = (s: JsonSchema | undefined) => s?.type === 'object' && !!s.properties?.url && !!s.properties?.alt

/** Starting values for the required settings of a new section or block, from its JSON Schema. */
export function defaultsFor(schema: JsonSchema, samples: Samples = NO_SAMPLES): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of schema.required ?? []) {
    const field = schema.properties?.[key]
    if (!field) continue
    if (key === 'productId' && samples.product) out[key] = samples.product
    else if (key === 'productIds' && samples.product) out[key] = [samples.product]
    else if (key === 'collectionId' && samples.collection) out[key] = samples.collection
    else if (key === 'collectionIds' && samples.collection) out[key] = [samples.collection]
    else if (isImageSchema(field) && samples.image) out[key] = samples.image
    else if (field.enum && field.enum.length > 0) out[key] = field.enum[0]
    else if (field.type === 'integer' || field.type === 'number')
      out[key] = Math.min(field.maximum ?? 8, Math.max(field.minimum ?? 0, 8))
    else if (field.type === 'boolean') out[key] = false
    else if (field.type === 'string' && !field.format) out[key] = (field.minLength ?? 0) > 0 ? settingLabel(key) : ''
  }
  return out
}

/**
 * A new section as the merchant first sees it: the renderer's defaults for its optional settings
 * (src/theme/section-defaults.ts, the one source) written out so the form shows them, and a
 * start for each required one (the store's own product, collection or picture where one must be
 * named), so it is added at once and edited in place.
 */
export function newSection(info: SectionTypeInfo, samples: Samples = NO_SAMPLES): Section {
  const settings: Record<string, unknown> = defaultsFor(info.settingsSchema, samples)
  for (const [key, value] of Object.entries(sectionDefaults(info.type)))
    if (info.settingsSchema.properties?.[key]) settings[key] = value
  return { id: newId(info.type), type: info.type, settings }
}
