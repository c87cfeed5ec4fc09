// Colours as a browser composes them, and WCAG 2.2 contrast. The storefront's palette (palette.ts)
// and the theme checks (src/checks) both compute with these, so a colour the renderer writes is
// the colour the checks judge. Channels are 0-255; mixing and compositing happen on the encoded
// sRGB values, as CSS color-mix(in srgb, …) and alpha blending do (and as axe-core computes).
import { COLOR_PATTERN } from './constants.ts'

export type Rgb = readonly [number, number, number]

/** #rgb or #rrggbb; anything else is black (callers pass validated tokens). */
export function parseHex(hex: string): Rgb {
  if (!COLOR_PATTERN.test(hex)) return [0, 0, 0]
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1)
  const n = Number.parseInt(h, 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

export function toHex(c: Rgb): string {
  return `#${c
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}

/** color-mix(in srgb, a `weightA`, b): weightA in 0..1. */
export const mix = (a: Rgb, b: Rgb, weightA: number): Rgb => [
  a[0] * weightA + b[0] * (1 - weightA),
  a[1] * weightA + b[1] * (1 - weightA),
  a[2] * weightA + b[2] * (1 - weightA),
]

/** `top` painted with opacity `alpha` over `bottom`. */
export const over = (top: Rgb, alpha: number, bottom: Rgb): Rgb => mix(top, bottom, alpha)

// WCAG 2.2 relative luminance, with the sRGB standard's 0.04045 threshold (the 2.x errata; axe-core
// uses the same).
const linear = (channel: number) => {
  const c = channel / 255
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

export const relativeLuminance = (c: Rgb): number =>
  0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2])

export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a)
  const lb = relativeLuminance(b)
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
}

/** WCAG 2.2 AA (1.4.3): 4.5:1 for text, 3:1 for large text (24 px, or 18.66 px bold). */
export const AA_NORMAL = 4.5
export const AA_LARGE = 3
/** WCAG 2.2 AA (1.4.11): 3:1 for what identifies a control (a field's border, the focus outline). */
export const AA_NON_TEXT = 3

/** A ratio as people read it: 4.47 → "4.4:1" (rounded down, so a failing ratio never reads as 4.5). */
export const formatRatio = (ratio: number): string => `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`
