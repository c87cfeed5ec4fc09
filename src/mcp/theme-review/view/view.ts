// The merchant's review of an agent's draft, inside the chat (MCP Apps, SEP-1865). It runs in
// the host's sandboxed frame, fed by the result of preview_theme, diff_theme or check_theme:
// the preview of the version the tool returned at desktop, tablet and phone widths, what
// publishing would change in the merchant's words, the theme checks, and one action: publish
// this version (when the credential may) or open the editor and ask the merchant. Every call
// goes through the host (callServerTool); the view itself connects nowhere.
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps'
import { REVIEW_META_KEY } from '../review-meta.ts'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

type Line = { text: string; colors?: { old: string | null; new: string | null } }
type Review = {
  themeId: string
  name: string
  status: string
  version: number
  editorUrl: string
  publishUrl: string
  live: { themeId: string | null; version: number | null }
  changes: { where: string; lines: Line[] }[]
  canPublish: boolean
}
type Finding = { rule: string; severity: 'error' | 'warning' | 'info'; message: string; fix: string; template?: string }
type Preview = { previewUrl: string; expiresAt: string; themeVersion: number }

const WIDTHS = { Desktop: 1280, Tablet: 768, Phone: 390 } as const
type Width = keyof typeof WIDTHS

const state: {
  review: Review | null
  preview: Preview | null
  findings: Finding[] | null
  width: Width
  notice: { kind: 'ok' | 'error'; text: string } | null
  busy: boolean
} = { review: null, preview: null, findings: null, width: 'Desktop', notice: null, busy: false }

const app = new App({ name: 'Storefront theme review', version: '1.0.0' }, {}, { autoResize: true })

const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: (Node | string | null | false)[]
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(props)) if (v !== undefined) node.setAttribute(k, v)
  for (const c of children) if (c !== null && c !== false) node.append(c)
  return node
}

const root = document.getElementById('review')!

function structured(result: CallToolResult): Record<string, unknown> {
  return (result.structuredContent ?? {}) as Record<string, unknown>
}

function take(result: CallToolResult): void {
  const review = result._meta?.[REVIEW_META_KEY] as Review | undefined
  if (review) state.review = review
  if (result.isError) {
    state.notice = { kind: 'error', text: errorWords(result) }
    return
  }
  const data = structured(result)
  if (typeof data.previewUrl === 'string') {
    state.preview = {
      previewUrl: data.previewUrl,
      expiresAt: String(data.expiresAt),
      themeVersion: Number(data.themeVersion),
    }
  }
  if (Array.isArray(data.findings)) state.findings = data.findings as Finding[]
}

function errorWords(result: CallToolResult): string {
  const error = (structured(result).error ?? {}) as {
    code?: string
    message?: string
    details?: { currentVersion?: number }
  }
  switch (error.code) {
    case 'VERSION_CONFLICT':
      return `The draft changed after this review opened${
        error.details?.currentVersion ? ` (it is now version ${error.details.currentVersion})` : ''
      }. Nothing was published. Ask the assistant for a new preview and review it again.`
    case 'INSUFFICIENT_SCOPE':
      return 'This assistant is not allowed to publish. Publish from your dashboard, or grant it publishing.'
    case 'NOT_FOUND':
      return 'This theme no longer exists.'
    default:
      return error.message ?? 'Something went wrong. Nothing was changed.'
  }
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult | null> {
  state.busy = true
  render()
  try {
    return await app.callServerTool({ name, arguments: args })
  } catch (error) {
    const text = String((error as Error)?.message ?? error)
    state.notice = {
      kind: 'error',
      text: /insufficient_scope|403/i.test(text)
        ? 'This assistant is not allowed to publish. Publish from your dashboard, or grant it publishing.'
        : 'The request did not go through. Nothing was changed.',
    }
    return null
  } finally {
    state.busy = false
  }
}

async function refreshPreview(): Promise<void> {
  if (!state.review) return
  const result = await call('preview_theme', { id: state.review.themeId })
  if (result) take(result)
  render()
}

async function publish(): Promise<void> {
  const review = state.review
  const version = state.preview?.themeVersion ?? review?.version
  if (!review || version === undefined) return
  const result = await call('publish_theme', { id: review.themeId, expectedVersion: version })
  if (result && !result.isError) {
    state.notice = { kind: 'ok', text: `Version ${version} of “${review.name}” is now your live store.` }
    state.review = { ...review, status: 'active', live: { themeId: review.themeId, version }, changes: [] }
  } else if (result) state.notice = { kind: 'error', text: errorWords(result) }
  render()
}

async function askMerchant(): Promise<void> {
  const review = state.review
  if (!review) return
  const version = state.preview?.themeVersion ?? review.version
  await app.sendMessage({
    role: 'user',
    content: [
      {
        type: 'text',
        text: `I reviewed version ${version} of the theme “${review.name}”. I will publish it myself from the dashboard: ${review.publishUrl}`,
      },
    ],
  })
  state.notice = { kind: 'ok', text: 'Sent to the conversation.' }
  render()
}

const expired = () => state.preview !== null && Date.parse(state.preview.expiresAt) <= Date.now()

// The preview pane is kept across renders: the frame loads once per preview link, and a width
// change resizes it in place (a re-created or moved frame would load the page again).
const previewPane = el('section', { class: 'preview' })
let shown: { url: string; stage: HTMLElement; frame: HTMLIFrameElement; buttons: HTMLButtonElement[] } | null = null

function renderPreview(): void {
  if (!state.preview || expired()) {
    shown = null
    const again = el(
      'button',
      { type: 'button', class: 'secondary' },
      state.preview ? 'Show it again' : 'Show the preview',
    )
    again.addEventListener('click', () => void refreshPreview())
    previewPane.replaceChildren(
      el('p', {}, state.preview ? 'This preview link has expired (links last 15 minutes).' : 'No preview link yet.'),
      again,
    )
    return
  }
  if (shown?.url !== state.preview.previewUrl) {
    const buttons = (Object.keys(WIDTHS) as Width[]).map((w) => {
      const b = el('button', { type: 'button', 'data-width': w }, w)
      b.addEventListener('click', () => {
        state.width = w
        renderPreview()
      })
      return b
    })
    const frame = el('iframe', { src: state.preview.previewUrl, referrerpolicy: 'no-referrer' })
    const stage = el('div', { class: 'stage' }, frame)
    previewPane.replaceChildren(
      el('div', { class: 'widths', role: 'group', 'aria-label': 'Preview width' }, ...buttons),
      stage,
    )
    shown = { url: state.preview.previewUrl, stage, frame, buttons }
  }
  const width = WIDTHS[state.width]
  for (const b of shown.buttons) b.setAttribute('aria-pressed', String(b.dataset.width === state.width))
  shown.frame.title = `Preview of version ${state.preview.themeVersion} at ${width} px`
  fit(shown.stage, shown.frame, width)
}

// The frame lays out at the device width and is scaled down to the pane, never clipped.
function fit(stage: HTMLElement, frame: HTMLIFrameElement, width: number): void {
  const scale = Math.min(1, stage.clientWidth / width)
  const height = Math.round(width * (width >= 1000 ? 0.625 : width >= 700 ? 1.2 : 1.9))
  frame.style.width = `${width}px`
  frame.style.height = `${height}px`
  frame.style.transform = `scale(${scale})`
  stage.style.height = `${Math.ceil(height * scale)}px`
}

// Set through the CSSOM, which a host's style-src without 'unsafe-inline' still allows.
function swatch(color: string | null): HTMLElement | string {
  if (!color) return ''
  const s = el('span', { class: 'swatch', 'aria-hidden': 'true' })
  s.style.background = color
  return s
}

function changesPane(): HTMLElement | null {
  const review = state.review
  if (!review) return null
  const title = review.status === 'active' ? 'This is your live theme' : 'What changes when you publish'
  if (review.changes.length === 0)
    return el(
      'section',
      { class: 'changes' },
      el('h2', {}, title),
      el('p', {}, 'Nothing: it looks the same as your live store.'),
    )
  return el(
    'section',
    { class: 'changes' },
    el('h2', {}, title),
    ...review.changes.map((g) =>
      el(
        'div',
        { class: 'group' },
        el('h3', {}, g.where),
        el(
          'ul',
          {},
          ...g.lines
            .slice(0, LINES_PER_GROUP)
            .map((l) =>
              el('li', {}, l.colors ? swatch(l.colors.old) : '', l.colors ? swatch(l.colors.new) : '', l.text),
            ),
          g.lines.length > LINES_PER_GROUP
            ? el('li', { class: 'more' }, `and ${g.lines.length - LINES_PER_GROUP} more changes here`)
            : null,
        ),
      ),
    ),
  )
}

// A long list reads as noise in a chat: the first lines of each group, then how many more.
const LINES_PER_GROUP = 8

const SEVERITY_WORDS = { error: 'Needs fixing', warning: 'Worth a look', info: 'Note' } as const

function findingsPane(): HTMLElement | null {
  if (!state.findings) return null
  if (state.findings.length === 0)
    return el('section', { class: 'checks' }, el('h2', {}, 'Checks'), el('p', {}, 'No problems found.'))
  return el(
    'section',
    { class: 'checks' },
    el('h2', {}, 'Checks'),
    el(
      'ul',
      {},
      ...state.findings.map((f) =>
        el(
          'li',
          { class: f.severity },
          el('strong', {}, SEVERITY_WORDS[f.severity]),
          ` ${f.message} `,
          el('span', { class: 'fix' }, f.fix),
        ),
      ),
    ),
  )
}

function actions(): HTMLElement | null {
  const review = state.review
  if (!review) return null
  const version = state.preview?.themeVersion ?? review.version
  const row = el('div', { class: 'actions' })
  if (review.status === 'active' && review.live.version === version) return row
  if (review.canPublish) {
    const errors = state.findings?.filter((f) => f.severity === 'error').length ?? 0
    const b = el('button', { type: 'button', class: 'primary' }, `Publish version ${version}`)
    if (state.busy) b.setAttribute('disabled', '')
    b.addEventListener('click', () => void publish())
    row.append(b)
    if (errors > 0)
      row.append(el('p', { class: 'warn' }, `${errors} check${errors === 1 ? '' : 's'} above need fixing first.`))
  } else {
    const open = el('button', { type: 'button', class: 'primary' }, 'Open in the editor')
    open.addEventListener('click', () => void app.openLink({ url: review.editorUrl }))
    const ask = el('button', { type: 'button', class: 'secondary' }, 'I’ll publish it myself')
    ask.addEventListener('click', () => void askMerchant())
    row.append(open, ask, el('p', { class: 'hint' }, 'This assistant cannot publish; you decide from your dashboard.'))
  }
  return row
}

// Fixed regions: render() refills all but the preview, which renderPreview() keeps.
const top = el('div', { class: 'top' })
const rest = el('div', { class: 'rest' })
root.replaceChildren(top, previewPane, rest)

function render(): void {
  const review = state.review
  const version = state.preview?.themeVersion ?? review?.version
  const heading = el('header', {}, el('h1', {}, review ? `“${review.name}”` : 'Theme review'))
  if (review)
    heading.append(
      el('p', { class: 'sub' }, `Version ${version} · ${review.status === 'active' ? 'live' : 'draft, not live'}`),
    )
  const notice = state.notice
    ? el('p', { class: `notice ${state.notice.kind}`, role: 'status' }, state.notice.text)
    : null
  top.replaceChildren(...[heading, notice].filter((p): p is HTMLElement => p !== null))
  renderPreview()
  rest.replaceChildren(...[changesPane(), findingsPane(), actions()].filter((p): p is HTMLElement => p !== null))
}

function applyContext(ctx: ReturnType<App['getHostContext']>): void {
  if (!ctx) return
  if (ctx.theme) applyDocumentTheme(ctx.theme)
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables)
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts)
}

app.ontoolresult = (result) => {
  take(result as CallToolResult)
  render()
}
app.onhostcontextchanged = (ctx) => {
  applyContext(ctx)
  render()
}
window.addEventListener('resize', () => renderPreview())

render()
await app.connect()
applyContext(app.getHostContext())
render()
