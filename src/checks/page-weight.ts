// Rule `page-weight`: what a phone downloads for each template and page (measured by checker.ts
// from the storefront's own rendering: the HTML as sent, the stylesheet, the images at the size a
// 390 px wide screen is given) against 800 KB.
import type { Found } from './finding.ts'
import type { RenderedPage } from './input.ts'
import { PAGE_WEIGHT_LIMIT_BYTES, RULES } from './rules.ts'

const kb = (bytes: number) => `${Math.round(bytes / 1000)} KB`

export function pageWeightFindings(pages: readonly RenderedPage[]): Found[] {
  const out: Found[] = []
  for (const page of pages) {
    const w = page.weight
    const total = w.htmlBytes + w.assetBytes + w.imageBytes
    if (total <= PAGE_WEIGHT_LIMIT_BYTES) continue
    const heaviest = w.heaviest.map((i) => `${i.url} (${kb(i.bytes)})`).join(', ')
    out.push({
      rule: 'page-weight',
      severity: RULES['page-weight'].severity,
      template: page.place,
      message: `${page.subject ? `${page.subject}: ` : ''}a phone downloads ${kb(total)} (HTML ${kb(w.htmlBytes)}, CSS ${kb(w.assetBytes)}, ${w.images} images ${kb(w.imageBytes)}); more than ${kb(PAGE_WEIGHT_LIMIT_BYTES)} is slow on mobile data.${w.unknownImages.length > 0 ? ` ${w.unknownImages.length} image(s) from other sites are not counted.` : ''}`,
      fix: `Use fewer or lighter images, or fewer sections. The heaviest: ${heaviest || 'none'}.`,
    })
  }
  return out
}
