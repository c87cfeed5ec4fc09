import type { LayoutDiff, ThemeDiff, ValueChange } from '../aggregates/theme/diff.ts'
import type { DiffResult } from '../queries/themes/history.ts'
import { blockLabel, sectionLabel, settingPathLabel, templateLabel } from '../theme/merchant-texts.ts'
import { html, type Html } from '../web/html.ts'
import { href } from './layout.ts'

// The structural diff of two theme points as a merchant reads it: a summary, then tokens,
// navigation, pages and, per layout, the sections added, removed, moved and changed (setting,
// before, after). Pure rendering of the diffTheme operation's data. Sections, blocks, templates
// and settings are named as the editor names them (src/theme/merchant-texts.ts); colours show a swatch.

export type DiffRefView = DiffResult['from']

/** "Home page" for templates.home; a custom page by its address. */
export const layoutName = (layout: string) =>
  layout.startsWith('templates.')
    ? templateLabel(layout.slice('templates.'.length))
    : layout.startsWith('pages.')
      ? `Page /${layout.slice('pages.'.length)}`
      : layout

// A value as text: strings as they are (quoted), the rest as short JSON.
export function showValue(v: unknown): string {
  if (v === undefined) return '(not set)'
  const s = typeof v === 'string' ? `“${v}”` : JSON.stringify(v)
  return s.length > 120 ? `${s.slice(0, 117)}…` : s
}

const COLOUR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i

// A colour with its swatch before the code: an SVG fill (an attribute, not an inline style, so
// the dashboard's CSP needs no 'unsafe-inline'); the value is a checked hex colour.
const valueCell = (v: unknown): Html | string =>
  typeof v === 'string' && COLOUR.test(v)
    ? html`<svg class="swatch" viewBox="0 0 1 1" aria-hidden="true" focusable="false"><rect width="1" height="1" fill="${v}"/></svg> ${v}`
    : showValue(v)

// Inside a section's or block's table the path is shown from its settings on: `height`, not `templates.home.gap-a.settings.height`.
const shortPath = (path: string, strip: string) => {
  const rest = strip && path.startsWith(strip) ? path.slice(strip.length) : path
  return strip !== 'tokens.' && rest.startsWith('settings.') ? rest.slice('settings.'.length) : rest
}

const valueRows = (changes: ValueChange[], strip = '') =>
  changes.map(
    (c) =>
      html`<tr><td>${settingPathLabel(shortPath(c.path, strip))}</td><td class="${c.old === undefined ? 'absent' : 'before'}">${valueCell(c.old)}</td><td class="${c.new === undefined ? 'absent' : 'after'}">${valueCell(c.new)}</td></tr>`,
  )

const valueTable = (label: string, changes: ValueChange[], strip = '') =>
  html`<table class="diff-values"><caption class="visually-hidden">${label}</caption><thead><tr><th scope="col">Setting</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>${valueRows(changes, strip)}</tbody></table>`

/** Describes a ref for a heading: "version 7", "the draft (version 9)", "the live theme “Dawn” (version 3)". */
export function refLabel(ref: DiffRefView, names: Map<string, string>, themeId: string): string {
  const name = ref.themeId ? names.get(ref.themeId) : undefined
  const other = ref.themeId && ref.themeId !== themeId && name ? ` “${name}”` : ''
  if (ref.ref === 'live')
    return ref.themeId ? `the live theme${other} (version ${ref.version})` : 'the live storefront (default theme)'
  if (ref.ref === 'draft') return `the current theme (version ${ref.version})`
  return `version ${ref.version}`
}

function layoutSection(l: LayoutDiff): Html {
  const rows: Html[] = []
  for (const s of l.added)
    rows.push(
      html`<tr><td><span class="pill added">added</span></td><td><strong>${sectionLabel(s.section.type)}</strong><div class="muted mono">${s.section.id}</div></td><td>at position ${s.index + 1}</td></tr>`,
    )
  for (const s of l.removed)
    rows.push(
      html`<tr><td><span class="pill removed">removed</span></td><td><strong>${sectionLabel(s.type)}</strong><div class="muted mono">${s.id}</div></td><td>was at position ${s.index + 1}</td></tr>`,
    )
  for (const s of l.moved)
    rows.push(
      html`<tr><td><span class="pill moved">moved</span></td><td><span class="mono">${s.id}</span></td><td>position ${s.from + 1} → ${s.to + 1}</td></tr>`,
    )
  for (const c of l.changed) {
    const b = c.blocks
    const blockLines = b
      ? [
          ...b.added.map(
            (x) =>
              html`<li>block <strong>${blockLabel(x.block.type)}</strong> <span class="mono">${x.block.id}</span> added at ${x.index + 1}</li>`,
          ),
          ...b.removed.map(
            (x) =>
              html`<li>block <strong>${blockLabel(x.type)}</strong> <span class="mono">${x.id}</span> removed</li>`,
          ),
          ...b.moved.map(
            (x) => html`<li>block <span class="mono">${x.id}</span> moved ${x.from + 1} → ${x.to + 1}</li>`,
          ),
          ...b.changed.map(
            (x) =>
              html`<li>block <strong>${blockLabel(x.type)}</strong> <span class="mono">${x.id}</span>: ${valueTable(`Settings of block ${x.id}`, x.settings, `${l.layout}.${c.id}.blocks.${x.id}.`)}</li>`,
          ),
        ]
      : []
    rows.push(html`<tr><td><span class="pill changed">changed</span></td><td><strong>${sectionLabel(c.type)}</strong><div class="muted mono">${c.id}</div></td>
<td>${c.settings.length ? valueTable(`Settings of ${c.id}`, c.settings, `${l.layout}.${c.id}.`) : null}${blockLines.length ? html`<ul class="diff-blocks">${blockLines}</ul>` : null}</td></tr>`)
  }
  return html`<h3>${layoutName(l.layout)}</h3>
<table class="diff-sections stack"><thead><tr><th scope="col">Change</th><th scope="col">Section</th><th scope="col">Details</th></tr></thead><tbody>${rows}</tbody></table>`
}

export function diffView(diff: { changes: ThemeDiff; summary: string[] }): Html {
  const d = diff.changes
  if (diff.summary.length === 0)
    return html`<div class="card"><h2>Changes</h2><p class="muted">No differences: both sides are the same theme document.</p></div>`
  const nav = d.navigation
  return html`<div class="card diff"><h2>Changes <span class="muted">(${String(diff.summary.length)})</span></h2>
${d.tokens.length ? html`<h3>Design tokens</h3>${valueTable('Design tokens', d.tokens, 'tokens.')}` : null}
${nav ? html`<h3>Navigation</h3><div class="diff-nav"><div><h4>Before</h4><ol>${nav.old.map((e) => html`<li>${String((e as { label?: unknown }).label ?? '')}</li>`)}</ol></div><div><h4>After</h4><ol>${nav.new.map((e) => html`<li>${String((e as { label?: unknown }).label ?? '')}</li>`)}</ol></div></div>` : null}
${
  d.pages.added.length || d.pages.removed.length || d.pages.changed.length
    ? html`<h3>Pages</h3><ul>${d.pages.added.map((p) => html`<li><span class="pill added">added</span> /${p.page.slug}</li>`)}${d.pages.removed.map((p) => html`<li><span class="pill removed">removed</span> /${p.slug}</li>`)}${d.pages.changed.map((p) => html`<li><span class="pill changed">changed</span> <span class="mono">${p.id}</span>${valueTable(`Page ${p.id}`, p.fields)}</li>`)}</ul>`
    : null
}
${d.layouts.map(layoutSection)}
</div>`
}

// Which sections to outline in each preview: what the left side loses or changes, what the right side gains or changes.
export function highlights(d: ThemeDiff): { from: Record<string, string>; to: Record<string, string> } {
  const changed = new Set<string>()
  const added = new Set<string>()
  const removed = new Set<string>()
  for (const l of d.layouts) {
    for (const s of l.added) added.add(s.section.id)
    for (const s of l.removed) removed.add(s.id)
    for (const s of [...l.moved, ...l.changed]) changed.add(s.id)
  }
  const join = (s: Set<string>) => (s.size ? [...s].slice(0, 60).join(',') : undefined)
  const out = (extra: Record<string, string | undefined>) =>
    Object.fromEntries(
      Object.entries({ changed: join(changed), ...extra }).filter((e): e is [string, string] => e[1] !== undefined),
    )
  return { from: out({ removed: join(removed) }), to: out({ added: join(added) }) }
}

export type PreviewSide = { label: string; src: { path: string; query?: Record<string, string> } | null }

/** Two previews side by side (stacked on a phone), each outlining the sections the diff touches. */
export function previewPair(left: PreviewSide, right: PreviewSide, note: string | null = null): Html {
  const frame = (side: PreviewSide) =>
    html`<figure class="preview-side"><figcaption>${side.label}${side.src ? html` · <a href="${href(side.src.path)}" target="_blank" rel="noopener">open in a new tab</a>` : null}</figcaption>
${side.src ? html`<div class="preview-viewport"><iframe src="${href(side.src.path, side.src.query)}" title="${`Preview: ${side.label}`}"></iframe></div>` : html`<p class="muted">No preview.</p>`}</figure>`
  return html`<div class="card"><h2>Previews</h2><p class="muted legend-line"><span class="hl hl-changed">changed or moved</span> <span class="hl hl-added">added</span> <span class="hl hl-removed">removed</span> sections are outlined. On a wide screen the previews are shown at half size; open one in a new tab to see it full size.</p>${note ? html`<p class="muted">${note}</p>` : null}<div class="preview-pair">${frame(left)}${frame(right)}</div></div>`
}
