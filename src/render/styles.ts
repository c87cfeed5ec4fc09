// Styles. The base stylesheet is a served file (same origin, cached forever under a content
// hash); each page adds one small <style> element with the theme's tokens and a few
// per-section values (spacer heights, overlay opacity, which variant price shows). That CSS
// is built only from validated values (hex colors, a font from the enum, integers, classes
// made here), and the page's Content-Security-Policy allows exactly its sha256 hash, so no
// inline style can run that the service did not write, and no style attribute ever applies.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { FONTS, type Font, type ThemePreset } from '../theme/constants.ts'
import { themePalette } from '../theme/palette.ts'
import { styleElement, type Html } from '../web/html.ts'
import type { Tokens } from './document.ts'

export { textOn } from '../theme/palette.ts'

export const STYLESHEET: string = readFileSync(new URL('./stylesheet.css', import.meta.url), 'utf8')
export const STYLESHEET_HASH: string = createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 16)
export const STYLESHEET_PATH = `/storefront-assets/storefront.${STYLESHEET_HASH}.css`

const SANS = "ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif"
const SERIF = "ui-serif,Georgia,Cambria,'Times New Roman',Times,serif"

// No web font is downloaded (no third-party requests): a named font is used when the
// visitor has it installed, otherwise the closest system family.
const FONT_STACKS: Readonly<Record<Font, string>> = {
  Inter: `Inter,${SANS}`,
  Roboto: `Roboto,${SANS}`,
  'Open Sans': `'Open Sans',${SANS}`,
  Lato: `Lato,${SANS}`,
  Montserrat: `Montserrat,${SANS}`,
  Poppins: `Poppins,${SANS}`,
  'Playfair Display': `'Playfair Display',${SERIF}`,
  Merriweather: `Merriweather,${SERIF}`,
  'Source Serif 4': `'Source Serif 4','Source Serif Pro',${SERIF}`,
  'system-ui': SANS,
}

type PresetVars = {
  radius: string
  radiusSm: string
  radiusLg: string
  btnRadius: string
  headingWeight: string
  headingTracking: string
  headingCase: string
  btnTracking: string
  btnCase: string
  sectionY: string
  gridGap: string
  serifHeadings: boolean
}

const PRESETS: Readonly<Record<ThemePreset, PresetVars>> = {
  modern: {
    radius: '14px',
    radiusSm: '10px',
    radiusLg: '24px',
    btnRadius: '999px',
    headingWeight: '700',
    headingTracking: '-0.02em',
    headingCase: 'none',
    btnTracking: '0',
    btnCase: 'none',
    sectionY: 'clamp(48px,7vw,96px)',
    gridGap: 'clamp(14px,2.4vw,28px)',
    serifHeadings: false,
  },
  classic: {
    radius: '4px',
    radiusSm: '3px',
    radiusLg: '6px',
    btnRadius: '3px',
    headingWeight: '600',
    headingTracking: '0',
    headingCase: 'none',
    btnTracking: '0.04em',
    btnCase: 'uppercase',
    sectionY: 'clamp(48px,7vw,88px)',
    gridGap: 'clamp(14px,2.4vw,28px)',
    serifHeadings: true,
  },
  minimal: {
    radius: '0px',
    radiusSm: '0px',
    radiusLg: '0px',
    btnRadius: '0px',
    headingWeight: '500',
    headingTracking: '-0.01em',
    headingCase: 'none',
    btnTracking: '0.12em',
    btnCase: 'uppercase',
    sectionY: 'clamp(56px,9vw,120px)',
    gridGap: 'clamp(16px,3vw,40px)',
    serifHeadings: false,
  },
  bold: {
    radius: '6px',
    radiusSm: '4px',
    radiusLg: '10px',
    btnRadius: '6px',
    headingWeight: '800',
    headingTracking: '-0.03em',
    headingCase: 'none',
    btnTracking: '0.02em',
    btnCase: 'uppercase',
    sectionY: 'clamp(48px,7vw,96px)',
    gridGap: 'clamp(16px,2.6vw,32px)',
    serifHeadings: false,
  },
  playful: {
    radius: '22px',
    radiusSm: '14px',
    radiusLg: '32px',
    btnRadius: '999px',
    headingWeight: '800',
    headingTracking: '-0.01em',
    headingCase: 'none',
    btnTracking: '0',
    btnCase: 'none',
    sectionY: 'clamp(48px,7vw,96px)',
    gridGap: 'clamp(14px,2.4vw,28px)',
    serifHeadings: false,
  },
}

/** Collects the page's few dynamic rules; every value is a number or a class made here. */
export class PageStyles {
  private readonly rules = new Map<string, string>()

  /** A class giving a fixed height in px (spacer). */
  height(px: number): string {
    const value = Math.max(0, Math.min(400, Math.round(px)))
    const name = `u-h${value}`
    this.rules.set(name, `.${name}{height:${value}px}`)
    return name
  }

  /** A class setting the image overlay darkness (0-80 %). */
  overlay(percent: number): string {
    const value = Math.max(0, Math.min(80, Math.round(percent)))
    const name = `u-ov${value}`
    this.rules.set(name, `.${name}{--overlay:${(value / 100).toFixed(2)}}`)
    return name
  }

  /** Shows the price and stock line of the checked variant (no script: CSS :has). */
  variantSwitch(scope: string, count: number): void {
    if (!/^[a-z0-9-]+$/.test(scope)) return
    for (let i = 0; i < Math.min(count, 100); i++) {
      this.rules.set(`${scope}-${i}`, `.${scope}:has(#${scope}-v${i}:checked) .${scope}-p${i}{display:flex}`)
    }
  }

  css(): string {
    return [...this.rules.values()].join('')
  }
}

export function tokenCss(tokens: Tokens): string {
  const preset = PRESETS[tokens.preset] ?? PRESETS.modern
  // Every colour comes computed from the tokens (src/theme/palette.ts): the theme checks judge
  // the same values the page gets.
  const colors = themePalette({
    preset: tokens.preset,
    primaryColor: tokens.primaryColor,
    secondaryColor: tokens.secondaryColor,
  })
  const font = FONTS.includes(tokens.font) ? FONT_STACKS[tokens.font] : FONT_STACKS.Inter
  const headingFont = preset.serifHeadings && !font.includes(SERIF) ? `Georgia,${SERIF}` : font
  const vars: Record<string, string> = {
    '--primary': colors.primary,
    '--on-primary': colors.onPrimary,
    '--primary-ink': colors.primaryInk,
    '--secondary': colors.secondary,
    '--on-secondary': colors.onSecondary,
    '--hero-end': colors.heroEnd,
    '--bg': colors.bg,
    '--text': colors.text,
    '--muted': colors.muted,
    '--border': colors.border,
    '--control': colors.control,
    '--surface': colors.surface,
    '--tint': colors.tint,
    '--tint-strong': colors.tintStrong,
    '--focus': colors.focus,
    '--footer-bg': colors.footerBg,
    '--footer-text': colors.footerText,
    '--font': font,
    '--heading-font': headingFont,
    '--heading-weight': preset.headingWeight,
    '--heading-tracking': preset.headingTracking,
    '--heading-case': preset.headingCase,
    '--btn-tracking': preset.btnTracking,
    '--btn-case': preset.btnCase,
    '--radius': preset.radius,
    '--radius-sm': preset.radiusSm,
    '--radius-lg': preset.radiusLg,
    '--btn-radius': preset.btnRadius,
    '--section-y': preset.sectionY,
    '--grid-gap': preset.gridGap,
    '--gutter': 'clamp(16px,4vw,40px)',
    '--maxw': '1240px',
  }
  return `:root{${Object.entries(vars)
    .map(([k, v]) => `${k}:${v}`)
    .join(';')}}`
}

export type InlineStyle = { element: Html; hash: string }

/** The page's <style> element and the CSP source that allows exactly it. */
export function inlineStyle(tokens: Tokens, page: PageStyles): InlineStyle {
  const css = tokenCss(tokens) + page.css()
  const hash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`
  return { element: styleElement(css), hash }
}
