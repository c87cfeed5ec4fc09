import { COLOR_PATTERN } from '../../theme/constants.ts'
import { blockLabel, sectionLabel, settingPathLabel, templateLabel } from '../../theme/merchant-texts.ts'
import type { Page } from '../../theme/document.ts'
import type { ThemeDiff, ValueChange } from './diff.ts'

// A theme diff in a shop owner's words: one line per change, grouped by where it shows (the
// design, the menus, a page or template), settings by their labels, short values old → new and
// colours with both values so a view can draw swatches. Used where a merchant reviews what
// publishing would change (the MCP App's review view); the structural diff stays the agents'.

export type DiffLine = { text: string; colors?: { old: string | null; new: string | null } }
export type DiffGroup = { where: string; lines: DiffLine[] }

const isColor = (v: unknown): v is string => typeof v === 'string' && COLOR_PATTERN.test(v)

function shortValue(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null
  if (typeof v === 'boolean') return v ? 'on' : 'off'
  if (typeof v === 'number') return String(v)
  if (typeof v === 'string') return v.length <= 60 ? `“${v}”` : null
  return null
}

function valueLine(change: ValueChange, strip: string): DiffLine {
  const path = change.path.startsWith(strip) ? change.path.slice(strip.length) : change.path
  const label = settingPathLabel(path)
  if (isColor(change.old) || isColor(change.new)) {
    const colors = { old: isColor(change.old) ? change.old : null, new: isColor(change.new) ? change.new : null }
    return { text: `${label}: ${colors.old ?? 'not set'} → ${colors.new ?? 'not set'}`, colors }
  }
  if (change.old === undefined) return { text: `${label} set${tail(change.new)}` }
  if (change.new === undefined) return { text: `${label} cleared` }
  const [o, n] = [shortValue(change.old), shortValue(change.new)]
  return { text: o !== null && n !== null ? `${label}: ${o} → ${n}` : `${label} changed` }
}

const tail = (v: unknown) => {
  const s = shortValue(v)
  return s === null ? '' : ` to ${s}`
}

function layoutName(layout: string, pages: Map<string, string>): string {
  if (layout.startsWith('templates.')) return templateLabel(layout.slice('templates.'.length))
  const id = layout.slice('pages.'.length)
  return `Page “${pages.get(id) ?? id}”`
}

const heading = (settings: Record<string, unknown>) => {
  const h = settings.heading ?? settings.text ?? settings.title
  return typeof h === 'string' && h.trim() !== '' ? ` “${h.length > 40 ? `${h.slice(0, 39)}…` : h}”` : ''
}

/** The diff as a merchant reads it; `pages` names pages (id → title) on either side. */
export function describeDiffForMerchants(diff: ThemeDiff, pages: readonly Page[] = []): DiffGroup[] {
  const titles = new Map(pages.map((p) => [p.id, p.title]))
  for (const p of diff.pages.added) titles.set(p.page.id, p.page.title)
  const groups: DiffGroup[] = []
  const push = (where: string, lines: DiffLine[]) => {
    if (lines.length > 0) groups.push({ where, lines })
  }
  push(
    'Design',
    diff.tokens.map((t) => valueLine(t, 'tokens.')),
  )
  if (diff.navigation)
    push('Menus', [{ text: `Menu links: ${diff.navigation.old.length} → ${diff.navigation.new.length}` }])
  push('Pages', [
    ...diff.pages.added.map((p) => ({ text: `Added the page “${p.page.title}” (/pages/${p.page.slug})` })),
    ...diff.pages.removed.map((p) => ({ text: `Removed the page /pages/${p.slug}` })),
    ...diff.pages.changed.flatMap((p) =>
      p.fields.map((f) => valueLine({ ...f, path: f.path.replace(/^pages\.[^.]+\./, '') }, '')),
    ),
  ])
  for (const l of diff.layouts) {
    const lines: DiffLine[] = []
    for (const s of l.added)
      lines.push({
        text: `Added ${sectionLabel(s.section.type)}${heading(s.section.settings)} at position ${s.index + 1}`,
      })
    for (const s of l.removed) lines.push({ text: `Removed ${sectionLabel(s.type)}` })
    for (const s of l.moved) lines.push({ text: `Moved a section from position ${s.from + 1} to ${s.to + 1}` })
    for (const c of l.changed) {
      const name = sectionLabel(c.type)
      const prefix = `${l.layout}.${c.id}.`
      for (const s of c.settings) {
        const line = valueLine(s, prefix)
        lines.push({ ...line, text: `${name} › ${line.text}` })
      }
      if (c.blocks) {
        for (const b of c.blocks.added)
          lines.push({ text: `${name}: added a ${blockLabel(b.block.type).toLowerCase()}` })
        for (const b of c.blocks.removed) lines.push({ text: `${name}: removed a ${blockLabel(b.type).toLowerCase()}` })
        if (c.blocks.moved.length > 0) lines.push({ text: `${name}: reordered items` })
        for (const b of c.blocks.changed)
          for (const s of b.settings) {
            const line = valueLine(s, `${prefix}blocks.${b.id}.`)
            lines.push({ ...line, text: `${name} › ${blockLabel(b.type)} › ${line.text}` })
          }
      }
    }
    push(layoutName(l.layout, titles), lines)
  }
  return groups
}
