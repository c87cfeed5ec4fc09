// The storefront's colours, derived from a theme's tokens: the renderer writes them as custom
// properties (src/render/styles.ts) and the theme checks judge their pairs (src/checks), so both
// read the same values. The theme sets the primary and secondary colours and a preset (its page
// and text colours); everything else is derived here, and derived so that it reads: text on a
// fill is white or near-black, whichever contrasts more; muted text and coloured links are
// darkened until they reach WCAG AA (4.5:1) on the most tinted surface they sit on, the borders of
// form controls and the focus outline until they reach 3:1 (WCAG 1.4.11). What cannot
// be derived to pass is the merchant's own choice of fill (a mid-tone primary under button text),
// which the checks report.
import { AA_NON_TEXT, AA_NORMAL, contrastRatio, mix, parseHex, relativeLuminance, toHex, type Rgb } from './color.ts'
import type { ThemePreset } from './constants.ts'

type PresetColors = { bg: string; text: string; surfaceMix: number }

export const PRESET_COLORS: Readonly<Record<ThemePreset, PresetColors>> = {
  modern: { bg: '#ffffff', text: '#16181d', surfaceMix: 6 },
  classic: { bg: '#fdfcf9', text: '#23211e', surfaceMix: 5 },
  minimal: { bg: '#ffffff', text: '#111111', surfaceMix: 3 },
  bold: { bg: '#ffffff', text: '#0d0d0d', surfaceMix: 10 },
  playful: { bg: '#fffdf8', text: '#1f1a2e', surfaceMix: 9 },
}

export type Palette = {
  /** Page background and body text (the preset's). */
  bg: string
  text: string
  /** Secondary text (vendors, captions, notes): reads on bg, surface and tint. */
  muted: string
  /** Decorative lines (separators, card outlines). */
  border: string
  /** The border of form controls (inputs, selects, size options): 3:1 on every surface (WCAG 1.4.11). */
  control: string
  /** Tinted section background (featured product, testimonials, the cash-on-delivery box). */
  surface: string
  /** Stronger tint: newsletter box, badges such as "Save 20%", the header's payment note. */
  tint: string
  tintStrong: string
  primary: string
  /** Text on a primary fill (buttons, the primary announcement bar, a hero without image). */
  onPrimary: string
  /** The primary colour as text (links, outline buttons) on bg, surface and tint. */
  primaryInk: string
  secondary: string
  onSecondary: string
  /** The far end of the hero's gradient (a hero without image runs from primary to this). */
  heroEnd: string
  /** The focus outline: the secondary colour, darkened until it reaches 3:1 on every surface. */
  focus: string
  footerBg: string
  footerText: string
}

const NEAR_BLACK: Rgb = [17, 17, 17]
const WHITE: Rgb = [255, 255, 255]

/** White or near-black, whichever reads better on the colour. */
export function textOn(hex: string): string {
  const fill = parseHex(hex)
  return contrastRatio(fill, WHITE) >= contrastRatio(fill, NEAR_BLACK) ? '#ffffff' : '#111111'
}

/** `color` darkened step by step until it reaches 4.5:1 on `ground` (links and accents). */
function inkOn(color: Rgb, ground: Rgb): Rgb {
  let ink = color
  for (let i = 0; i < 24 && contrastRatio(ink, ground) < AA_NORMAL; i++)
    ink = [Math.round(ink[0] * 0.85), Math.round(ink[1] * 0.85), Math.round(ink[2] * 0.85)]
  return ink
}

/** `from` mixed into `to`, starting at `share` of `from`, until it reaches `ratio` on `ground`. */
function mixUntil(from: Rgb, to: Rgb, share: number, ground: Rgb, ratio: number): Rgb {
  let mixed = mix(from, to, share)
  while (share < 1 && contrastRatio(parseHex(toHex(mixed)), ground) < ratio) {
    share = Math.min(1, share + 0.02)
    mixed = mix(from, to, share)
  }
  return mixed
}

const palettes = new Map<string, Palette>()

export function themePalette(tokens: { preset: ThemePreset; primaryColor: string; secondaryColor: string }): Palette {
  const key = `${tokens.preset}|${tokens.primaryColor}|${tokens.secondaryColor}`
  const known = palettes.get(key)
  if (known) return known
  const preset = PRESET_COLORS[tokens.preset] ?? PRESET_COLORS.modern
  const bg = parseHex(preset.bg)
  const text = parseHex(preset.text)
  const primary = parseHex(tokens.primaryColor)
  const secondary = parseHex(tokens.secondaryColor)
  // Rounded as written into the page, so every later step starts from what the browser gets.
  const tint = parseHex(toHex(mix(primary, bg, 0.1)))
  const palette: Palette = {
    bg: toHex(bg),
    text: toHex(text),
    muted: toHex(mixUntil(text, bg, 0.62, tint, AA_NORMAL)),
    border: toHex(mix(text, bg, 0.12)),
    control: toHex(mixUntil(text, bg, 0.4, tint, AA_NON_TEXT)),
    surface: toHex(mix(primary, bg, preset.surfaceMix / 100)),
    tint: toHex(tint),
    tintStrong: toHex(mix(primary, bg, 0.22)),
    primary: toHex(primary),
    onPrimary: textOn(toHex(primary)),
    primaryInk: toHex(inkOn(primary, tint)),
    secondary: toHex(secondary),
    onSecondary: textOn(toHex(secondary)),
    heroEnd: toHex(mix(primary, secondary, 0.65)),
    focus: toHex(mixUntil(text, secondary, 0.25, tint, AA_NON_TEXT)),
    footerBg: relativeLuminance(primary) < 0.08 ? toHex(primary) : '#16181d',
    footerText: '#f4f4f5',
  }
  if (palettes.size >= 512) palettes.clear()
  palettes.set(key, palette)
  return palette
}
