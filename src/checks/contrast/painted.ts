// Every piece of text on a rendered page with the colours the paint model gives it: its colour,
// what is behind it, its opacity and whether it is large. Computed top-down, as the cascade
// inherits: colour, size and name pass to children, a background shows through until a child
// paints its own, opacity multiplies.
import { closest, matches as matchesRule, type El } from '../html.ts'
import { PAINT, type Backdrop, type Paint } from './paint.ts'

export type PaintedText = {
  el: El
  /** Text (4.5:1, or 3:1 when large), or what identifies a control: a border, the focus outline (3:1). */
  kind: 'text' | 'control'
  /** The section the text belongs to (its data-section-id), or null for the page frame. */
  sectionId: string | null
  name: string
  color: Paint
  backdrop: Backdrop
  opacity: number
  large: boolean
}

type Style = {
  color: Paint
  backdrop: Backdrop
  opacity: number
  large: boolean
  name: string
  hidden: boolean
  control?: { border: Paint; name: string } | undefined
  focus: Paint
}

const ROOT: Style = {
  color: 'text',
  backdrop: 'bg',
  opacity: 1,
  large: false,
  name: 'Text',
  hidden: false,
  focus: 'focus',
}

// The rules each element could match, found by the class or tag the rule's rightmost part needs:
// most elements are tested against a handful of rules instead of all of them.
const byKey = new Map<string, number[]>()
PAINT.forEach((rule, index) => {
  for (const steps of rule.sel) {
    const last = steps[0]!.compound
    const key = last.classes[0] !== undefined ? `.${last.classes[0]}` : (last.tag ?? '*')
    const list = byKey.get(key) ?? []
    if (list.at(-1) !== index) list.push(index)
    byKey.set(key, list)
  }
})

function candidates(el: El): number[] {
  const found = new Set<number>([...(byKey.get(el.tag) ?? []), ...(byKey.get('*') ?? [])])
  for (const cls of el.classes) for (const i of byKey.get(`.${cls}`) ?? []) found.add(i)
  return [...found].sort((a, b) => a - b)
}

function styleOf(el: El, parent: Style): Style {
  const style: Style = { ...parent, control: undefined }
  for (const index of candidates(el)) {
    const rule = PAINT[index]!
    if (!matchesRule(el, rule.sel)) continue
    if (rule.color !== undefined) style.color = rule.color
    if (rule.background !== undefined) style.backdrop = rule.background
    if (rule.opacity !== undefined) style.opacity = parent.opacity * rule.opacity
    if (rule.large !== undefined) style.large = rule.large
    if (rule.name !== undefined) style.name = rule.name
    if (rule.hidden) style.hidden = true
    if (rule.control !== undefined) style.control = rule.control
    if (rule.focus !== undefined) style.focus = rule.focus
  }
  return style
}

const focusable = (el: El): boolean =>
  el.attrs.disabled === undefined &&
  ((el.tag === 'a' && el.attrs.href !== undefined) ||
    el.tag === 'button' ||
    el.tag === 'select' ||
    el.tag === 'summary' ||
    (el.tag === 'input' && el.attrs.type !== 'hidden'))

const sectionOf = (el: El): string | null =>
  closest(el, (e) => e.classes.has('sf-section'))?.attrs['data-section-id'] ?? null

// Per parsed page (checker.ts keeps a page's tree while its HTML does not change).
const painted = new WeakMap<El, PaintedText[]>()

export function paintedTexts(root: El): PaintedText[] {
  const known = painted.get(root)
  if (known) return known
  const out: PaintedText[] = []
  const work: { el: El; parent: Style }[] = root.children.map((el) => ({ el, parent: ROOT })).reverse()
  while (work.length > 0) {
    const { el, parent } = work.pop()!
    const style = styleOf(el, parent)
    if (style.hidden) continue
    if (el.ownText.trim() !== '')
      out.push({
        el,
        kind: 'text',
        sectionId: sectionOf(el),
        name: style.name,
        color: style.color,
        backdrop: style.backdrop,
        opacity: style.opacity,
        large: style.large,
      })
    // A control's border and the focus outline are drawn against what is around the element.
    const mark = (name: string, color: Paint) =>
      out.push({
        el,
        kind: 'control',
        sectionId: sectionOf(el),
        name,
        color,
        backdrop: parent.backdrop,
        opacity: 1,
        large: true,
      })
    if (style.control) mark(style.control.name, style.control.border)
    if (focusable(el)) mark('Focus outline', style.focus)
    for (let i = el.children.length - 1; i >= 0; i--) work.push({ el: el.children[i]!, parent: style })
  }
  painted.set(root, out)
  return out
}
