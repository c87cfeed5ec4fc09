// Which files a phone fetches for a page, read from the page as the storefront renders it: the
// linked stylesheets and icon, and for each image the file a 390 px wide screen picks (the first
// <picture> source that applies, then srcset against sizes, else src), so the measure follows the
// renderer when it adds formats and sizes. Lazy images count too: a shopper who scrolls gets them.
import { elementsOf, type El } from './html.ts'

export const PHONE_WIDTH = 390

type Candidate = { url: string; w: number | null; x: number }

function candidates(srcset: string): Candidate[] {
  return srcset
    .split(/,(?=\s*\S)/)
    .map((part) => part.trim().split(/\s+/))
    .filter((p) => p[0] !== undefined && p[0] !== '')
    .map(([url, descriptor]) => ({
      url: url!,
      w: descriptor?.endsWith('w') ? Number(descriptor.slice(0, -1)) : null,
      x: descriptor?.endsWith('x') ? Number(descriptor.slice(0, -1)) : 1,
    }))
}

/** A media condition of the simple kinds pages use: (max-width: Npx), (min-width: Npx), and/or them. */
function mediaMatches(media: string | undefined, width: number): boolean {
  if (media === undefined || media.trim() === '') return true
  return media.split(/\band\b/).every((part) => {
    const m = /(min|max)-width\s*:\s*(\d+(?:\.\d+)?)px/.exec(part)
    if (!m) return true
    return m[1] === 'min' ? width >= Number(m[2]) : width <= Number(m[2])
  })
}

/** The slot width in CSS px that `sizes` gives at this viewport width (100vw without it). */
function slotWidth(sizes: string | undefined, width: number): number {
  for (const entry of (sizes ?? '').split(',')) {
    const m = /^\s*(\(.*\))?\s*(\d+(?:\.\d+)?)(vw|px)\s*$/.exec(entry)
    if (!m || !mediaMatches(m[1], width)) continue
    return m[3] === 'vw' ? (Number(m[2]) * width) / 100 : Number(m[2])
  }
  return width
}

function pick(srcset: string, sizes: string | undefined, width: number): string | null {
  const list = candidates(srcset)
  if (list.length === 0) return null
  const wide = list.filter((c) => c.w !== null).sort((a, b) => a.w! - b.w!)
  if (wide.length > 0) {
    const slot = slotWidth(sizes, width)
    return (wide.find((c) => c.w! >= slot) ?? wide.at(-1)!).url
  }
  return (list.find((c) => c.x === 1) ?? list[0]!).url
}

/** The image files a screen this wide loads for the page, each once. */
export function imagesFor(root: El, width = PHONE_WIDTH): string[] {
  const urls = new Set<string>()
  for (const el of elementsOf(root)) {
    if (el.tag !== 'img') continue
    let chosen: string | null = null
    if (el.parent?.tag === 'picture')
      for (const source of el.parent.children) {
        if (source.tag !== 'source' || source.attrs.srcset === undefined) continue
        if (!mediaMatches(source.attrs.media, width)) continue
        chosen = pick(source.attrs.srcset, source.attrs.sizes ?? el.attrs.sizes, width)
        if (chosen !== null) break
      }
    chosen ??= el.attrs.srcset !== undefined ? pick(el.attrs.srcset, el.attrs.sizes, width) : null
    chosen ??= el.attrs.src ?? null
    if (chosen !== null && chosen !== '') urls.add(chosen)
  }
  return [...urls]
}

/** Stylesheets and icons the page links. */
export function linkedAssets(root: El): string[] {
  const urls = new Set<string>()
  for (const el of elementsOf(root))
    if (el.tag === 'link' && el.attrs.href && /\b(stylesheet|icon)\b/.test(el.attrs.rel ?? '')) urls.add(el.attrs.href)
  return [...urls]
}
