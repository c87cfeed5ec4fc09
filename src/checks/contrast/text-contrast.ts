// Rule `contrast`: every text the storefront draws for the theme on a solid background (or the
// hero's gradient, judged at both ends) reaches WCAG 2.2 AA, and so do the borders of form controls
// and the focus outline (3:1, WCAG 1.4.11). One finding per section (or the page frame) and kind of
// text or control, with the worst ratio found and a token value that would pass.
import { AA_LARGE, AA_NORMAL, contrastRatio, formatRatio, over, parseHex, toHex, type Rgb } from '../../theme/color.ts'
import { themePalette, type Palette } from '../../theme/palette.ts'
import type { ThemeTokens } from '../../theme/document.ts'
import type { Found } from '../finding.ts'
import type { RenderedPage } from '../input.ts'
import { RULES } from '../rules.ts'
import type { Backdrop, Paint } from './paint.ts'
import { paintedTexts, type PaintedText } from './painted.ts'

type Token = 'primaryColor' | 'secondaryColor' | 'theme'

const resolve = (paint: Paint, palette: Palette): Rgb =>
  parseHex(paint.startsWith('#') ? paint : palette[paint as keyof Palette])

/** The worst ratio of a text over its backdrop (both ends of a gradient); null for an image. */
export function ratioOf(text: Pick<PaintedText, 'color' | 'backdrop' | 'opacity'>, palette: Palette): number | null {
  const backdrop: Backdrop = text.backdrop
  if (backdrop === 'image') return null
  const grounds = typeof backdrop === 'object' ? backdrop.gradient : [backdrop]
  const fg = resolve(text.color, palette)
  let worst = Number.POSITIVE_INFINITY
  for (const ground of grounds) {
    const bg = resolve(ground, palette)
    worst = Math.min(worst, contrastRatio(over(fg, text.opacity, bg), bg))
  }
  return worst
}

const PRIMARY_ROLES = new Set(['primary', 'onPrimary', 'primaryInk', 'surface', 'tint', 'tintStrong', 'heroEnd'])
const SECONDARY_ROLES = new Set(['secondary', 'onSecondary', 'focus'])

/** The token whose value decides a pair: a primary fill, a secondary fill, or the preset's colours. */
function tokenOf(text: PaintedText): Token {
  const roles = [text.color, ...(typeof text.backdrop === 'object' ? text.backdrop.gradient : [text.backdrop])]
  if (roles.some((r) => PRIMARY_ROLES.has(r))) return 'primaryColor'
  if (roles.some((r) => SECONDARY_ROLES.has(r))) return 'secondaryColor'
  return 'theme'
}

const darker = (c: Rgb, step: number): Rgb => [c[0] * 0.9 ** step, c[1] * 0.9 ** step, c[2] * 0.9 ** step]
const lighter = (c: Rgb, step: number): Rgb => [
  c[0] + (255 - c[0]) * (1 - 0.88 ** step),
  c[1] + (255 - c[1]) * (1 - 0.88 ** step),
  c[2] + (255 - c[2]) * (1 - 0.88 ** step),
]

/** The nearest value of the token (darker or lighter) at which the text passes. */
function suggestion(text: PaintedText, tokens: ThemeTokens, token: 'primaryColor' | 'secondaryColor'): string | null {
  const start = parseHex(tokens[token])
  const needed = text.large ? AA_LARGE : AA_NORMAL
  for (let step = 1; step <= 20; step++)
    for (const candidate of [toHex(darker(start, step)), toHex(lighter(start, step))]) {
      const palette = themePalette({
        preset: tokens.theme,
        primaryColor: token === 'primaryColor' ? candidate : tokens.primaryColor,
        secondaryColor: token === 'secondaryColor' ? candidate : tokens.secondaryColor,
      })
      if ((ratioOf(text, palette) ?? 0) >= needed) return candidate
    }
  return null
}

function fixFor(text: PaintedText, tokens: ThemeTokens, token: Token): string {
  const alternative =
    text.name === 'Announcement bar text'
      ? ' Or set the bar’s colorScheme to one that reads (contrast always does).'
      : ''
  if (token === 'theme')
    return `Choose another preset (theme.theme) or report this: the preset’s own colours should always read.${alternative}`
  const value = suggestion(text, tokens, token)
  const name = token === 'primaryColor' ? 'primary' : 'secondary'
  return value
    ? `Change the ${name} colour (theme.${token}), for example to ${value}; the storefront then picks a text colour that reads on it.${alternative}`
    : `Choose a much darker or lighter ${name} colour (theme.${token}).${alternative}`
}

export function contrastFindings(pages: readonly RenderedPage[], tokens: ThemeTokens): Found[] {
  const palette = themePalette({
    preset: tokens.theme,
    primaryColor: tokens.primaryColor,
    secondaryColor: tokens.secondaryColor,
  })
  const worst = new Map<string, { found: Found; ratio: number }>()
  for (const page of pages) {
    for (const text of paintedTexts(page.root)) {
      const ratio = ratioOf(text, palette)
      if (ratio === null) continue
      const needed = text.large ? AA_LARGE : AA_NORMAL
      if (ratio >= needed) continue
      const token = tokenOf(text)
      const place = text.sectionId === null ? 'theme' : page.place
      const subject = `${text.kind}|${text.name}|${text.color}|${JSON.stringify(text.backdrop)}`
      const key = `${place}|${text.sectionId ?? ''}|${subject}`
      const known = worst.get(key)
      if (known && known.ratio <= ratio) continue
      const fg = resolve(text.color, palette)
      const ground =
        typeof text.backdrop === 'object' ? 'its gradient' : toHex(resolve(text.backdrop as Paint, palette))
      worst.set(key, {
        ratio,
        found: {
          rule: 'contrast',
          severity: RULES.contrast.severity,
          template: place,
          ...(text.sectionId !== null ? { sectionId: text.sectionId } : {}),
          setting: `theme.${token}`,
          message: `${text.name} (${toHex(fg)} on ${ground}) has a contrast of ${formatRatio(ratio)}; WCAG AA needs ${text.kind === 'control' ? '3:1 for what shows a control' : text.large ? '3:1 for large text' : '4.5:1'}.`,
          fix: fixFor(text, tokens, token),
          subject,
        },
      })
    }
  }
  return [...worst.values()].map((w) => w.found)
}
