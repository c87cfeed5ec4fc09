// Rule `contrast-over-image`: the white text of a hero or image banner with an image, judged
// against the overlay (black at the section's overlayOpacity) composited over the image where
// the text sits. Where it sits follows the stylesheet (src/render/stylesheet.css): the section's
// height, the content's width and alignment in the page container, each text's size and line
// height, the buttons' row, the block centred in the box, the image cropped to cover the box; at
// a phone's (390 px) and a laptop's (1280 px) width. Text widths are estimated from their length
// (half an em per character), as no font is measured here.
//
// The image is judged by the mean colour of each part of the text's region (the cells of the
// image's grid, about 1/32 of its width and height), at the lightest part: the mean of the whole
// region hides the light stretch behind a few words, and those words are the ones nobody reads.
import { AA_LARGE, AA_NORMAL, contrastRatio, formatRatio, over, toHex, type Rgb } from '../../theme/color.ts'
import type { Found } from '../finding.ts'
import { elementsOf, sectionWrappers, textOf, type El } from '../html.ts'
import { cellsUnder, type ImageGrid, type Region } from '../image-grid.ts'
import type { RenderedPage } from '../input.ts'
import { RULES } from '../rules.ts'

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const

type Kind = 'hero' | 'banner'
const clamp = (min: number, preferred: number, max: number) => Math.max(min, Math.min(preferred, max))

// min-height of the section by its height class (.h-*, .banner.h-*, the ≤640 px media query).
function minHeight(kind: Kind, height: string, vw: number, vh: number): number {
  const phone = vw <= 640
  if (kind === 'banner') return { small: 260, medium: 380, large: 520 }[height] ?? 380
  if (height === 'small') return 320
  if (height === 'medium') return phone ? 380 : 440
  if (height === 'full') return phone ? 480 : vh - 68
  return phone ? 480 : 580
}

type Text = { name: string; large: boolean; opacity: number }
type Placed = { text: Text | null; box: Region }

/** The texts of the section laid out in its box; `text` null for solid buttons (judged on their own fill). */
function layout(
  section: El,
  kind: Kind,
  alignment: string,
  vw: number,
  vh: number,
): { placed: Placed[]; boxH: number } {
  const gutter = clamp(16, vw * 0.04, 40)
  const container = Math.min(vw, 1240)
  const inner = container - 2 * gutter
  const contentW = Math.min(inner, kind === 'hero' ? 760 : 680)
  const contentX =
    (vw - container) / 2 +
    gutter +
    (alignment === 'left' ? 0 : alignment === 'right' ? inner - contentW : (inner - contentW) / 2)
  const along = (width: number, x0 = contentX, span = contentW) =>
    alignment === 'left' ? x0 : alignment === 'right' ? x0 + span - width : x0 + (span - width) / 2
  const rows: { h: number; items: { x: number; w: number; y: number; h: number; text: Text | null }[] }[] = []
  const textRows = (content: string, size: number, lineHeight: number, maxW: number, text: Text, after: number) => {
    const lines = Math.max(1, Math.ceil((content.length * 0.5 * size) / maxW))
    const w = Math.min(maxW, content.length * 0.5 * size)
    const box = along(maxW)
    for (let i = 0; i < lines; i++)
      rows.push({ h: size * lineHeight, items: [{ x: along(w, box, maxW), w, y: 0, h: size * lineHeight, text }] })
    rows.at(-1)!.h += after
  }
  for (const el of elementsOf(section)) {
    const content = textOf(el)
    if ((el.tag === 'h1' || el.tag === 'h2') && content !== '') {
      const size =
        kind === 'hero'
          ? clamp(36, vw * 0.055, 68)
          : el.tag === 'h1'
            ? clamp(32, vw * 0.045, 56)
            : clamp(24, vw * 0.03, 36)
      textRows(
        content,
        size,
        1.15,
        contentW,
        { name: 'The heading', large: true, opacity: 1 },
        size * (kind === 'hero' ? 0.35 : 0.5),
      )
    } else if (el.tag === 'p' && content !== '') {
      const size = kind === 'hero' ? clamp(16.8, vw * 0.016, 20.8) : 18
      const maxW = kind === 'hero' ? Math.min(contentW, 640) : contentW
      const text = {
        name: kind === 'hero' ? 'The subheading' : 'The text',
        large: false,
        opacity: kind === 'hero' ? 0.92 : 1,
      }
      textRows(content, size, 1.6, maxW, text, size)
    } else if (el.classes.has('buttons')) {
      // A wrapping row of 48 px buttons, 28 px below the text, 12 px apart.
      let row: (typeof rows)[number] = { h: 48, items: [] }
      let used = 0
      const flush = () => {
        const shift = along(used) - contentX
        for (const item of row.items) item.x += shift
        rows.push(row)
      }
      rows.push({ h: 28, items: [] })
      for (const a of el.children) {
        const w = textOf(a).length * 0.55 * 16 + 56
        if (row.items.length > 0 && used + 12 + w > contentW) {
          flush()
          rows.push({ h: 12, items: [] })
          row = { h: 48, items: [] }
          used = 0
        }
        const x = contentX + (row.items.length > 0 ? used + 12 : 0)
        const outline = a.classes.has('btn-outline')
        row.items.push({
          x,
          w,
          y: 0,
          h: 48,
          text: outline ? { name: 'The outline button', large: false, opacity: 1 } : null,
        })
        used = x - contentX + w
      }
      if (row.items.length > 0) flush()
    }
  }
  const blockH = rows.reduce((sum, r) => sum + r.h, 0)
  const boxH = Math.max(minHeight(kind, classValue(section, 'h-') ?? 'medium', vw, vh), blockH + 112)
  let y = (boxH - blockH) / 2
  const placed: Placed[] = []
  for (const row of rows) {
    for (const item of row.items)
      placed.push({ text: item.text, box: { x0: item.x, x1: item.x + item.w, y0: y, y1: y + item.h } })
    y += row.h
  }
  return { placed, boxH }
}

/** A box in CSS pixels to fractions of the image, which covers the section (object-fit: cover, centred). */
function inImage(grid: ImageGrid, vw: number, boxH: number, box: Region): Region {
  const scale = Math.max(vw / grid.width, boxH / grid.height)
  const left = (grid.width * scale - vw) / 2
  const top = (grid.height * scale - boxH) / 2
  const w = grid.width * scale
  const h = grid.height * scale
  return { x0: (left + box.x0) / w, x1: (left + box.x1) / w, y0: (top + box.y0) / h, y1: (top + box.y1) / h }
}

const classValue = (el: El, prefix: string): string | undefined => {
  for (const e of [el, ...elementsOf(el)])
    for (const c of e.classes) if (c.startsWith(prefix) && c !== prefix) return c.slice(prefix.length)
  return undefined
}

const WHITE: Rgb = [255, 255, 255]
const BLACK: Rgb = [0, 0, 0]
const needed = (t: Text) => (t.large ? AA_LARGE : AA_NORMAL)

type Worst = { text: Text; ratio: number; ground: Rgb }

/** The weakest text of the section at this overlay, over both viewports; null when every text reads. */
function weakest(grid: ImageGrid, kind: Kind, section: El, overlay: number): Worst | null {
  const alignment = classValue(section, 'align-') ?? 'center'
  let worst: Worst | null = null
  for (const { width, height } of VIEWPORTS) {
    const { placed, boxH } = layout(section, kind, alignment, width, height)
    for (const { text, box } of placed) {
      if (text === null) continue
      for (const cell of cellsUnder(grid, inImage(grid, width, boxH, box))) {
        const ground = over(BLACK, overlay / 100, cell)
        const ratio = contrastRatio(over(WHITE, text.opacity, ground), ground)
        if (ratio < needed(text) && (worst === null || ratio / needed(text) < worst.ratio / needed(worst.text)))
          worst = { text, ratio, ground }
      }
    }
  }
  return worst
}

/** The hero or banner of a section wrapper whose text lies over an image, with the image's URL. */
export function overlaidImage(wrapper: El): { section: El; kind: Kind; src: string } | null {
  const section = wrapper.children.find((c) => c.classes.has('has-image') || c.classes.has('banner'))
  if (!section) return null
  const src = [...elementsOf(section)].find((e) => e.tag === 'img')?.attrs.src
  if (src === undefined) return null
  return { section, kind: section.classes.has('hero') ? 'hero' : 'banner', src }
}

export function overImageFindings(
  pages: readonly RenderedPage[],
  images: ReadonlyMap<string, ImageGrid | null>,
): Found[] {
  const found = new Map<string, Found>()
  for (const page of pages) {
    for (const [sectionId, wrapper] of sectionWrappers(page.root)) {
      if (found.has(sectionId)) continue
      const overlaid = overlaidImage(wrapper)
      if (!overlaid) continue
      const { section, kind, src } = overlaid
      const grid = images.get(src)
      if (!grid) continue
      const overlay = Number(classValue(section, 'u-ov') ?? 30)
      const worst = weakest(grid, kind, section, overlay)
      if (worst === null) continue
      let enough: number | null = null
      for (let candidate = overlay + 5; candidate <= 80 && enough === null; candidate += 5)
        if (weakest(grid, kind, section, candidate) === null) enough = candidate
      found.set(sectionId, {
        rule: 'contrast-over-image',
        severity: RULES['contrast-over-image'].severity,
        template: page.place,
        sectionId,
        setting: 'overlayOpacity',
        message: `${worst.text.name} is white over a light part of the image: ${formatRatio(worst.ratio)} against about ${toHex(worst.ground)} (the image under the ${overlay} % overlay); WCAG AA needs ${worst.text.large ? '3:1 for large text' : '4.5:1'}.`,
        fix:
          enough === null
            ? 'Choose a darker image, or move the text (alignment) over a darker part of it; even the strongest overlay (80) is not enough.'
            : `Raise overlayOpacity to ${enough} or more (now ${overlay}), or choose a darker image.`,
      })
    }
  }
  return [...found.values()]
}
