import { LIMITS, type TemplateName, type ThemeDocument } from '../../theme/document.ts'
import {
  documentIssues,
  validateNavigation,
  validatePage,
  validateSection,
  validateTokens,
  type KnownReferences,
} from '../../theme/validate.ts'
import type { SectionTarget, ThemeEvent } from './events.ts'
import type { LocatedIssue } from '../result.ts'
import type { Edit } from './edits.ts'
import { allSectionIds, evolveDocument, findSection, layoutOf } from './state.ts'

export type Applied =
  | { ok: true; document: ThemeDocument; events: ThemeEvent[] }
  | { ok: false; issues: LocatedIssue[] }

const kindOf = (target: SectionTarget): TemplateName | 'page' => ('template' in target ? target.template : 'page')
const sameTarget = (a: SectionTarget, b: SectionTarget) =>
  'template' in a ? 'template' in b && a.template === b.template : 'pageId' in b && a.pageId === b.pageId

// Applies operations in order to a draft document. Every operation is checked against the
// document as the earlier ones left it; a failed operation is skipped so later ones are still
// checked, and every problem is reported with its operation index. Nothing is partial: any
// issue means no events at all.
export function applyEdits(start: ThemeDocument, operations: Edit[], known: KnownReferences, at: string): Applied {
  let doc = start
  const events: ThemeEvent[] = []
  const issues: LocatedIssue[] = []

  operations.forEach((op, i) => {
    const p = `operations[${i}]`
    const problems: LocatedIssue[] = []
    const problem = (path: string, code: LocatedIssue['code'], message: string) =>
      problems.push({ path, code, message, operationIndex: i } as LocatedIssue)
    const adopt = (found: { path: string; code: string; message: string; hint?: string }[]) => {
      for (const f of found) problems.push({ ...f, operationIndex: i } as LocatedIssue)
    }
    let event: ThemeEvent | undefined

    switch (op.op) {
      case 'createPage': {
        if (doc.pages.length >= LIMITS.pagesPerTheme) {
          problem(`${p}.page`, 'LIMIT_EXCEEDED', `a theme has at most ${LIMITS.pagesPerTheme} pages`)
          break
        }
        const v = validatePage(op.page, `${p}.page`, known)
        if (!v.ok) {
          adopt(v.issues)
          break
        }
        const page = v.page
        if (doc.pages.some((x) => x.slug === page.slug))
          problem(`${p}.page.slug`, 'CONFLICT', `a page with slug "${page.slug}" already exists`)
        if (doc.pages.some((x) => x.id === page.id))
          problem(`${p}.page.id`, 'CONFLICT', `a page with id "${page.id}" already exists`)
        const taken = allSectionIds(doc)
        page.layout.forEach((s, j) => {
          if (taken.has(s.id))
            problem(`${p}.page.layout[${j}].id`, 'CONFLICT', `section id "${s.id}" is already used in this theme`)
        })
        if (problems.length === 0) event = { type: 'PageCreated', data: { page, index: doc.pages.length, at } }
        break
      }
      case 'updatePage': {
        const current = doc.pages.find((x) => x.id === op.pageId)
        if (!current) {
          problem(`${p}.pageId`, 'NOT_FOUND', `page "${op.pageId}" not found`)
          break
        }
        const changes = op.changes
        const candidate = {
          ...current,
          ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
        }
        const v = validatePage(candidate, `${p}.changes`, known)
        if (!v.ok) {
          adopt(v.issues)
          break
        }
        const page = v.page
        if (doc.pages.some((x) => x.id !== page.id && x.slug === page.slug))
          problem(`${p}.changes.slug`, 'CONFLICT', `a page with slug "${page.slug}" already exists`)
        if (changes.layout) {
          const own = new Set(current.layout.map((s) => s.id))
          const taken = allSectionIds(doc)
          page.layout.forEach((s, j) => {
            if (taken.has(s.id) && !own.has(s.id))
              problem(`${p}.changes.layout[${j}].id`, 'CONFLICT', `section id "${s.id}" is already used in this theme`)
          })
        }
        if (problems.length === 0)
          event = {
            type: 'PageUpdated',
            data: {
              pageId: page.id,
              page,
              changed: Object.keys(changes).filter((k) => changes[k as keyof typeof changes] !== undefined),
              previous: { title: current.title, slug: current.slug, status: current.status },
              at,
            },
          }
        break
      }
      case 'deletePage': {
        const current = doc.pages.find((x) => x.id === op.pageId)
        if (!current) {
          problem(`${p}.pageId`, 'NOT_FOUND', `page "${op.pageId}" not found`)
          break
        }
        event = { type: 'PageDeleted', data: { pageId: current.id, slug: current.slug, at } }
        break
      }
      case 'createSection': {
        const layout = layoutOf(doc, op.target)
        if (!layout) {
          problem(`${p}.target.pageId`, 'NOT_FOUND', `page "${(op.target as { pageId: string }).pageId}" not found`)
          break
        }
        if (layout.length >= LIMITS.sectionsPerLayout) {
          problem(`${p}.target`, 'LIMIT_EXCEEDED', `a layout has at most ${LIMITS.sectionsPerLayout} sections`)
          break
        }
        const index = op.index ?? layout.length
        if (index > layout.length) {
          problem(
            `${p}.index`,
            'VALIDATION_FAILED',
            `index ${index} is past the end of the layout (${layout.length} sections)`,
          )
          break
        }
        const v = validateSection(op.section, { path: `${p}.section`, template: kindOf(op.target) }, known)
        if (!v.ok) {
          adopt(v.issues)
          break
        }
        if (allSectionIds(doc).has(v.section.id)) {
          problem(`${p}.section.id`, 'CONFLICT', `section id "${v.section.id}" is already used in this theme`)
          break
        }
        event = { type: 'SectionAdded', data: { target: op.target, index, section: v.section, at } }
        break
      }
      case 'updateSection': {
        const loc = findSection(doc, op.sectionId)
        if (!loc) {
          problem(`${p}.sectionId`, 'NOT_FOUND', `section "${op.sectionId}" not found`)
          break
        }
        const settings: Record<string, unknown> = { ...loc.section.settings }
        for (const [k, v] of Object.entries(op.settings ?? {})) {
          if (v === null) delete settings[k]
          else settings[k] = v
        }
        const candidate: Record<string, unknown> = { id: loc.section.id, type: loc.section.type, settings }
        const blocks = op.blocks ?? loc.section.blocks
        if (blocks !== undefined) candidate.blocks = blocks
        const v = validateSection(candidate, { path: p, template: kindOf(loc.target) }, known)
        if (!v.ok) {
          adopt(v.issues)
          break
        }
        const changed = [
          ...Object.keys(op.settings ?? {}).map((k) => `settings.${k}`),
          ...(op.blocks ? ['blocks'] : []),
        ]
        const before = loc.section.settings as Record<string, unknown>
        const previous = Object.fromEntries(Object.keys(op.settings ?? {}).map((k) => [k, before[k] ?? null]))
        event = {
          type: 'SectionUpdated',
          data: { sectionId: loc.section.id, target: loc.target, section: v.section, changed, previous, at },
        }
        break
      }
      case 'deleteSection': {
        const loc = findSection(doc, op.sectionId)
        if (!loc) {
          problem(`${p}.sectionId`, 'NOT_FOUND', `section "${op.sectionId}" not found`)
          break
        }
        event = {
          type: 'SectionRemoved',
          data: { sectionId: loc.section.id, target: loc.target, sectionType: loc.section.type, at },
        }
        break
      }
      case 'moveSection': {
        const loc = findSection(doc, op.sectionId)
        if (!loc) {
          problem(`${p}.sectionId`, 'NOT_FOUND', `section "${op.sectionId}" not found`)
          break
        }
        const to = op.target ?? loc.target
        const layout = layoutOf(doc, to)
        if (!layout) {
          problem(`${p}.target.pageId`, 'NOT_FOUND', `page "${(to as { pageId: string }).pageId}" not found`)
          break
        }
        const same = sameTarget(loc.target, to)
        const lastIndex = same ? layout.length - 1 : layout.length
        if (!same && layout.length >= LIMITS.sectionsPerLayout) {
          problem(`${p}.target`, 'LIMIT_EXCEEDED', `a layout has at most ${LIMITS.sectionsPerLayout} sections`)
          break
        }
        if (op.index > lastIndex) {
          problem(
            `${p}.index`,
            'VALIDATION_FAILED',
            `index ${op.index} is past the end of the layout (last is ${lastIndex})`,
          )
          break
        }
        if (!same && kindOf(to) !== kindOf(loc.target)) {
          const v = validateSection(loc.section, { path: p, template: kindOf(to) }, known)
          if (!v.ok) {
            adopt(v.issues)
            break
          }
        }
        event = {
          type: 'SectionMoved',
          data: {
            sectionId: loc.section.id,
            sectionType: loc.section.type,
            from: loc.target,
            to,
            index: op.index,
            at,
          },
        }
        break
      }
      case 'updateTokens': {
        const tokens: Record<string, unknown> = { ...doc.theme }
        for (const [k, v] of Object.entries(op.tokens)) if (v !== undefined) tokens[k] = v
        const v = validateTokens(tokens, `${p}.tokens`)
        if (!v.ok) {
          adopt(v.issues)
          break
        }
        const changed = Object.keys(op.tokens).filter((k) => op.tokens[k as keyof typeof op.tokens] !== undefined)
        event = {
          type: 'ThemeTokensUpdated',
          data: {
            tokens: v.tokens,
            changed,
            previous: Object.fromEntries(changed.map((k) => [k, doc.theme[k as keyof typeof doc.theme]])),
            at,
          },
        }
        break
      }
      case 'setNavigation': {
        const v = validateNavigation(op.navigation, `${p}.navigation`)
        if (!v.ok) {
          adopt(v.issues)
          break
        }
        event = { type: 'ThemeNavigationSet', data: { navigation: v.navigation, at } }
        break
      }
    }

    if (problems.length > 0 || !event) {
      issues.push(...problems)
      return
    }
    doc = evolveDocument(doc, event)
    events.push(event)
  })

  if (issues.length === 0) {
    // Whole-document rules (size above all) once, at the end; earlier checks guard the counts.
    issues.push(...documentIssues(doc))
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, document: doc, events }
}
