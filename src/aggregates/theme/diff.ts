import type { Block, NavigationEntry, Page, Section, ThemeDocument, ThemeTokens } from '../../theme/document.ts'

// A structural diff between two theme documents (pure). Layouts and block lists are diffed by id:
// what was added (with its new index), removed, moved (items outside the longest common
// subsequence of the ids both sides keep, with old and new index) and changed (settings paths with
// old and new value). `applyDiff(a, diff(a, b))` gives b; the property test checks it.

export type ValueChange = { path: string; old: unknown; new: unknown }
export type Moved = { id: string; from: number; to: number }

export type BlockDiff = {
  added: { index: number; block: Block }[]
  removed: { index: number; id: string; type: string }[]
  moved: Moved[]
  changed: { id: string; type: string; settings: ValueChange[] }[]
}

export type SectionChange = { id: string; type: string; settings: ValueChange[]; blocks: BlockDiff | null }

export type LayoutDiff = {
  // `templates.home`, ... or `pages.<pageId>`
  layout: string
  added: { index: number; section: Section }[]
  removed: { index: number; id: string; type: string }[]
  moved: Moved[]
  changed: SectionChange[]
}

export type PageChange = { id: string; fields: ValueChange[] }

export type ThemeDiff = {
  tokens: ValueChange[]
  navigation: { old: NavigationEntry[]; new: NavigationEntry[] } | null
  pages: {
    added: { index: number; page: Page }[]
    removed: { index: number; id: string; slug: string }[]
    changed: PageChange[]
  }
  layouts: LayoutDiff[]
}

const TEMPLATE_NAMES = ['home', 'product', 'collection', 'blogPost'] as const

export const jsonEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]))
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined)
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined)
  return (
    ka.length === kb.length &&
    ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  )
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

// Object keys are followed; arrays and scalars are compared whole. `undefined` means absent.
export function valueChanges(a: unknown, b: unknown, path: string, out: ValueChange[] = []): ValueChange[] {
  if (jsonEqual(a, b)) return out
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      valueChanges(a[key], b[key], path ? `${path}.${key}` : key, out)
    return out
  }
  out.push({ path, old: a, new: b })
  return out
}

function setPath(root: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path
  if (head === undefined) return root
  const copy = { ...root }
  if (rest.length === 0) {
    if (value === undefined) delete copy[head]
    else copy[head] = value
    return copy
  }
  copy[head] = setPath(isPlainObject(root[head]) ? (root[head] as Record<string, unknown>) : {}, rest, value)
  return copy
}

// `prefix` is stripped from each change's path before it is applied under `root`.
function applyValueChanges<T extends object>(root: T, changes: readonly ValueChange[], prefix: string): T {
  let out = root as unknown as Record<string, unknown>
  for (const c of changes) {
    const rel = c.path.slice(prefix.length).replace(/^\./, '')
    out = setPath(out, rel.split('.'), c.new)
  }
  return out as unknown as T
}

// Ids kept by both lists that stay in relative order (longest common subsequence).
function stableIds(oldIds: string[], newIds: string[]): Set<string> {
  const kept = new Set(newIds)
  const a = oldIds.filter((id) => kept.has(id))
  const inOld = new Set(oldIds)
  const b = newIds.filter((id) => inOld.has(id))
  const n = a.length
  const m = b.length
  const table: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1))
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!)
  const out = new Set<string>()
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j]) {
      out.add(a[i]!)
      i++
      j++
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++
    else j++
  }
  return out
}

type Identified = { id: string; type: string }

function listDiff<T extends Identified, C>(
  before: readonly T[],
  after: readonly T[],
  change: (a: T, b: T) => C | null,
) {
  const oldIndex = new Map(before.map((x, i) => [x.id, i]))
  const newIds = new Set(after.map((x) => x.id))
  const stable = stableIds(
    before.map((x) => x.id),
    after.map((x) => x.id),
  )
  const added: { index: number; item: T }[] = []
  const moved: Moved[] = []
  const changed: C[] = []
  for (const [index, item] of after.entries()) {
    const from = oldIndex.get(item.id)
    const prior = from === undefined ? undefined : before[from]!
    if (prior === undefined || prior.type !== item.type) {
      added.push({ index, item })
      continue
    }
    if (!stable.has(item.id)) moved.push({ id: item.id, from: from!, to: index })
    const c = change(prior, item)
    if (c) changed.push(c)
  }
  const removed = before.flatMap((item, index) => {
    const now = after.find((x) => x.id === item.id)
    return newIds.has(item.id) && now?.type === item.type ? [] : [{ index, id: item.id, type: item.type }]
  })
  return { added, removed, moved, changed }
}

// Removed first, then every item that is added or moved is put at its new index in ascending
// order: the untouched items keep their relative order, so the result is the new list.
function applyListDiff<T extends { id: string }>(
  list: readonly T[],
  d: { added: { index: number; item: T }[]; removed: { id: string }[]; moved: Moved[] },
  byId: (id: string) => T | undefined,
): T[] {
  const gone = new Set([...d.removed.map((r) => r.id), ...d.moved.map((m) => m.id)])
  const out = list.filter((x) => !gone.has(x.id))
  const placed = [
    ...d.added.map((a) => ({ index: a.index, item: a.item })),
    ...d.moved.flatMap((m) => {
      const item = byId(m.id)
      return item ? [{ index: m.to, item }] : []
    }),
  ].sort((x, y) => x.index - y.index)
  for (const p of placed) out.splice(p.index, 0, p.item)
  return out
}

function blockDiff(before: readonly Block[], after: readonly Block[], base: string): BlockDiff | null {
  const d = listDiff(before, after, (a, b) => {
    const settings = valueChanges(a.settings, b.settings, `${base}.${b.id}.settings`)
    return settings.length ? { id: b.id, type: b.type, settings } : null
  })
  if (!d.added.length && !d.removed.length && !d.moved.length && !d.changed.length) return null
  return {
    added: d.added.map((a) => ({ index: a.index, block: a.item })),
    removed: d.removed,
    moved: d.moved,
    changed: d.changed,
  }
}

const blocksOf = (s: Section): Block[] => ((s as { blocks?: Block[] }).blocks ?? []) as Block[]

function layoutDiff(layout: string, before: readonly Section[], after: readonly Section[]): LayoutDiff | null {
  const d = listDiff(before, after, (a, b): SectionChange | null => {
    const base = `${layout}.${b.id}`
    const { blocks: _a, ...restA } = a as Section & { blocks?: unknown }
    const { blocks: _b, ...restB } = b as Section & { blocks?: unknown }
    const settings = valueChanges(restA, restB, base)
    const hadBlocks = (a as { blocks?: unknown }).blocks !== undefined
    const hasBlocks = (b as { blocks?: unknown }).blocks !== undefined
    // Presence of an empty `blocks` list is a setting-level change of its own.
    if (hadBlocks !== hasBlocks && blocksOf(a).length === 0 && blocksOf(b).length === 0)
      settings.push({
        path: `${base}.blocks`,
        old: (a as { blocks?: unknown }).blocks,
        new: (b as { blocks?: unknown }).blocks,
      })
    const blocks = blockDiff(blocksOf(a), blocksOf(b), `${base}.blocks`)
    return settings.length || blocks ? { id: b.id, type: b.type, settings, blocks } : null
  })
  if (!d.added.length && !d.removed.length && !d.moved.length && !d.changed.length) return null
  return {
    layout,
    added: d.added.map((a) => ({ index: a.index, section: a.item })),
    removed: d.removed,
    moved: d.moved,
    changed: d.changed,
  }
}

const pageFields = (p: Page) => ({ slug: p.slug, title: p.title, status: p.status })

export function diffDocuments(a: ThemeDocument, b: ThemeDocument): ThemeDiff {
  const tokens = valueChanges(a.theme, b.theme, 'tokens')
  const navigation = jsonEqual(a.navigation, b.navigation) ? null : { old: a.navigation, new: b.navigation }
  const layouts: LayoutDiff[] = []
  for (const name of TEMPLATE_NAMES) {
    const d = layoutDiff(`templates.${name}`, a.templates[name], b.templates[name])
    if (d) layouts.push(d)
  }
  const pageDiff = listDiff(
    a.pages.map((p) => ({ ...p, type: 'page' })),
    b.pages.map((p) => ({ ...p, type: 'page' })),
    (pa, pb) => {
      const fields = valueChanges(pageFields(pa), pageFields(pb), `pages.${pb.id}`)
      const layout = layoutDiff(`pages.${pb.id}`, pa.layout, pb.layout)
      if (layout) layouts.push(layout)
      return fields.length ? { id: pb.id, fields } : null
    },
  )
  const slugOf = new Map(a.pages.map((p) => [p.id, p.slug]))
  // Pages have no order of their own to edit (no event reorders them), so no page is ever moved.
  return {
    tokens,
    navigation,
    pages: {
      added: pageDiff.added.map(({ index, item: { type: _t, ...page } }) => ({ index, page: page as Page })),
      removed: pageDiff.removed.map((r) => ({ index: r.index, id: r.id, slug: slugOf.get(r.id) ?? '' })),
      changed: pageDiff.changed,
    },
    layouts,
  }
}

function applyLayout(layout: Section[], d: LayoutDiff): Section[] {
  const byId = new Map(layout.map((s) => [s.id, s]))
  const changed = new Map(d.changed.map((c) => [c.id, c]))
  const updated = layout.map((s) => {
    const c = changed.get(s.id)
    if (!c) return s
    let next = applyValueChanges(s, c.settings, `${d.layout}.${s.id}`)
    if (c.blocks) {
      const blocks = blocksOf(s)
      const bc = new Map(c.blocks.changed.map((x) => [x.id, x]))
      const changedBlocks = blocks.map((b) => {
        const x = bc.get(b.id)
        return x ? applyValueChanges(b, x.settings, `${d.layout}.${s.id}.blocks.${b.id}`) : b
      })
      const byBlock = new Map(changedBlocks.map((b) => [b.id, b]))
      next = {
        ...next,
        blocks: applyListDiff(
          changedBlocks,
          {
            added: c.blocks.added.map((a) => ({ index: a.index, item: a.block })),
            removed: c.blocks.removed,
            moved: c.blocks.moved,
          },
          (id) => byBlock.get(id),
        ),
      } as Section
    }
    byId.set(s.id, next)
    return next
  })
  return applyListDiff(
    updated,
    { added: d.added.map((a) => ({ index: a.index, item: a.section })), removed: d.removed, moved: d.moved },
    (id) => byId.get(id),
  )
}

export function applyDiff(doc: ThemeDocument, diff: ThemeDiff): ThemeDocument {
  const theme = applyValueChanges(doc.theme, diff.tokens, 'tokens') as ThemeTokens
  const navigation = diff.navigation ? diff.navigation.new : doc.navigation
  const layoutOf = new Map(diff.layouts.map((l) => [l.layout, l]))
  const templates = { ...doc.templates }
  for (const name of TEMPLATE_NAMES) {
    const d = layoutOf.get(`templates.${name}`)
    if (d) templates[name] = applyLayout(templates[name], d)
  }
  const fields = new Map(diff.pages.changed.map((c) => [c.id, c]))
  const kept = doc.pages.map((p) => {
    const f = fields.get(p.id)
    const d = layoutOf.get(`pages.${p.id}`)
    let next = f ? applyValueChanges(p, f.fields, `pages.${p.id}`) : p
    if (d) next = { ...next, layout: applyLayout(next.layout, d) }
    return next
  })
  const pages = applyListDiff(
    kept,
    { added: diff.pages.added.map((a) => ({ index: a.index, item: a.page })), removed: diff.pages.removed, moved: [] },
    () => undefined,
  )
  return { ...doc, theme, navigation, templates, pages }
}

// Every path a diff touches, at the granularity an undo checks for overlap: a token, the
// navigation, a page's field, a section (added, removed or moved) or one of its settings or blocks.
export function touchedPaths(diff: ThemeDiff): string[] {
  const out: string[] = diff.tokens.map((t) => t.path)
  if (diff.navigation) out.push('navigation')
  for (const p of diff.pages.added) out.push(`pages.${p.page.id}`)
  for (const p of diff.pages.removed) out.push(`pages.${p.id}`)
  for (const p of diff.pages.changed) out.push(...p.fields.map((f) => f.path))
  for (const l of diff.layouts) {
    for (const s of l.added) out.push(`${l.layout}.${s.section.id}`)
    for (const s of l.removed) out.push(`${l.layout}.${s.id}`)
    for (const s of l.moved) out.push(`${l.layout}.${s.id}`)
    for (const c of l.changed) {
      out.push(...c.settings.map((s) => s.path))
      if (c.blocks) {
        const base = `${l.layout}.${c.id}.blocks`
        for (const b of c.blocks.added) out.push(`${base}.${b.block.id}`)
        for (const b of c.blocks.removed) out.push(`${base}.${b.id}`)
        for (const b of c.blocks.moved) out.push(`${base}.${b.id}`)
        for (const b of c.blocks.changed) out.push(...b.settings.map((s) => s.path))
      }
    }
  }
  return out
}

const overlaps = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`)

// Paths of `mine` that `theirs` also touched (either is inside the other).
export function overlappingPaths(mine: readonly string[], theirs: readonly string[]): string[] {
  return [...new Set(mine.filter((m) => theirs.some((t) => overlaps(m, t))))]
}

const show = (v: unknown) => {
  const s = v === undefined ? '(none)' : JSON.stringify(v)
  return s.length > 60 ? `${s.slice(0, 57)}…` : s
}

// One readable line per change, for people and for agents' confirmations.
export function summarizeDiff(diff: ThemeDiff): string[] {
  const out: string[] = []
  for (const t of diff.tokens) out.push(`${t.path}: ${show(t.old)} → ${show(t.new)}`)
  if (diff.navigation) out.push(`navigation: ${diff.navigation.old.length} → ${diff.navigation.new.length} entries`)
  for (const p of diff.pages.added) out.push(`page /${p.page.slug} added`)
  for (const p of diff.pages.removed) out.push(`page /${p.slug} removed`)
  for (const p of diff.pages.changed) for (const f of p.fields) out.push(`${f.path}: ${show(f.old)} → ${show(f.new)}`)
  for (const l of diff.layouts) {
    for (const s of l.added) out.push(`${l.layout}: ${s.section.type} section ${s.section.id} added at ${s.index}`)
    for (const s of l.removed) out.push(`${l.layout}: ${s.type} section ${s.id} removed`)
    for (const s of l.moved) out.push(`${l.layout}: section ${s.id} moved ${s.from} → ${s.to}`)
    for (const c of l.changed) {
      for (const s of c.settings) out.push(`${s.path}: ${show(s.old)} → ${show(s.new)}`)
      if (c.blocks) {
        const b = c.blocks
        const parts = [
          b.added.length && `${b.added.length} added`,
          b.removed.length && `${b.removed.length} removed`,
          b.moved.length && `${b.moved.length} moved`,
          b.changed.length && `${b.changed.length} changed`,
        ].filter(Boolean)
        out.push(`${l.layout}.${c.id}: blocks ${parts.join(', ')}`)
      }
    }
  }
  return out
}

export const isEmptyDiff = (d: ThemeDiff) =>
  !d.tokens.length &&
  !d.navigation &&
  !d.pages.added.length &&
  !d.pages.removed.length &&
  !d.pages.changed.length &&
  !d.layouts.length
