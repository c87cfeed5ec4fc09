import type { Section, ThemeDocument, ThemeTokens } from '../../theme/document.ts'
import type { SectionTarget, ThemeEvent } from './events.ts'
import { applyDiff, diffDocuments, isEmptyDiff, jsonEqual, overlappingPaths, touchedPaths } from './diff.ts'
import { evolveDocument, type Theme } from './state.ts'
import { themeAt, versionEntries, type HistoryEvent } from './history.ts'
import { validateThemeDocument, type KnownReferences } from '../../theme/validate.ts'
import { fail, invalid, ok, type Result } from '../result.ts'

// Reverting never erases: it appends the ordinary events that turn the current document into the
// target one, as a new version. Pure; `fold(current + events)` equals the target (tested).

type Layout = { key: string; target: SectionTarget; sections: Section[] }

function layouts(doc: ThemeDocument): Layout[] {
  return [
    ...(Object.keys(doc.templates) as (keyof ThemeDocument['templates'])[]).map((t) => ({
      key: `templates.${t}`,
      target: { template: t } as SectionTarget,
      sections: doc.templates[t],
    })),
    ...doc.pages.map((p) => ({ key: `pages.${p.id}`, target: { pageId: p.id } as SectionTarget, sections: p.layout })),
  ]
}

const layoutKeyOf = (doc: ThemeDocument) => {
  const out = new Map<string, string>()
  for (const l of layouts(doc)) for (const s of l.sections) out.set(s.id, l.key)
  return out
}

export function compensatingEvents(current: ThemeDocument, target: ThemeDocument, at: string): ThemeEvent[] {
  const events: ThemeEvent[] = []
  let doc = current
  const emit = (e: ThemeEvent) => {
    events.push(e)
    doc = evolveDocument(doc, e)
  }

  if (!jsonEqual(doc.theme, target.theme)) {
    const changed = (Object.keys(target.theme) as (keyof ThemeTokens)[]).filter(
      (k) => !jsonEqual(doc.theme[k], target.theme[k]),
    )
    const previous = Object.fromEntries(changed.map((k) => [k, doc.theme[k]]))
    emit({ type: 'ThemeTokensUpdated', data: { tokens: target.theme, changed, previous, at } })
  }
  if (!jsonEqual(doc.navigation, target.navigation))
    emit({ type: 'ThemeNavigationSet', data: { navigation: target.navigation, at } })

  const targetPages = new Map(target.pages.map((p) => [p.id, p]))
  for (const p of doc.pages)
    if (!targetPages.has(p.id)) emit({ type: 'PageDeleted', data: { pageId: p.id, slug: p.slug, at } })

  // A section that is not in the same layout in the target leaves now (and comes back where it belongs).
  const targetLayoutOf = layoutKeyOf(target)
  for (const l of layouts(doc)) {
    for (const s of l.sections)
      if (targetLayoutOf.get(s.id) !== l.key)
        emit({ type: 'SectionRemoved', data: { sectionId: s.id, target: l.target, sectionType: s.type, at } })
  }

  const existing = new Set(doc.pages.map((p) => p.id))
  target.pages.forEach((page, index) => {
    if (!existing.has(page.id)) emit({ type: 'PageCreated', data: { page, index, at } })
  })
  for (const page of doc.pages) {
    const want = targetPages.get(page.id)!
    if (page.slug !== want.slug || page.title !== want.title || page.status !== want.status) {
      const changed = (['slug', 'title', 'status'] as const).filter((k) => page[k] !== want[k])
      emit({
        type: 'PageUpdated',
        data: {
          pageId: page.id,
          page: { ...want, layout: page.layout },
          changed,
          previous: { title: page.title, slug: page.slug, status: page.status },
          at,
        },
      })
    }
  }

  for (const l of layouts(target)) {
    const now = layouts(doc).find((x) => x.key === l.key)!
    const have = new Map(now.sections.map((s) => [s.id, s]))
    for (const s of l.sections) {
      const prior = have.get(s.id)
      if (prior && !jsonEqual(prior, s)) {
        const changed = [...new Set([...Object.keys(prior.settings), ...Object.keys(s.settings)])].filter(
          (k) => !jsonEqual((prior.settings as Record<string, unknown>)[k], (s.settings as Record<string, unknown>)[k]),
        )
        const before = prior.settings as Record<string, unknown>
        const previous = Object.fromEntries(changed.map((k) => [k, before[k] ?? null]))
        emit({ type: 'SectionUpdated', data: { sectionId: s.id, target: l.target, section: s, changed, previous, at } })
      }
    }
    // What is left to place: sections that are missing or out of order. Each goes right after
    // its predecessor in the target, in the target's order, so the ones already in order stay put.
    const sectionsNow = () =>
      layouts(doc)
        .find((x) => x.key === l.key)!
        .sections.map((s) => s.id)
    if (
      jsonEqual(
        sectionsNow(),
        l.sections.map((s) => s.id),
      )
    )
      continue
    const keep = inOrder(
      sectionsNow(),
      l.sections.map((s) => s.id),
    )
    l.sections.forEach((s, i) => {
      if (keep.has(s.id)) return
      const ids = sectionsNow().filter((id) => id !== s.id)
      const index = i === 0 ? 0 : ids.indexOf(l.sections[i - 1]!.id) + 1
      if (have.has(s.id))
        emit({
          type: 'SectionMoved',
          data: { sectionId: s.id, sectionType: s.type, from: l.target, to: l.target, index, at },
        })
      else emit({ type: 'SectionAdded', data: { target: l.target, index, section: s, at } })
    })
  }
  return events
}

// Ids of `now` that can stay where they are: a longest run in the target's order.
function inOrder(now: string[], want: string[]): Set<string> {
  const position = new Map(want.map((id, i) => [id, i]))
  const seq = now.filter((id) => position.has(id)).map((id) => position.get(id)!)
  // Longest increasing subsequence (patience sorting), n ≤ 25.
  const tails: number[] = []
  const prev: number[] = new Array(seq.length).fill(-1)
  const tailIdx: number[] = []
  seq.forEach((v, i) => {
    let lo = 0
    let hi = tails.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (tails[mid]! < v) lo = mid + 1
      else hi = mid
    }
    tails[lo] = v
    tailIdx[lo] = i
    prev[i] = lo > 0 ? tailIdx[lo - 1]! : -1
  })
  const keep = new Set<string>()
  for (let i = tailIdx[tails.length - 1] ?? -1; i >= 0; i = prev[i]!) keep.add(want[seq[i]!]!)
  return keep
}

export type UndoPlan = { ok: true; target: ThemeDocument } | { ok: false; conflicts: string[] }

// Undo one past command: `before` and `after` are the document around it, `current` today's.
// Refused with the overlapping paths when a later change touched what the command touched.
export function planUndo(before: ThemeDocument, after: ThemeDocument, current: ThemeDocument): UndoPlan {
  const mine = touchedPaths(diffDocuments(before, after))
  const later = diffDocuments(after, current)
  const conflicts = overlappingPaths(mine, touchedPaths(later))
  if (conflicts.length > 0) return { ok: false, conflicts }
  const inverse = diffDocuments(after, before)
  if (isEmptyDiff(inverse)) return { ok: true, target: current }
  return { ok: true, target: applyDiff(current, inverse) }
}

export type RevertRequest = {
  toVersion?: number | undefined
  commandId?: string | undefined
  expectedVersion?: number | undefined
}

// The document a revert aims at: an earlier version, or today's document without one past command.
export function revertTarget(
  history: readonly HistoryEvent[],
  current: Theme,
  request: RevertRequest,
): Result<ThemeDocument> {
  if (request.toVersion !== undefined) {
    const then = request.toVersion < current.version ? themeAt(history, request.toVersion) : null
    if (!then)
      return fail(
        'NOT_FOUND',
        `version ${request.toVersion} not found: give an earlier version of this theme (1 to ${current.version - 1})`,
      )
    return ok(then.document)
  }
  const entry = versionEntries(history).find((e) => e.commandId === request.commandId)
  if (!entry)
    return fail('NOT_FOUND', `command ${request.commandId} not found in this theme's history (see listThemeVersions)`)
  if (entry.fromVersion === 1)
    return fail('VALIDATION_FAILED', 'the command that created the theme cannot be undone; archive the theme instead', {
      issues: [{ path: 'commandId', code: 'VALIDATION_FAILED', message: 'the creation cannot be undone' }],
    })
  const before = themeAt(history, entry.fromVersion - 1)!.document
  const after = themeAt(history, entry.toVersion)!.document
  const plan = planUndo(before, after, current.document)
  if (!plan.ok) {
    return fail(
      'UNDO_CONFLICT',
      `later changes touched what command ${request.commandId} changed: ${plan.conflicts.slice(0, 5).join(', ')}${plan.conflicts.length > 5 ? ', …' : ''}. Revert to a version instead, or edit by hand.`,
      { conflicts: plan.conflicts },
    )
  }
  return ok(plan.target)
}

// Pure: checks, target, validation of the result, and the compensating events.
export function decideRevert(
  history: readonly HistoryEvent[],
  current: Theme,
  request: RevertRequest,
  known: KnownReferences,
  at: string,
): Result<ThemeEvent[]> {
  if (current.status !== 'draft')
    return fail(
      'THEME_NOT_EDITABLE',
      `the theme is ${current.status}; only a draft can be reverted (duplicate it to get an editable draft)`,
      { status: current.status },
    )
  if (request.expectedVersion !== undefined && request.expectedVersion !== current.version) {
    return fail(
      'VERSION_CONFLICT',
      `the theme is at version ${current.version}, not ${request.expectedVersion}; read it again and retry`,
      { currentVersion: current.version },
    )
  }
  const target = revertTarget(history, current, request)
  if (!target.ok) return target
  // A referenced product may have left the catalog since: the result must be valid today.
  const checked = validateThemeDocument(target.value, known)
  if (!checked.ok)
    return invalid(checked.issues.map((i) => ({ ...i, path: i.path ? `document.${i.path}` : 'document' })))
  return ok(compensatingEvents(current.document, checked.document, at))
}
