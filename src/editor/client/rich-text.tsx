// Rich text fields: a small toolbar editor over a contenteditable that can only hand over the
// service's documented subset (the tags and attributes getThemeSchema lists under rules.richText).
// Whatever the browser's editing commands or a paste put in the box, the value sent is rebuilt
// from its DOM: allowed tags kept (a few look-alikes mapped onto them: <b> -> <strong>,
// <div> -> <p>, <h1> -> <h2>), code-bearing elements dropped with their content, other wrappers
// unwrapped, every attribute dropped except a safe href/title on <a>. Pasted HTML is parsed in an
// inert document (DOMParser: no script runs, no image loads) and reduced the same way before it
// reaches the page. The service validates the result again and stays the authority.
import { useEffect, useRef, useState } from 'preact/hooks'

export type RichTextRules = { tags: string[]; attributes: Record<string, string[]> }

// Removed with everything inside them (the service's sanitizer drops the same, and more).
const DROP = new Set(['script', 'style', 'link', 'meta', 'head', 'title', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'noscript', 'noembed', 'noframes', 'template', 'svg', 'math', 'xmp', 'plaintext', 'textarea', 'select', 'option', 'form', 'button', 'input', 'img', 'picture', 'video', 'audio', 'canvas', 'portal'])
// Spellings browsers and word processors produce, mapped onto the subset when the target is allowed.
const ALIASES: Record<string, string> = { b: 'strong', i: 'em', strike: 's', del: 's', ins: 'u', h1: 'h2', h5: 'h4', h6: 'h4', tt: 'code', kbd: 'code', samp: 'code', pre: 'p' }
// Containers that become a paragraph when they hold only inline content, and are unwrapped otherwise.
const CONTAINERS = new Set(['div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'address', 'figure', 'figcaption', 'center', 'dd', 'dt', 'td', 'th', 'caption'])
const BLOCK = new Set(['p', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'address', 'figure', 'table', 'tbody', 'thead', 'tr', 'td', 'th', 'pre', 'h1', 'h5', 'h6', 'dl', 'dd', 'dt', 'center', 'hr'])
// Blocks whose content is inline: a block met inside one is unwrapped (no <p> inside <p>).
const TEXT_BLOCKS = new Set(['p', 'h2', 'h3', 'h4'])
const MAX_DEPTH = 16
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g

const escapeText = (s: string) => s.replace(CONTROL, '').replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))
const escapeAttr = (s: string) => s.replace(CONTROL, '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** An href the subset allows: https://, mailto:, tel: or a site-relative /path; anything else (javascript:, data:, //host...) is not. */
export function safeHref(raw: string): string | null {
  const href = raw.trim()
  if (href.length === 0 || href.length > 2048 || /[\s\u0000-\u001f\u007f\\<>"]/.test(href)) return null
  if (/^https:\/\/[^/]/i.test(href) || /^mailto:[^/]/i.test(href) || /^tel:[+0-9]/i.test(href)) return href
  if (/^\/(?!\/)/.test(href)) return href
  return null
}

/** The subset's HTML for the children of `root` (a contenteditable, or the body of an inert parsed document). */
export function toSubset(root: Node, rules: RichTextRules): string {
  const allowed = new Set(rules.tags)
  const attrsOf = (tag: string) => rules.attributes[tag] ?? []
  const hasBlock = (el: Element) => Array.from(el.querySelectorAll('*')).some((d) => BLOCK.has(d.localName))

  const element = (el: Element, depth: number, inText: boolean, inList: boolean): string => {
    let tag = el.localName
    if (DROP.has(tag)) return ''
    if (tag === 'br') return allowed.has('br') ? '<br>' : ' '
    const alias = ALIASES[tag]
    if (alias && allowed.has(alias)) tag = alias
    if (CONTAINERS.has(tag)) tag = hasBlock(el) ? '' : 'p'
    if (tag === 'li' && !inList) tag = 'p'
    if ((tag === 'ul' || tag === 'ol') && !allowed.has('li')) tag = ''
    // Nothing block-level inside a paragraph or heading, nothing past the nesting limit.
    if (inText && BLOCK.has(tag) && tag !== 'li') tag = ''
    if (!allowed.has(tag) || depth >= MAX_DEPTH) return children(el, depth, inText, false)
    let attrs = ''
    for (const name of attrsOf(tag)) {
      const value = el.getAttribute(name)
      if (value === null) continue
      if (name === 'href') {
        const href = safeHref(value)
        if (!href) continue
        attrs += ` href="${escapeAttr(href)}"`
      } else if (value.trim() !== '') attrs += ` ${name}="${escapeAttr(value.slice(0, 250))}"`
    }
    // A link whose address is not allowed keeps its text, not its tag.
    if (tag === 'a' && !/ href=/.test(attrs)) return children(el, depth, inText, false)
    const inner = children(el, depth + 1, inText || TEXT_BLOCKS.has(tag), tag === 'ul' || tag === 'ol')
    return `<${tag}${attrs}>${inner}</${tag}>`
  }

  const children = (parent: Node, depth: number, inText: boolean, inList: boolean): string => {
    let out = ''
    for (const node of Array.from(parent.childNodes)) {
      if (node.nodeType === Node.TEXT_NODE) {
        const text = node.textContent ?? ''
        if (inList && text.trim() === '') continue
        out += escapeText(text)
      } else if (node.nodeType === Node.ELEMENT_NODE) out += element(node as Element, depth, inText, inList)
    }
    return out
  }

  // At the top level, runs of loose text and inline elements become paragraphs.
  let out = ''
  let run = ''
  const flush = () => {
    if (run.replace(/<br>/g, '').trim() !== '') out += allowed.has('p') ? `<p>${run.trim()}</p>` : run
    run = ''
  }
  for (const node of Array.from(root.childNodes)) {
    if (node.nodeType === Node.ELEMENT_NODE && BLOCK.has((node as Element).localName)) {
      flush()
      out += element(node as Element, 0, false, false)
    } else if (node.nodeType === Node.TEXT_NODE) run += escapeText(node.textContent ?? '')
    else if (node.nodeType === Node.ELEMENT_NODE) run += element(node as Element, 0, false, false)
  }
  flush()
  // Empty paragraphs and a box with nothing to read are nothing.
  out = out.replace(/<p>(?:\s|<br>)*<\/p>/g, '')
  const probe = new DOMParser().parseFromString(out, 'text/html').body.textContent ?? ''
  return probe.trim() === '' ? '' : out
}

/** HTML from outside (the stored value, a paste) reduced to the subset without ever running or loading anything. */
export function subsetOfHtml(html: string, rules: RichTextRules): string {
  return toSubset(new DOMParser().parseFromString(html, 'text/html').body, rules)
}

const textToHtml = (text: string) =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((para) => para.trim())
    .filter(Boolean)
    .map((para) => `<p>${escapeText(para).replace(/\r?\n/g, '<br>')}</p>`)
    .join('')

type Tool = { key: string; label: string; text: string; allowed: (tags: Set<string>) => boolean; run?: () => void; on?: () => boolean }

const exec = (command: string, value?: string) => document.execCommand(command, false, value)
const block = () => String(document.queryCommandValue('formatBlock') || '').toLowerCase()

const TOOLS: Tool[] = [
  { key: 'bold', label: 'Bold', text: 'B', allowed: (t) => t.has('strong') || t.has('b'), run: () => exec('bold'), on: () => document.queryCommandState('bold') },
  { key: 'italic', label: 'Italic', text: 'I', allowed: (t) => t.has('em') || t.has('i'), run: () => exec('italic'), on: () => document.queryCommandState('italic') },
  { key: 'link', label: 'Link', text: 'Link', allowed: (t) => t.has('a') },
  { key: 'ul', label: 'Bulleted list', text: '• List', allowed: (t) => t.has('ul') && t.has('li'), run: () => exec('insertUnorderedList'), on: () => document.queryCommandState('insertUnorderedList') },
  { key: 'ol', label: 'Numbered list', text: '1. List', allowed: (t) => t.has('ol') && t.has('li'), run: () => exec('insertOrderedList'), on: () => document.queryCommandState('insertOrderedList') },
  { key: 'p', label: 'Paragraph', text: '¶', allowed: (t) => t.has('p'), run: () => exec('formatBlock', 'p'), on: () => block() === 'p' },
  { key: 'h2', label: 'Heading', text: 'H2', allowed: (t) => t.has('h2'), run: () => exec('formatBlock', 'h2'), on: () => block() === 'h2' },
  { key: 'h3', label: 'Subheading', text: 'H3', allowed: (t) => t.has('h3'), run: () => exec('formatBlock', 'h3'), on: () => block() === 'h3' },
]

/** What the toolbar offers for these rules, for the field's help text. */
export const formattingSummary = (rules: RichTextRules) => {
  const tags = new Set(rules.tags)
  return TOOLS.filter((t) => t.allowed(tags)).map((t) => t.label.toLowerCase())
}

export function RichTextEditor(props: { id: string; labelId: string; label: string; value: string; rules: RichTextRules; disabled: boolean; invalid: boolean; required: boolean; describedBy: string | undefined; onCommit: (html: string) => void }) {
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
  }, [props.value])

  // Where the caret was in this box, so a toolbar button (which takes the focus) acts there.
  useEffect(() => {
    const track = () => {
      const selection = document.getSelection()
      if (!selection || selection.rangeCount === 0 || !box.current?.contains(selection.anchorNode)) return
      range.current = selection.getRangeAt(0).cloneRange()
      setPressed(Object.fromEntries(tools.filter((t) => t.on).map((t) => [t.key, t.on!()])))
    }
    document.addEventListener('selectionchange', track)
    return () => document.removeEventListener('selectionchange', track)
  }, [])

  /** Focuses the box with the caret where it was (the live selection if it is still in the box, else the last one seen there). */
  const restore = () => {
    const el = box.current
    if (!el) return
    const selection = document.getSelection()
    const live = selection && selection.rangeCount > 0 && el.contains(selection.anchorNode) ? selection.getRangeAt(0).cloneRange() : null
    const at = live ?? (range.current && el.contains(range.current.startContainer) ? range.current : null)
    el.focus()
    // Paragraphs on Enter, tags rather than style attributes (which the page's CSP refuses anyway).
    exec('defaultParagraphSeparator', 'p')
    exec('styleWithCSS', 'false')
    if (at && selection) {
      selection.removeAllRanges()
      selection.addRange(at)
    }
  }

  const commit = () => {
    const el = box.current
    if (!el) return
    const html = toSubset(el, rules)
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
    if (!href) return setLink({ ...link, error: 'Use an https:// address, mailto:, tel: or a storefront path such as /pages/about-us.' })
    restore()
    exec('createLink', href)
    setLink(null)
  }

  return (
    <div class={`rich-text${props.disabled ? ' disabled' : ''}`} ref={wrap} onFocusOut={(e) => {
      if (!wrap.current?.contains(e.relatedTarget as Node | null)) {
        setLink(null)
        commit()
      }
    }}>
      {props.disabled ? null : (
        <div class="rich-toolbar" role="toolbar" aria-label={`${props.label} formatting`} aria-controls={id}>
          {tools.map((tool) => (
            <button
              key={tool.key}
              type="button"
              class={`tool tool-${tool.key}`}
              aria-label={tool.label}
              title={tool.label}
              aria-pressed={tool.on ? pressed[tool.key] === true : undefined}
              aria-expanded={tool.key === 'link' ? link !== null : undefined}
              // Keep the caret in the box when clicked with a mouse.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                if (tool.run) {
                  restore()
                  tool.run()
                  return
                }
                const current = range.current?.startContainer.parentElement?.closest('a')
                setLink(link ? null : { href: current?.getAttribute('href') ?? '', error: null })
              }}
            >
              {tool.text}
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
              placeholder="/pages/about-us or https://…"
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
            <button type="button" onClick={() => {
              restore()
              exec('unlink')
              setLink(null)
            }}>
              Remove link
            </button>
          </div>
          {link.error ? <p class="error" id={`${id}-href-error`}>{link.error}</p> : null}
        </div>
      ) : null}
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
