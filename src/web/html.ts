// Escaping by construction. Every page is built with the `html` tagged template: each
// interpolated value is escaped unless it is an `Html` value, and the only ways to get one
// are this tag itself, `richText` (the theme's rich text re-sanitized by sanitizeRichText at
// render time), `styleElement` (CSS built from validated tokens, see styles.ts) and
// `jsonLdElement` (structured data: a JSON data block, never run).
//
// The tag also knows where each value lands, from the template's static text (analysed once
// per call site): URL attributes (href, src, action, ...) accept only a `SafeUrl` (made by
// urls.ts after urlProblem said yes), event-handler and style attributes accept nothing,
// attribute values must be quoted, and a URL attribute takes its value whole. A template that
// breaks these rules throws the first time it runs, so a mistake fails every test that
// renders it instead of shipping.
import { sanitizeRichText } from '../theme/rich-text.ts'
import { urlProblem } from '../theme/url.ts'

const MINT = Symbol('render.mint')

/** HTML that is safe to emit as is. */
export class Html {
  readonly value: string
  constructor(mint: symbol, value: string) {
    if (mint !== MINT) throw new Error('Html values are made by the html tag, richText or styleElement only')
    this.value = value
  }
  toString(): string {
    return this.value
  }
}

/** A URL that passed the URL policy at render time (urls.ts makes them). */
export class SafeUrl {
  readonly value: string
  constructor(mint: symbol, value: string) {
    if (mint !== MINT) throw new Error('SafeUrl values are made by urls.ts only')
    this.value = value
  }
  toString(): string {
    return this.value
  }
}

/** For urls.ts and sitePath: wraps a URL that has been checked. Not for use elsewhere. */
export function mintSafeUrl(checked: string): SafeUrl {
  return new SafeUrl(MINT, checked)
}

/** A path the service builds itself (ids encoded by the caller) with its query, checked by the
 * URL policy; null if the policy refuses it (a bug in the caller). */
export function sitePath(path: string, query?: Record<string, string | number | undefined>): SafeUrl | null {
  let full = path
  if (query) {
    const params = new URLSearchParams()
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v))
    const qs = params.toString()
    if (qs !== '') full += `?${qs}`
  }
  return urlProblem(full) === null ? mintSafeUrl(full) : null
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}
// C0 controls other than tab, line feed and carriage return never reach the page.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g

export function escapeHtml(value: string): string {
  return value.replace(CONTROLS, '').replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch)
}

type HoleKind = 'text' | 'tag' | 'attr' | 'url-attr'

const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'cite',
  'data',
  'background',
  'longdesc',
  'manifest',
  'icon',
  'ping',
  'xlink:href',
  'srcset',
  'imagesrcset',
])
const FORBIDDEN_ATTRIBUTES: ReadonlySet<string> = new Set(['style', 'srcdoc'])

const holeKinds = new WeakMap<TemplateStringsArray, HoleKind[]>()

// Where does each hole of a template land? The static text alone decides: values are
// escaped or quoted, so they cannot change the tokenizer state.
function analyse(strings: TemplateStringsArray): HoleKind[] {
  const kinds: HoleKind[] = []
  let before = ''
  for (let i = 0; i < strings.length - 1; i++) {
    before += strings[i]
    const lastOpen = before.lastIndexOf('<')
    const lastClose = before.lastIndexOf('>')
    if (lastOpen <= lastClose) {
      kinds.push('text')
      continue
    }
    const inTag = before.slice(lastOpen)
    // Inside a tag: either right after `name="` (an attribute value) or between attributes.
    const quoted = /([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*"([^"]*)$/.exec(inTag)
    const inOpenQuote = quoted !== null && (inTag.split('"').length - 1) % 2 === 1
    if (inOpenQuote && quoted) {
      const name = (quoted[1] ?? '').toLowerCase()
      const prefix = quoted[2] ?? ''
      if (name.startsWith('on') || FORBIDDEN_ATTRIBUTES.has(name)) {
        throw new Error(`html: no value may be interpolated into the ${name} attribute`)
      }
      if (URL_ATTRIBUTES.has(name)) {
        if (prefix !== '')
          throw new Error(`html: a URL attribute (${name}) takes a whole SafeUrl, not text after "${prefix}"`)
        kinds.push('url-attr')
      } else {
        kinds.push('attr')
      }
      continue
    }
    if (/=\s*'?$/.test(inTag) || (inTag.split("'").length - 1) % 2 === 1) {
      throw new Error('html: attribute values must be double-quoted')
    }
    kinds.push('tag')
  }
  return kinds
}

export type HtmlValue = Html | SafeUrl | string | number | null | undefined | false | readonly HtmlValue[]

function renderHole(value: HtmlValue, kind: HoleKind): string {
  if (value === null || value === undefined || value === false) return ''
  if (kind === 'url-attr') {
    if (value instanceof SafeUrl) return escapeHtml(value.value)
    throw new Error('html: URL attributes accept only SafeUrl values (see urls.ts)')
  }
  if (value instanceof SafeUrl) return escapeHtml(value.value)
  if (Array.isArray(value)) {
    if (kind !== 'text' && kind !== 'tag') throw new Error('html: lists cannot be interpolated into an attribute value')
    let out = ''
    for (const item of value) out += renderHole(item as HtmlValue, kind)
    return out
  }
  if (value instanceof Html) {
    if (kind === 'attr') throw new Error('html: markup cannot be interpolated into an attribute value')
    return value.value
  }
  if (kind === 'tag')
    throw new Error('html: only Html (such as html` disabled`) may be interpolated between attributes')
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  if (typeof value === 'string') return escapeHtml(value)
  return ''
}

/** The tagged template: `html\`<p class="x">${text}</p>\``. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let kinds = holeKinds.get(strings)
  if (kinds === undefined) {
    kinds = analyse(strings)
    holeKinds.set(strings, kinds)
  }
  let out = strings[0] ?? ''
  for (let i = 0; i < values.length; i++) {
    out += renderHole(values[i] as HtmlValue, kinds[i] ?? 'text')
    out += strings[i + 1] ?? ''
  }
  return new Html(MINT, out)
}

export const EMPTY: Html = html``

export function joinHtml(parts: readonly (Html | null | undefined | false)[], separator: Html = EMPTY): Html {
  let out = ''
  let first = true
  for (const part of parts) {
    if (!part) continue
    if (!first) out += separator.value
    out += part.value
    first = false
  }
  return new Html(MINT, out)
}

/**
 * Theme rich text, re-sanitized now (whatever validation said when it was stored), with its
 * site-relative links moved under the storefront's base path. sanitizeRichText serializes
 * every kept link as `<a href="...">` with the value escaped, and text can never contain a
 * raw `<`, so the rewrite below only ever meets hrefs it produced.
 */
export function richText(value: unknown, linkPrefix: string): Html {
  if (typeof value !== 'string' || value === '') return EMPTY
  let clean = sanitizeRichText(value)
  if (linkPrefix !== '') {
    const prefix = escapeHtml(linkPrefix)
    clean = clean.replace(/<a href="\/(?!\/|media\/)/g, `<a href="${prefix}/`)
  }
  return new Html(MINT, clean)
}

/** A `<style>` element from CSS text built out of validated values only (styles.ts). */
export function styleElement(css: string): Html {
  if (css.includes('<')) throw new Error('inline CSS must not contain <')
  return new Html(MINT, `<style>${css}</style>`)
}

/**
 * A `<script type="application/ld+json">` data block (schema.org structured data). Browsers never
 * run a data block, so the strict CSP (script-src 'none') holds; `<`, `>`, `&` and the JavaScript
 * line separators are escaped inside the JSON, so no value can close the element.
 */
export function jsonLdElement(value: unknown): Html {
  const json = JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  return new Html(MINT, `<script type="application/ld+json">${json}</script>`)
}
