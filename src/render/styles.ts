// Styles. The base stylesheet is a served file (same origin, cached forever under a content
// hash); each page adds one small <style> element with the theme's tokens and a few
// per-section values (spacer heights, overlay opacity, which variant price shows). That CSS
// is built only from validated values (hex colors, a font from the enum, integers, classes
// made here), and the page's Content-Security-Policy allows exactly its sha256 hash, so no
// inline style can run that the service did not write, and no style attribute ever applies.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { COLOR_PATTERN, FONTS, type Font, type ThemePreset } from '../theme/constants.ts'
import { styleElement, type Html } from '../web/html.ts'
import type { Tokens } from './document.ts'

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
  bg: string
  text: string
  surfaceMix: number
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
    bg: '#ffffff',
    text: '#16181d',
    surfaceMix: 6,
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
    bg: '#fdfcf9',
    text: '#23211e',
    surfaceMix: 5,
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
    bg: '#ffffff',
    text: '#111111',
    surfaceMix: 3,
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
    bg: '#ffffff',
    text: '#0d0d0d',
    surfaceMix: 10,
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
    bg: '#fffdf8',
    text: '#1f1a2e',
    surfaceMix: 9,
    serifHeadings: false,
  },
}

function expandHex(hex: string): string {
  if (!COLOR_PATTERN.test(hex)) return '#000000'
  const h = hex.slice(1)
  return `#${h.length === 3 ? [...h].map((c) => c + c).join('') : h}`.toLowerCase()
}

function luminance(hex: string): number {
  const h = expandHex(hex).slice(1)
  const channel = (i: number) => {
    const c = Number.parseInt(h.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)

/** White or near-black, whichever reads better on the color. */
export function textOn(hex: string): string {
  const l = luminance(hex)
  return contrast(l, 1) >= contrast(l, luminance('#111111')) ? '#ffffff' : '#111111'
}

/** The color, darkened until it reads as text on white (links and accents on light backgrounds). */
function inkOf(hex: string): string {
  let h = expandHex(hex)
  for (let i = 0; i < 12 && contrast(luminance(h), 1) < 4.5; i++) {
    const n = Number.parseInt(h.slice(1), 16)
    const r = Math.round(((n >> 16) & 255) * 0.85)
    const g = Math.round(((n >> 8) & 255) * 0.85)
    const b = Math.round((n & 255) * 0.85)
    h = `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`
  }
  return h
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
  const primary = expandHex(tokens.primaryColor)
  const secondary = expandHex(tokens.secondaryColor)
  const font = FONTS.includes(tokens.font) ? FONT_STACKS[tokens.font] : FONT_STACKS.Inter
  const headingFont = preset.serifHeadings && !font.includes(SERIF) ? `Georgia,${SERIF}` : font
  const footerBg = luminance(primary) < 0.08 ? primary : '#16181d'
  const vars: Record<string, string> = {
    '--primary': primary,
    '--on-primary': textOn(primary),
    '--primary-ink': inkOf(primary),
    '--secondary': secondary,
    '--on-secondary': textOn(secondary),
    '--bg': preset.bg,
    '--text': preset.text,
    // 70 %: 4.5:1 on the tinted sections too (Lighthouse's color-contrast found 62 % at 4.1-4.3:1).
    '--muted': `color-mix(in srgb,${preset.text} 70%,${preset.bg})`,
    '--border': `color-mix(in srgb,${preset.text} 12%,${preset.bg})`,
    '--surface': `color-mix(in srgb,${primary} ${preset.surfaceMix}%,${preset.bg})`,
    '--tint': `color-mix(in srgb,${primary} 10%,${preset.bg})`,
    '--tint-strong': `color-mix(in srgb,${primary} 22%,${preset.bg})`,
    '--focus': `color-mix(in srgb,${secondary} 75%,${preset.text})`,
    '--footer-bg': footerBg,
    '--footer-text': '#f4f4f5',
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
