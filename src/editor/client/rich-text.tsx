// Rich text fields: a small toolbar editor over a contenteditable that can only hand over the
// service's documented subset (the tags and attributes getThemeSchema lists under rules.richText).
// Whatever the browser's editing commands or a paste put in the box, the value sent is rebuilt
// from it: allowed tags kept (a few look-alikes mapped onto them: <b> -> <strong>, <div> -> <p>,
// <h1> -> <h2>), code-bearing elements dropped with their content, other wrappers unwrapped,
// every attribute dropped except a safe href (the service's own URL rule) and a title on <a>,
// text escaped. This is a reduction for the merchant's benefit, not the security boundary: the
// service parses and validates every value again (src/theme/rich-text.ts) and stays the authority.
//
// Pasted HTML is read by the small tokenizer below, never by the browser's HTML parser: a parsed
// document (DOMParser, <template>, createHTMLDocument) inherits the page's CSP and reports every
// style attribute and event handler in the paste as a violation (blocked, but reported), and a
// real tokenizer library (htmlparser2 with its entity tables) would almost double the bundle.
// Entities are decoded by a detached <textarea>, whose content is text only.
import { useEffect, useRef, useState } from 'preact/hooks'
import { setUnsaved } from './unsaved.ts'
import { DROPPED_WITH_CONTENT } from '../../theme/rich-text-dropped.ts'
import { urlProblem } from '../../theme/url.ts'

export type RichTextRules = { tags: readonly string[]; attributes: Readonly<Record<string, readonly string[]>> }

type TNode = { text: string } | { name: string; attrs: Record<string, string>; children: TNode[] }

// Spellings browsers and word processors produce, mapped onto the subset when the target is allowed.
const ALIASES: Record<string, string> = {
  b: 'strong',
  i: 'em',
  strike: 's',
  del: 's',
  ins: 'u',
  h1: 'h2',
  h5: 'h4',
  h6: 'h4',
  tt: 'code',
  kbd: 'code',
  samp: 'code',
  pre: 'p',
}
// Containers that become a paragraph when they hold only inline content, and are unwrapped otherwise.
const CONTAINERS = new Set([
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'address',
  'figure',
  'figcaption',
  'center',
  'dd',
  'dt',
  'td',
  'th',
  'caption',
])
const BLOCK = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'address',
  'figure',
  'figcaption',
  'center',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'dl',
  'dd',
  'dt',
  'hr',
  'form',
  'nav',
])
// Blocks whose content is inline: a block met inside one is unwrapped (no <p> inside <p>).
const TEXT_BLOCKS = new Set(['p', 'h2', 'h3', 'h4'])
const MAX_DEPTH = 16
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g

const escapeText = (s: string) =>
  s.replace(CONTROL, '').replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))
const escapeAttr = (s: string) =>
  s
    .replace(CONTROL, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** An href rich text may carry, by the service's own URL rule (https://, mailto:, tel: or a site-relative /path), or null. */
export function safeHref(raw: string): string | null {
  const href = raw.trim()
  return href !== '' && urlProblem(href, { allowContactSchemes: true }) === null ? href : null
}

// --- reading HTML text into nodes, without the browser's parser ---

const VOID = new Set([
  'br',
  'img',
  'hr',
  'input',
  'meta',
  'link',
  'wbr',
  'area',
  'base',
  'col',
  'embed',
  'source',
  'track',
  'param',
  'keygen',
])
const RAW = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript'])
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9:-]*)/y
const ATTR = /[\s/]*([^\s"'>/=][^\s"'>/=]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/y
const ATTR_END = /[\s/]*>/y

let decoder: HTMLTextAreaElement | null = null
/** Character references decoded by a detached <textarea> (its content is text: no element is ever made). */
function decode(text: string): string {
  if (!text.includes('&')) return text
  decoder ??= document.createElement('textarea')
  decoder.innerHTML = text.replace(/</g, '&lt;')
  return decoder.value
}

/** HTML text as nodes: start and end tags, attributes, comments skipped, raw-text elements skipped whole. */
export function parseHtml(html: string): TNode[] {
  const root: TNode & { children: TNode[] } = { name: '#root', attrs: {}, children: [] }
  const stack: (TNode & { children: TNode[]; name: string })[] = [root]
  const top = () => stack[stack.length - 1]!
  const text = (raw: string) => {
    if (raw) top().children.push({ text: decode(raw) })
  }
  const closeTo = (name: string, stopAt: string[] = []) => {
    for (let k = stack.length - 1; k > 0; k--) {
      if (stopAt.includes(stack[k]!.name)) return
      if (stack[k]!.name === name) {
        stack.length = k
        return
      }
    }
  }
  const lower = html.toLowerCase()
  let i = 0
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt < 0) {
      text(html.slice(i))
      break
    }
    text(html.slice(i, lt))
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4)
      i = end < 0 ? html.length : end + 3
      continue
    }
    if (html[lt + 1] === '!' || html[lt + 1] === '?') {
      const end = html.indexOf('>', lt)
      i = end < 0 ? html.length : end + 1
      continue
    }
    TAG.lastIndex = lt
    const tag = TAG.exec(html)
    if (!tag) {
      text('<')
      i = lt + 1
      continue
    }
    const closing = tag[1] === '/'
    const name = tag[2]!.toLowerCase()
    let j = TAG.lastIndex
    const attrs: Record<string, string> = {}
    for (;;) {
      ATTR_END.lastIndex = j
      if (ATTR_END.test(html)) {
        j = ATTR_END.lastIndex
        break
      }
      ATTR.lastIndex = j
      const attr = ATTR.exec(html)
      if (!attr || ATTR.lastIndex === j) {
        j = html.length
        break
      }
      j = ATTR.lastIndex
      const key = attr[1]!.toLowerCase()
      if (!(key in attrs)) attrs[key] = decode(attr[2] ?? attr[3] ?? attr[4] ?? '')
    }
    i = j
    if (closing) {
      closeTo(name)
      continue
    }
    if (RAW.has(name)) {
      const end = lower.indexOf(`</${name}`, i)
      i = end < 0 ? html.length : end
      continue
    }
    if (name === 'plaintext') break
    // The implied end tags that matter for the subset: a block ends an open paragraph, an item the previous item.
    if (BLOCK.has(name)) closeTo('p', ['ul', 'ol', 'blockquote', 'td', 'th', 'div', 'li'])
    if (name === 'li') closeTo('li', ['ul', 'ol'])
    const element = { name, attrs, children: [] as TNode[] }
    top().children.push(element)
    if (!VOID.has(name)) stack.push(element)
  }
  return root.children
}

/** The nodes of a live element (the contenteditable box). */
function fromDom(parent: Node): TNode[] {
  const out: TNode[] = []
  for (const node of Array.from(parent.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) out.push({ text: node.textContent ?? '' })
    else if (node.nodeType === Node.ELEMENT_NODE) {
      const el = node as Element
      out.push({
        name: el.localName,
        attrs: Object.fromEntries(Array.from(el.attributes, (a) => [a.name, a.value])),
        children: fromDom(el),
      })
    }
  }
  return out
}

// --- nodes to the subset ---

type Out = { html: string; text: boolean }

/** The subset's HTML for a list of nodes. */
export function toSubset(nodes: TNode[], rules: RichTextRules): string {
  const allowed = new Set(rules.tags)
  const hasBlock = (n: TNode): boolean =>
    'name' in n && n.children.some((c) => 'name' in c && (BLOCK.has(c.name) || hasBlock(c)))

  const element = (el: Extract<TNode, { name: string }>, depth: number, inText: boolean, inList: boolean): Out => {
    let tag = el.name
    if (DROPPED_WITH_CONTENT.has(tag)) return { html: '', text: false }
    if (tag === 'br') return allowed.has('br') ? { html: '<br>', text: false } : { html: ' ', text: false }
    const alias = ALIASES[tag]
    if (alias && allowed.has(alias)) tag = alias
    // A container (or a paragraph the browser put a list in) holding blocks is unwrapped: its blocks stand on their own.
    if ((CONTAINERS.has(tag) || TEXT_BLOCKS.has(tag)) && !inText && hasBlock(el)) return flow(el.children, depth)
    if (CONTAINERS.has(tag)) tag = 'p'
    if (tag === 'li' && !inList) tag = 'p'
    if ((tag === 'ul' || tag === 'ol') && !allowed.has('li')) tag = ''
    // Nothing block-level inside a paragraph or heading, nothing past the nesting limit.
    if (inText && BLOCK.has(tag) && tag !== 'li') tag = ''
    if (!allowed.has(tag) || depth >= MAX_DEPTH) return children(el.children, depth, inText, false)
    let attrs = ''
    for (const name of rules.attributes[tag] ?? []) {
      const value = el.attrs[name]
      if (value === undefined) continue
      if (name === 'href') {
        const href = safeHref(value)
        if (href) attrs += ` href="${escapeAttr(href)}"`
      } else if (value.trim() !== '') attrs += ` ${name}="${escapeAttr(value.slice(0, 250))}"`
    }
    // A link whose address is not allowed keeps its text, not its tag.
    if (tag === 'a' && !attrs.includes(' href=')) return children(el.children, depth, inText, false)
    const inner = children(el.children, depth + 1, inText || TEXT_BLOCKS.has(tag), tag === 'ul' || tag === 'ol')
    // Empty paragraphs, items and marks are nothing.
    if (!inner.text) return { html: '', text: false }
    return { html: `<${tag}${attrs}>${inner.html}</${tag}>`, text: true }
  }

  const children = (nodes: TNode[], depth: number, inText: boolean, inList: boolean): Out => {
    let html = ''
    let text = false
    for (const node of nodes) {
      if ('text' in node) {
        if (inList && node.text.trim() === '') continue
        html += escapeText(node.text)
        text ||= node.text.trim() !== ''
      } else {
        const out = element(node, depth, inText, inList)
        html += out.html
        text ||= out.text
      }
    }
    return { html, text }
  }

  /** Block-level content: runs of loose text and inline elements between blocks become paragraphs. */
  const flow = (nodes: TNode[], depth: number): Out => {
    let html = ''
    let text = false
    let run: TNode[] = []
    const flush = () => {
      const out = children(run, depth + 1, true, false)
      if (out.text) {
        html += allowed.has('p') ? `<p>${out.html.trim()}</p>` : out.html
        text = true
      }
      run = []
    }
    for (const node of nodes) {
      if ('name' in node && BLOCK.has(node.name)) {
        flush()
        const out = element(node, depth, false, false)
        html += out.html
        text ||= out.text
      } else run.push(node)
    }
    flush()
    return { html, text }
  }

  return flow(nodes, 0).html
}

/** HTML from outside (the stored value, a paste) reduced to the subset. */
export function subsetOfHtml(html: string, rules: RichTextRules): string {
  return toSubset(parseHtml(html), rules)
}

const textToHtml = (text: string) =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((para) => para.trim())
    .filter(Boolean)
    .map((para) => `<p>${escapeText(para).replace(/\r?\n/g, '<br>')}</p>`)
    .join('')

type Tool = {
  key: string
  label: string
  text: string
  allowed: (tags: Set<string>) => boolean
  run?: (box: HTMLElement) => void
  on?: () => boolean
}

const exec = (command: string, value?: string) => document.execCommand(command, false, value)
const block = () => String(document.queryCommandValue('formatBlock') || '').toLowerCase()

/**
 * Turns the top-level blocks the selection spans into one list of `kind` (or, when they already
 * are exactly such a list, back into paragraphs). Done here rather than with execCommand, which
 * in Chromium nests the list inside the paragraph and drops the caret at its start.
 */
function toggleList(box: HTMLElement, kind: 'ul' | 'ol') {
  const selection = document.getSelection()
  if (!selection || selection.rangeCount === 0) return
  const range = selection.getRangeAt(0)
  const topOf = (node: Node): Node | null => {
    let n: Node | null = node
    while (n && n.parentNode !== box) n = n.parentNode
    return n
  }
  const first = topOf(range.startContainer)
  const last = topOf(range.endContainer)
  if (!first || !last) return
  const spanned: Node[] = []
  for (let n: Node | null = first; n; n = n.nextSibling) {
    spanned.push(n)
    if (n === last) break
  }
  const caret = { node: range.startContainer, offset: range.startOffset }
  const isList = (n: Node) => n.nodeType === Node.ELEMENT_NODE && (n as Element).localName === kind
  let replacement: Node[]
  if (spanned.every(isList)) {
    replacement = spanned.flatMap((list) =>
      Array.from(list.childNodes).map((li) => {
        const p = document.createElement('p')
        p.append(...Array.from(li.childNodes))
        return p
      }),
    )
  } else {
    const list = document.createElement(kind)
    for (const n of spanned) {
      const name = n.nodeType === Node.ELEMENT_NODE ? (n as Element).localName : '#text'
      if (name === 'ul' || name === 'ol') list.append(...Array.from(n.childNodes))
      else {
        const li = document.createElement('li')
        if (['p', 'h2', 'h3', 'h4', 'div', 'blockquote'].includes(name)) li.append(...Array.from(n.childNodes))
        else li.append(n)
        list.append(li)
      }
    }
    replacement = [list]
  }
  const anchor = spanned[0]!
  for (const node of replacement) box.insertBefore(node, anchor)
  for (const n of spanned) if (n.parentNode === box) box.removeChild(n)
  // Text nodes keep their identity when moved: the caret goes back where it was.
  const target = box.contains(caret.node) ? caret : { node: replacement[0]!, offset: 0 }
  selection.collapse(
    target.node,
    Math.min(
      target.offset,
      target.node.nodeType === Node.TEXT_NODE ? (target.node.textContent ?? '').length : target.node.childNodes.length,
    ),
  )
  box.dispatchEvent(new Event('input', { bubbles: true }))
}

const TOOLS: Tool[] = [
  {
    key: 'bold',
    label: 'Bold',
    text: 'B',
    allowed: (t) => t.has('strong') || t.has('b'),
    run: () => exec('bold'),
    on: () => document.queryCommandState('bold'),
  },
  {
    key: 'italic',
    label: 'Italic',
    text: 'I',
    allowed: (t) => t.has('em') || t.has('i'),
    run: () => exec('italic'),
    on: () => document.queryCommandState('italic'),
  },
  { key: 'link', label: 'Link', text: 'Link', allowed: (t) => t.has('a') },
  {
    key: 'ul',
    label: 'Bulleted list',
    text: '•',
    allowed: (t) => t.has('ul') && t.has('li'),
    run: (box) => toggleList(box, 'ul'),
    on: () => document.queryCommandState('insertUnorderedList'),
  },
  {
    key: 'ol',
    label: 'Numbered list',
    text: '1.',
    allowed: (t) => t.has('ol') && t.has('li'),
    run: (box) => toggleList(box, 'ol'),
    on: () => document.queryCommandState('insertOrderedList'),
  },
  {
    key: 'p',
    label: 'Paragraph',
    text: '¶',
    allowed: (t) => t.has('p'),
    run: () => exec('formatBlock', 'p'),
    on: () => block() === 'p',
  },
  {
    key: 'h2',
    label: 'Heading',
    text: 'H2',
    allowed: (t) => t.has('h2'),
    run: () => exec('formatBlock', 'h2'),
    on: () => block() === 'h2',
  },
  {
    key: 'h3',
    label: 'Subheading',
    text: 'H3',
    allowed: (t) => t.has('h3'),
    run: () => exec('formatBlock', 'h3'),
    on: () => block() === 'h3',
  },
]

/** What the toolbar offers for these rules, for the field's help text. */
export const formattingSummary = (rules: RichTextRules) => {
  const tags = new Set(rules.tags)
  return TOOLS.filter((t) => t.allowed(tags)).map((t) => t.label.toLowerCase())
}

export function RichTextEditor(props: {
  id: string
  labelId: string
  label: string
  value: string
  rules: RichTextRules
  disabled: boolean
  invalid: boolean
  required: boolean
  describedBy: string | undefined
  onCommit: (html: string) => void
}) {
  const { id, rules } = props
  const box = useRef<HTMLDivElement>(null)
  const wrap = useRef<HTMLDivElement>(null)
  const range = useRef<Range | null>(null)
  const sent = useRef<string | null>(null)
  const [pressed, setPressed] = useState<Record<string, boolean>>({})
  const [link, setLink] = useState<{ href: string; error: string | null } | null>(null)
  const tags = new Set(rules.tags)
  const tools = TOOLS.filter((t) => t.allowed(tags))

  // The saved value, shown as the subset (it already is one: the service validated it).
  useEffect(() => {
    if (box.current) box.current.innerHTML = subsetOfHtml(props.value, rules)
    sent.current = null
    setUnsaved(id, null)
  }, [props.value])
  useEffect(() => () => setUnsaved(id, null), [])

  // The address box takes the focus when the link form opens (the caret in the text is kept in `range`).
  const opened = link !== null
  useEffect(() => {
    if (opened) document.getElementById(`${id}-href`)?.focus()
  }, [opened])

  /** Which toolbar states (bold, list...) apply where the caret is. */
  const refresh = () => setPressed(Object.fromEntries(tools.filter((t) => t.on).map((t) => [t.key, t.on!()])))

  // Where the caret was in this box, so a toolbar button (which takes the focus) acts there.
  useEffect(() => {
    const track = () => {
      const selection = document.getSelection()
      if (!selection || selection.rangeCount === 0 || !box.current?.contains(selection.anchorNode)) return
      range.current = selection.getRangeAt(0).cloneRange()
      refresh()
    }
    document.addEventListener('selectionchange', track)
    return () => document.removeEventListener('selectionchange', track)
  }, [])

  /** Focuses the box for a toolbar command. Clicked with a mouse, the box kept its focus and caret;
   *  reached by Tab, it gets back the caret it had (the last selection seen in it). */
  const restore = () => {
    const el = box.current
    if (!el) return
    if (document.activeElement !== el) {
      el.focus()
      const selection = document.getSelection()
      if (selection && range.current && el.contains(range.current.startContainer)) {
        selection.removeAllRanges()
        selection.addRange(range.current)
      }
    }
    // Paragraphs on Enter, tags rather than style attributes (which the page's CSP refuses anyway).
    exec('defaultParagraphSeparator', 'p')
    exec('styleWithCSS', 'false')
  }

  const commit = () => {
    setUnsaved(id, null)
    const el = box.current
    if (!el) return
    const html = toSubset(fromDom(el), rules)
    // Show what is kept: the box holds exactly the value that is sent.
    if (el.innerHTML !== html) el.innerHTML = html
    if (html === props.value || html === sent.current) return
    sent.current = html
    props.onCommit(html)
  }

  /** Puts subset HTML where the caret is, replacing the selection (paste and drop). */
  const insert = (html: string, at: Range | null) => {
    const el = box.current
    const selection = document.getSelection()
    const target = at ?? (selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null)
    if (!el || !target || !el.contains(target.startContainer)) return
    const fragment = target.createContextualFragment(html)
    const last = fragment.lastChild
    target.deleteContents()
    target.insertNode(fragment)
    if (last && selection) {
      const after = document.createRange()
      after.setStartAfter(last)
      after.collapse(true)
      selection.removeAllRanges()
      selection.addRange(after)
    }
    el.dispatchEvent(new Event('input', { bubbles: true }))
  }

  const incoming = (data: DataTransfer | null) => {
    const html = data?.getData('text/html') ?? ''
    return html ? subsetOfHtml(html, rules) : textToHtml(data?.getData('text/plain') ?? '')
  }

  const applyLink = () => {
    if (!link) return
    const href = safeHref(link.href)
    if (!href)
      return setLink({
        ...link,
        error: 'Use an https:// address, mailto:, tel: or a storefront path such as /pages/about-us.',
      })
    restore()
    exec('createLink', href)
    setLink(null)
  }

  return (
    <div
      class={`rich-text${props.disabled ? ' disabled' : ''}`}
      ref={wrap}
      onFocusOut={(e) => {
        if (!wrap.current?.contains(e.relatedTarget as Node | null)) {
          setLink(null)
          commit()
        }
      }}
    >
      {props.disabled ? null : (
        <div class="rich-toolbar" role="toolbar" aria-label={`${props.label} formatting`} aria-controls={id}>
          {tools.map((tool) => (
            <button
              key={tool.key}
              type="button"
              class={`tool tool-${tool.key}`}
              title={tool.label}
              aria-pressed={tool.on ? pressed[tool.key] === true : undefined}
              aria-expanded={tool.key === 'link' ? link !== null : undefined}
              // Keep the caret in the box when clicked with a mouse.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                if (tool.run) {
                  restore()
                  if (box.current) tool.run(box.current)
                  refresh()
                  return
                }
                const current = range.current?.startContainer.parentElement?.closest('a')
                setLink(link ? null : { href: current?.getAttribute('href') ?? '', error: null })
              }}
            >
              {/* Named by its words (not aria-label), shown as its glyph. */}
              <span aria-hidden="true">{tool.text}</span>
              <span class="visually-hidden">{tool.label}</span>
            </button>
          ))}
        </div>
      )}
      {link ? (
        <div class="rich-link">
          <label for={`${id}-href`}>Link address</label>
          <div class="row">
            <input
              id={`${id}-href`}
              type="text"
              inputMode="url"
              value={link.href}
              placeholder="/pages/… or https://…"
              aria-invalid={link.error ? true : undefined}
              aria-describedby={link.error ? `${id}-href-error` : undefined}
              onInput={(e) => setLink({ href: e.currentTarget.value, error: null })}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault()
                  applyLink()
                } else if (e.key === 'Escape') {
                  setLink(null)
                  restore()
                }
              }}
            />
            <button type="button" onClick={applyLink}>
              Apply link
            </button>
            <button
              type="button"
              onClick={() => {
                restore()
                exec('unlink')
                setLink(null)
              }}
            >
              Remove link
            </button>
          </div>
          {link.error ? (
            <p class="error" id={`${id}-href-error`}>
              {link.error}
            </p>
          ) : null}
        </div>
      ) : null}
      {/* biome-ignore lint/a11y/useSemanticElements: a contenteditable rich-text area; a textarea cannot hold formatting */}
      <div
        ref={box}
        id={id}
        class="rich-area"
        role="textbox"
        aria-multiline="true"
        aria-labelledby={props.labelId}
        aria-describedby={props.describedBy}
        aria-invalid={props.invalid ? true : undefined}
        aria-required={props.required ? true : undefined}
        aria-readonly={props.disabled ? true : undefined}
        contentEditable={!props.disabled}
        tabIndex={props.disabled ? -1 : 0}
        onFocus={() => {
          exec('defaultParagraphSeparator', 'p')
          exec('styleWithCSS', 'false')
        }}
        onInput={() => setUnsaved(id, { label: props.label, save: commit })}
        onPaste={(e) => {
          e.preventDefault()
          insert(incoming(e.clipboardData), null)
        }}
        onDrop={(e) => {
          e.preventDefault()
          const at = document.caretRangeFromPoint?.(e.clientX, e.clientY) ?? null
          insert(incoming(e.dataTransfer), at)
        }}
      />
    </div>
  )
}
