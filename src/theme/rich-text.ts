// The rich-text subset a theme may store, its validator (write time) and its
// sanitizer (render time). Both use htmlparser2, a real HTML tokenizer, so what
// we check is what a browser would see; never regexes over markup.
import { ElementType, Parser, parseDocument } from 'htmlparser2'
import { TEXT_LIMITS } from './constants.ts'
import { DROPPED_WITH_CONTENT } from './rich-text-dropped.ts'
import { errorCodeFor, issue, type ValidationIssue } from './issues.ts'
import { urlProblem } from './url.ts'

export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'code',
] as const

export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = { a: ['href', 'title'] }

export const RICH_TEXT_DESCRIPTION =
  'HTML subset: p, br, strong, em, b, i, u, s, a, ul, ol, li, h2, h3, h4, blockquote, code. ' +
  'Only <a> may have attributes, and only href (https://, mailto:, tel: or a site-relative /path) and title. ' +
  'No other tags, no style/class/id, no event handlers, no comments.'

const RICH_TEXT_HINT = `Rich text allows only: ${RICH_TEXT_TAGS.join(', ')}; <a> may carry href and title.`

const ALLOWED_TAGS: ReadonlySet<string> = new Set(RICH_TEXT_TAGS)
const VOID_TAGS: ReadonlySet<string> = new Set(['br'])

const MAX_ISSUES_PER_FIELD = 20

const PARSER_OPTIONS = {
  decodeEntities: true,
  lowerCaseTags: true,
  lowerCaseAttributeNames: true,
} as const

// C0 controls other than tab/newline/carriage return have no place in content.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

function describeValue(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
}

// Values found clean, by their exact text. An edit validates the whole section, so a section's
// rich text was parsed again whenever any of its settings changed (agents change headings far more
// often than the text beside them): 7 µs of every bench:api batch. Only a clean verdict is kept (a
// value with problems is parsed again, so its issues carry the caller's path); bounded by total
// length, forgotten all at once when full.
const cleanValues = new Set<string>()
let cleanLength = 0
const CLEAN_LENGTH_MAX = 4_000_000

/** Every problem in a rich-text value; each issue carries `path` (the field) and an offset in the message. */
export function validateRichText(html: string, path: string): ValidationIssue[] {
  if (cleanValues.has(html)) return []
  const issues: ValidationIssue[] = []
  const overflow: ValidationIssue[] = []
  const report = (code: ValidationIssue['code'], message: string, hint?: string): void => {
    const found = issue(path, code, message, hint)
    if (issues.length < MAX_ISSUES_PER_FIELD) issues.push(found)
    else overflow.push(found)
  }

  let tag = ''
  let tagOffset = 0
  let attributes = new Set<string>()
  let depth = 0
  let reportedDepth = false
  let reportedControl = false

  const parser: Parser = new Parser(
    {
      onopentagname(name) {
        tag = name
        tagOffset = parser.startIndex
        attributes = new Set()
        if (!ALLOWED_TAGS.has(name)) {
          report('UNSAFE_CONTENT', `Tag <${name}> is not allowed in rich text (at offset ${tagOffset})`, RICH_TEXT_HINT)
        }
      },
      onattribute(name, value) {
        if (attributes.has(name)) {
          // Parsers disagree on which duplicate wins, so a duplicate can smuggle a second value.
          report('UNSAFE_CONTENT', `Duplicate attribute ${name} on <${tag}> (at offset ${tagOffset})`, RICH_TEXT_HINT)
        }
        attributes.add(name)
        if (name.startsWith('on')) {
          report(
            'UNSAFE_CONTENT',
            `Event handler attribute ${name} on <${tag}> is not allowed (at offset ${tagOffset})`,
            RICH_TEXT_HINT,
          )
          return
        }
        if (!ALLOWED_TAGS.has(tag)) return
        if (!(RICH_TEXT_ATTRIBUTES[tag] ?? []).includes(name)) {
          report(
            'UNSAFE_CONTENT',
            `Attribute ${name} is not allowed on <${tag}> (at offset ${tagOffset})`,
            RICH_TEXT_HINT,
          )
          return
        }
        if (name === 'href') {
          const problem = urlProblem(value, { allowContactSchemes: true })
          if (problem !== null) {
            report(
              problem.code,
              `Link href ${describeValue(value)} (at offset ${tagOffset}): ${problem.message}`,
              problem.hint,
            )
          }
        }
      },
      onopentag() {
        depth++
        if (depth > TEXT_LIMITS.richTextNestingDepth && !reportedDepth) {
          reportedDepth = true
          report(
            'VALIDATION_FAILED',
            `Rich text is nested more than ${TEXT_LIMITS.richTextNestingDepth} elements deep (at offset ${tagOffset})`,
          )
        }
      },
      onclosetag() {
        depth = Math.max(0, depth - 1)
      },
      ontext(text) {
        if (!reportedControl && CONTROL_CHARACTERS.test(text)) {
          reportedControl = true
          report('VALIDATION_FAILED', 'Rich text contains control characters (such as NUL)')
        }
      },
      oncomment() {
        report(
          'UNSAFE_CONTENT',
          `HTML comments are not allowed in rich text (at offset ${parser.startIndex})`,
          RICH_TEXT_HINT,
        )
      },
      oncdatastart() {
        report(
          'UNSAFE_CONTENT',
          `CDATA sections are not allowed in rich text (at offset ${parser.startIndex})`,
          RICH_TEXT_HINT,
        )
      },
      onprocessinginstruction(name) {
        report(
          'UNSAFE_CONTENT',
          `Declarations and processing instructions (<${name}…>) are not allowed in rich text (at offset ${parser.startIndex})`,
          RICH_TEXT_HINT,
        )
      },
    },
    { ...PARSER_OPTIONS, recognizeCDATA: true },
  )
  parser.end(html)

  if (overflow.length > 0) {
    issues.push(
      issue(path, errorCodeFor(overflow), `…and ${overflow.length} more problems in this rich text`, RICH_TEXT_HINT),
    )
  }
  if (issues.length === 0) {
    if (cleanLength + html.length > CLEAN_LENGTH_MAX) {
      cleanValues.clear()
      cleanLength = 0
    }
    cleanValues.add(html)
    cleanLength += html.length
  }
  return issues
}

/** A short description of the first HTML construct in a plain-text value (for example `<script>`), or null when there is none. */
export function findMarkup(text: string): string | null {
  // Every HTML construct starts with '<'; skipping the parse keeps plain text cheap.
  if (!text.includes('<')) return null
  let found: string | null = null
  const parser = new Parser(
    {
      onopentagname(name) {
        found ??= `<${name}>`
      },
      oncomment() {
        found ??= 'an HTML comment'
      },
      oncdatastart() {
        found ??= 'a CDATA section'
      },
      onprocessinginstruction(name) {
        found ??= `<${name}…>`
      },
    },
    { ...PARSER_OPTIONS, recognizeCDATA: true },
  )
  parser.end(text)
  return found
}

function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&gt;'))
}

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ATTRIBUTE_ESCAPES[ch] ?? ch)
}

function stripControls(text: string): string {
  return text.replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), '')
}

type Node = ReturnType<typeof parseDocument>['children'][number]
type TextNode = Extract<Node, { type: typeof ElementType.Text }>
type ElementNode = Extract<Node, { attribs: Record<string, string> }>

function isText(node: Node): node is TextNode {
  return node.type === ElementType.Text
}

// htmlparser2 gives <script> and <style> their own node types; they are elements all the same.
function isElement(node: Node): node is ElementNode {
  return node.type === ElementType.Tag || node.type === ElementType.Script || node.type === ElementType.Style
}

function serializeAttributes(name: string, attribs: Readonly<Record<string, string>>): string {
  let out = ''
  for (const attribute of RICH_TEXT_ATTRIBUTES[name] ?? []) {
    const value = attribs[attribute]
    if (value === undefined) continue
    if (attribute === 'href' && urlProblem(value, { allowContactSchemes: true }) !== null) continue
    out += ` ${attribute}="${escapeAttribute(stripControls(value))}"`
  }
  return out
}

/**
 * Render-time safety net: keeps only the allowlisted tags and attributes,
 * re-serialized from the parse tree with escaped text and attribute values.
 * Disallowed wrappers are unwrapped (their text survives); code-bearing
 * elements are removed with their content.
 */
export function sanitizeRichText(html: string): string {
  const document = parseDocument(html, PARSER_OPTIONS)
  let out = ''
  // Explicit stack instead of recursion: hostile input may nest arbitrarily deep.
  type Work = { node: Node; depth: number } | { close: string }
  const work: Work[] = []
  const pushChildren = (children: readonly Node[], depth: number): void => {
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i]
      if (child !== undefined) work.push({ node: child, depth })
    }
  }
  pushChildren(document.children, 0)
  while (work.length > 0) {
    const item = work.pop()
    if (item === undefined) break
    if ('close' in item) {
      out += item.close
      continue
    }
    const { node, depth } = item
    if (isText(node)) {
      out += escapeText(stripControls(node.data))
      continue
    }
    if (!isElement(node)) continue // comments, CDATA, declarations: dropped
    const name = node.name.toLowerCase()
    if (DROPPED_WITH_CONTENT.has(name)) continue
    if (!ALLOWED_TAGS.has(name) || depth >= TEXT_LIMITS.richTextNestingDepth) {
      pushChildren(node.children, depth)
      continue
    }
    out += `<${name}${serializeAttributes(name, node.attribs)}>`
    if (VOID_TAGS.has(name)) continue
    work.push({ close: `</${name}>` })
    pushChildren(node.children, depth + 1)
  }
  return out
}
