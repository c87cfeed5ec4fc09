// The storefront's HTML as the checks read it: a small element tree (htmlparser2 parses) and the
// few CSS selectors the paint model (contrast/paint.ts) is written in: tag, .class, [attr],
// [attr="v"], :not(compound), and the descendant, child (>) and next-sibling (+) combinators.
import { ElementType, parseDocument } from 'htmlparser2'

export type El = {
  tag: string
  attrs: Readonly<Record<string, string>>
  classes: ReadonlySet<string>
  parent: El | null
  /** The previous element sibling. */
  prev: El | null
  children: El[]
  /** The text directly inside this element (not its children's), whitespace collapsed. */
  ownText: string
}

type Node = ReturnType<typeof parseDocument>['children'][number]

export function parseHtml(html: string): El {
  const document = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true })
  const root: El = { tag: '#root', attrs: {}, classes: new Set(), parent: null, prev: null, children: [], ownText: '' }
  const work: { node: Node; parent: El }[] = document.children.map((node) => ({ node, parent: root })).reverse()
  while (work.length > 0) {
    const { node, parent } = work.pop()!
    if (node.type === ElementType.Text) {
      const text = node.data.replace(/\s+/g, ' ')
      if (text.trim() !== '') parent.ownText = `${parent.ownText}${text}`
      continue
    }
    if (node.type !== ElementType.Tag || !('attribs' in node)) continue
    const el: El = {
      tag: node.name,
      attrs: node.attribs,
      classes: new Set((node.attribs.class ?? '').split(/\s+/).filter((c) => c !== '')),
      parent,
      prev: parent.children.at(-1) ?? null,
      children: [],
      ownText: '',
    }
    parent.children.push(el)
    for (let i = node.children.length - 1; i >= 0; i--) work.push({ node: node.children[i]!, parent: el })
  }
  return root
}

/** Every element under `root`, in document order. */
export function* elementsOf(root: El): Generator<El> {
  const stack = [...root.children].reverse()
  while (stack.length > 0) {
    const el = stack.pop()!
    yield el
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]!)
  }
}

// A page's section wrappers (<div class="sf-section" data-section-id>), found once per parsed page.
const wrappersOf = new WeakMap<El, ReadonlyMap<string, El>>()

/** The storefront's section wrappers of a page, by section id. */
export function sectionWrappers(root: El): ReadonlyMap<string, El> {
  let found = wrappersOf.get(root)
  if (!found) {
    const map = new Map<string, El>()
    for (const el of elementsOf(root))
      if (el.classes.has('sf-section') && el.attrs['data-section-id'] !== undefined)
        map.set(el.attrs['data-section-id'], el)
    wrappersOf.set(root, (found = map))
  }
  return found
}

export function textOf(el: El): string {
  let text = el.ownText
  for (const child of el.children) text += ` ${textOf(child)}`
  return text.replace(/\s+/g, ' ').trim()
}

export const closest = (el: El, test: (e: El) => boolean): El | null => {
  for (let at: El | null = el; at !== null; at = at.parent) if (test(at)) return at
  return null
}

// --- selectors ---

export type Compound = {
  tag: string | null
  classes: string[]
  attrs: { name: string; value: string | null }[]
  not: Compound[]
}
export type Step = { compound: Compound; combinator: ' ' | '>' | '+' | null }
/** One selector of a list, its compounds right to left, each with the combinator to the one before. */
export type Selector = Step[][]

const COMPOUND = /^([a-z][a-z0-9]*|\*)?((?:\.[\w-]+|\[[\w-]+(?:="[^"]*")?\]|:not\([^)]*\))*)$/

function compound(text: string): Compound {
  const m = COMPOUND.exec(text)
  if (!m) throw new Error(`unsupported selector: ${text}`)
  const parts = m[2]!.match(/\.[\w-]+|\[[\w-]+(?:="[^"]*")?\]|:not\([^)]*\)/g) ?? []
  const out: Compound = { tag: m[1] && m[1] !== '*' ? m[1] : null, classes: [], attrs: [], not: [] }
  for (const part of parts) {
    if (part.startsWith('.')) out.classes.push(part.slice(1))
    else if (part.startsWith('[')) {
      const [, name, value] = /^\[([\w-]+)(?:="([^"]*)")?\]$/.exec(part)!
      out.attrs.push({ name: name!, value: value ?? null })
    } else out.not.push(compound(part.slice(5, -1)))
  }
  return out
}

export function selector(text: string): Selector {
  return text.split(',').map((one) => {
    const tokens = one
      .trim()
      .replace(/\s*([>+])\s*/g, ' $1 ')
      .split(/\s+/)
    const steps: Step[] = []
    let combinator: Step['combinator'] = null
    for (const token of tokens) {
      if (token === '>' || token === '+') {
        combinator = token
        continue
      }
      steps.push({ compound: compound(token), combinator: steps.length === 0 ? null : (combinator ?? ' ') })
      combinator = null
    }
    return steps.reverse()
  })
}

function matchesCompound(el: El, c: Compound): boolean {
  if (c.tag !== null && el.tag !== c.tag) return false
  for (const cls of c.classes) if (!el.classes.has(cls)) return false
  for (const a of c.attrs) {
    const value = el.attrs[a.name]
    if (value === undefined || (a.value !== null && value !== a.value)) return false
  }
  return c.not.every((n) => !matchesCompound(el, n))
}

function matchesFrom(el: El, steps: Step[], i: number): boolean {
  const step = steps[i]!
  if (!matchesCompound(el, step.compound)) return false
  if (i === steps.length - 1) return true
  // A step's combinator relates it to the step on its left (the next one here).
  switch (step.combinator) {
    case '>':
      return el.parent !== null && matchesFrom(el.parent, steps, i + 1)
    case '+':
      return el.prev !== null && matchesFrom(el.prev, steps, i + 1)
    default:
      for (let at = el.parent; at !== null; at = at.parent) if (matchesFrom(at, steps, i + 1)) return true
      return false
  }
}

export const matches = (el: El, sel: Selector): boolean => sel.some((steps) => matchesFrom(el, steps, 0))
