// One drawing per kind of demo product, so each picture shows what is sold: sunglasses look
// like sunglasses, a basket like a basket. Each draws around (cx, cy) within a box of half-size
// s, in the product's palette plus a few material colours (wood, metal, glass, flame).
import type { Canvas, Rgb } from './canvas.ts'

export type Palette = { bg: Rgb; main: Rgb; second: Rgb; accent: Rgb; shadow: Rgb }
type Draw = (cv: Canvas, p: Palette, cx: number, cy: number, s: number) => void

const WHITE: Rgb = [250, 250, 247]
const INK: Rgb = [42, 42, 48]
const METAL: Rgb = [168, 174, 182]
const BRASS: Rgb = [196, 156, 78]
const WOOD: Rgb = [178, 128, 78]
const RATTAN: Rgb = [204, 160, 102]
const GLASS: Rgb = [214, 232, 238]
const FLAME: Rgb = [255, 176, 46]
const FLAME_CORE: Rgb = [255, 236, 150]
const LEAF: Rgb = [86, 142, 84]
const LEAF_DARK: Rgb = [58, 110, 62]
const TERRACOTTA: Rgb = [196, 104, 68]
const MARBLE: Rgb = [238, 237, 232]
const CORK: Rgb = [170, 122, 80]
const COFFEE: Rgb = [92, 58, 34]

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  Math.round(a[0] + (b[0] - a[0]) * t),
  Math.round(a[1] + (b[1] - a[1]) * t),
  Math.round(a[2] + (b[2] - a[2]) * t),
]
const lighten = (c: Rgb, t = 0.35): Rgb => mix(c, [255, 255, 255], t)
const darken = (c: Rgb, t = 0.25): Rgb => mix(c, [0, 0, 0], t)

function flame(cv: Canvas, x: number, y: number, s: number): void {
  cv.ellipse(x, y, s * 0.07, s * 0.15, FLAME)
  cv.ellipse(x, y + s * 0.04, s * 0.035, s * 0.07, FLAME_CORE)
}

// Shirt-like garments: a body and two sleeves reaching `cuff` (0 short, 1 to the hip).
function garment(cv: Canvas, c: Rgb, cx: number, cy: number, s: number, sleeve: number): void {
  cv.polygon(
    [
      [cx - s * 0.45, cy - s * 0.75],
      [cx + s * 0.45, cy - s * 0.75],
      [cx + s * 0.47, cy + s * 0.85],
      [cx - s * 0.47, cy + s * 0.85],
    ],
    c,
  )
  for (const k of [-1, 1]) {
    const outX = cx + k * (s * 0.62 + sleeve * s * 0.3)
    const cuffY = cy - s * 0.3 + sleeve * s * 0.95
    cv.polygon(
      [
        [cx + k * s * 0.42, cy - s * 0.75],
        [cx + k * s * 0.62, cy - s * 0.7],
        [outX, cuffY],
        [outX - k * s * 0.22, cuffY + s * 0.06],
        [cx + k * s * 0.44, cy - s * 0.18],
      ],
      c,
    )
  }
}

const DRAWINGS = {
  tent(cv, p, cx, cy, s) {
    cv.line(cx, cy - s * 0.75, cx - s * 1.1, cy + s * 0.7, s * 0.015, INK)
    cv.line(cx, cy - s * 0.75, cx + s * 1.1, cy + s * 0.7, s * 0.015, INK)
    cv.polygon(
      [
        [cx - s * 0.95, cy + s * 0.7],
        [cx, cy - s * 0.75],
        [cx + s * 0.95, cy + s * 0.7],
      ],
      p.main,
    )
    cv.polygon(
      [
        [cx - s * 0.3, cy + s * 0.7],
        [cx, cy - s * 0.05],
        [cx + s * 0.3, cy + s * 0.7],
      ],
      darken(p.main, 0.45),
    )
    cv.line(cx, cy - s * 0.75, cx, cy - s * 0.95, s * 0.05, p.second)
    cv.rect(cx - s * 1.05, cy + s * 0.68, s * 2.1, s * 0.05, p.second)
  },
  'dome-tent'(cv, p, cx, cy, s) {
    cv.line(cx - s * 0.8, cy + s * 0.15, cx - s * 1.05, cy + s * 0.62, s * 0.015, INK)
    cv.line(cx + s * 0.8, cy + s * 0.15, cx + s * 1.05, cy + s * 0.62, s * 0.015, INK)
    cv.halfDisc(cx, cy + s * 0.6, s * 0.95, -1, p.main)
    cv.halfRing(cx - s * 0.25, cy + s * 0.6, s * 0.68, s * 0.045, -1, lighten(p.main, 0.45))
    cv.halfRing(cx + s * 0.25, cy + s * 0.6, s * 0.68, s * 0.045, -1, lighten(p.main, 0.45))
    cv.halfDisc(cx, cy + s * 0.6, s * 0.34, -1, darken(p.main, 0.3))
    cv.line(cx, cy + s * 0.28, cx, cy + s * 0.6, s * 0.025, lighten(p.main, 0.45))
    cv.rect(cx - s * 1.05, cy + s * 0.58, s * 2.1, s * 0.05, p.second)
  },
  'bell-tent'(cv, p, cx, cy, s) {
    cv.rect(cx - s * 0.85, cy + s * 0.05, s * 1.7, s * 0.65, lighten(p.main, 0.25))
    cv.polygon(
      [
        [cx - s * 0.95, cy + s * 0.1],
        [cx, cy - s * 0.85],
        [cx + s * 0.95, cy + s * 0.1],
      ],
      p.main,
    )
    cv.polygon(
      [
        [cx - s * 0.25, cy + s * 0.7],
        [cx, cy - s * 0.05],
        [cx + s * 0.25, cy + s * 0.7],
      ],
      darken(p.main, 0.45),
    )
    cv.line(cx, cy - s * 0.85, cx, cy - s * 1.0, s * 0.05, WOOD)
    cv.rect(cx - s * 1.0, cy + s * 0.68, s * 2.0, s * 0.05, p.second)
  },
  backpack(cv, p, cx, cy, s) {
    cv.halfRing(cx, cy - s * 0.82, s * 0.16, s * 0.07, -1, p.second)
    cv.roundRect(cx - s * 0.55, cy - s * 0.82, s * 1.1, s * 1.72, s * 0.28, p.main)
    cv.roundRect(cx - s * 0.6, cy - s * 0.88, s * 1.2, s * 0.45, s * 0.2, p.second)
    cv.roundRect(cx - s * 0.38, cy + s * 0.2, s * 0.76, s * 0.55, s * 0.12, darken(p.main, 0.2))
    cv.line(cx - s * 0.28, cy - s * 0.4, cx - s * 0.28, cy + s * 0.6, s * 0.07, p.accent)
    cv.line(cx + s * 0.28, cy - s * 0.4, cx + s * 0.28, cy + s * 0.6, s * 0.07, p.accent)
    cv.rect(cx - s * 0.55, cy - s * 0.08, s * 1.1, s * 0.07, p.second)
  },
  daypack(cv, p, cx, cy, s) {
    cv.halfRing(cx, cy - s * 0.72, s * 0.15, s * 0.06, -1, p.second)
    cv.roundRect(cx - s * 0.62, cy - s * 0.75, s * 1.24, s * 1.55, s * 0.5, p.main)
    cv.halfRing(cx, cy - s * 0.05, s * 0.5, s * 0.05, -1, p.second)
    cv.roundRect(cx - s * 0.42, cy + s * 0.15, s * 0.84, s * 0.5, s * 0.2, p.second)
    cv.circle(cx + s * 0.32, cy - s * 0.38, s * 0.05, p.accent)
    cv.rect(cx - s * 0.42, cy + s * 0.3, s * 0.84, s * 0.04, p.accent)
  },
  hat(cv, p, cx, cy, s) {
    cv.path(
      [
        [cx - s * 0.35, cy + s * 0.25],
        [cx, cy + s * 0.8],
        [cx + s * 0.35, cy + s * 0.25],
      ],
      s * 0.025,
      p.second,
    )
    cv.ellipse(cx, cy + s * 0.25, s * 1.0, s * 0.28, p.main)
    cv.ellipse(cx, cy + s * 0.25, s * 0.9, s * 0.2, lighten(p.main, 0.15))
    cv.roundRect(cx - s * 0.45, cy - s * 0.5, s * 0.9, s * 0.8, s * 0.3, p.main)
    cv.rect(cx - s * 0.45, cy + s * 0.02, s * 0.9, s * 0.14, p.second)
  },
  shoe(cv, p, cx, cy, s) {
    for (let i = 0; i < 6; i++)
      cv.rect(cx - s * 0.85 + i * s * 0.32, cy + s * 0.4, s * 0.14, s * 0.08, darken(p.second, 0.2))
    cv.roundRect(cx - s * 0.95, cy + s * 0.15, s * 1.9, s * 0.28, s * 0.12, p.second)
    cv.roundRect(cx - s * 0.9, cy - s * 0.35, s * 0.9, s * 0.62, s * 0.25, p.main)
    cv.roundRect(cx - s * 0.5, cy - s * 0.1, s * 1.4, s * 0.4, s * 0.2, p.main)
    cv.line(cx - s * 0.65, cy + s * 0.05, cx + s * 0.35, cy - s * 0.02, s * 0.06, p.accent)
    for (let i = 0; i < 3; i++)
      cv.line(
        cx - s * 0.25 + i * s * 0.18,
        cy - s * 0.22 + i * s * 0.05,
        cx - s * 0.1 + i * s * 0.18,
        cy - s * 0.08 + i * s * 0.05,
        s * 0.035,
        WHITE,
      )
  },
  boot(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 0.55, cy - s * 0.8, s * 0.6, s * 1.4, s * 0.12, p.main)
    cv.roundRect(cx - s * 0.55, cy + s * 0.15, s * 1.35, s * 0.55, s * 0.25, p.main)
    cv.roundRect(cx - s * 0.6, cy + s * 0.62, s * 1.45, s * 0.16, s * 0.06, p.second)
    for (let i = 0; i < 4; i++) cv.rect(cx - s * 0.5 + i * s * 0.36, cy + s * 0.76, s * 0.16, s * 0.08, p.second)
    for (let i = 0; i < 3; i++) cv.rect(cx - s * 0.45, cy - s * 0.6 + i * s * 0.22, s * 0.4, s * 0.06, p.accent)
  },
  gaiters(cv, p, cx, cy, s) {
    cv.polygon(
      [
        [cx - s * 0.35, cy - s * 0.9],
        [cx + s * 0.25, cy - s * 0.9],
        [cx + s * 0.4, cy + s * 0.45],
        [cx - s * 0.45, cy + s * 0.45],
      ],
      p.main,
    )
    cv.polygon(
      [
        [cx - s * 0.45, cy + s * 0.4],
        [cx + s * 0.4, cy + s * 0.4],
        [cx + s * 0.8, cy + s * 0.72],
        [cx - s * 0.5, cy + s * 0.72],
      ],
      p.main,
    )
    cv.roundRect(cx - s * 0.38, cy - s * 0.96, s * 0.66, s * 0.12, s * 0.05, p.second)
    cv.rect(cx - s * 0.06, cy - s * 0.86, s * 0.1, s * 1.25, p.second)
    cv.line(cx - s * 0.45, cy + s * 0.78, cx + s * 0.7, cy + s * 0.78, s * 0.06, INK)
    cv.circle(cx + s * 0.6, cy + s * 0.62, s * 0.05, p.accent)
  },
  bottle(cv, p, cx, cy, s) {
    cv.halfRing(cx, cy - s * 0.95, s * 0.1, s * 0.04, -1, p.second)
    cv.roundRect(cx - s * 0.17, cy - s * 0.95, s * 0.34, s * 0.22, s * 0.05, p.second)
    cv.roundRect(cx - s * 0.38, cy - s * 0.75, s * 0.76, s * 1.65, s * 0.26, p.main)
    cv.roundRect(cx - s * 0.38, cy - s * 0.12, s * 0.76, s * 0.36, 0, p.accent)
    cv.line(cx - s * 0.22, cy - s * 0.55, cx - s * 0.22, cy - s * 0.25, s * 0.06, lighten(p.main, 0.4))
  },
  mug(cv, p, cx, cy, s) {
    cv.ring(cx + s * 0.55, cy + s * 0.05, s * 0.3, s * 0.12, p.main)
    cv.roundRect(cx - s * 0.65, cy - s * 0.5, s * 1.2, s * 1.25, s * 0.18, p.main)
    cv.roundRect(cx - s * 0.65, cy - s * 0.5, s * 1.2, s * 0.16, s * 0.08, p.second)
    cv.path(
      [
        [cx - s * 0.2, cy - s * 0.65],
        [cx - s * 0.1, cy - s * 0.8],
        [cx - s * 0.2, cy - s * 0.95],
      ],
      s * 0.04,
      p.accent,
    )
    cv.path(
      [
        [cx + s * 0.1, cy - s * 0.65],
        [cx + s * 0.2, cy - s * 0.8],
        [cx + s * 0.1, cy - s * 0.95],
      ],
      s * 0.04,
      p.accent,
    )
  },
  stove(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 0.45, cy + s * 0.05, s * 0.9, s * 0.78, s * 0.22, p.main)
    cv.rect(cx - s * 0.45, cy + s * 0.32, s * 0.9, s * 0.14, p.accent)
    cv.rect(cx - s * 0.12, cy - s * 0.16, s * 0.24, s * 0.24, METAL)
    cv.line(cx + s * 0.12, cy - s * 0.04, cx + s * 0.42, cy - s * 0.04, s * 0.06, METAL)
    cv.line(cx - s * 0.25, cy - s * 0.24, cx - s * 0.65, cy - s * 0.42, s * 0.05, METAL)
    cv.line(cx + s * 0.25, cy - s * 0.24, cx + s * 0.65, cy - s * 0.42, s * 0.05, METAL)
    cv.roundRect(cx - s * 0.3, cy - s * 0.3, s * 0.6, s * 0.16, s * 0.05, darken(METAL, 0.2))
    for (const dx of [-0.16, 0, 0.16]) flame(cv, cx + dx * s, cy - s * 0.48, s)
  },
  'sleeping-bag'(cv, p, cx, cy, s) {
    cv.polygon(
      [
        [cx - s * 0.55, cy - s * 0.5],
        [cx + s * 0.55, cy - s * 0.5],
        [cx + s * 0.35, cy + s * 0.85],
        [cx - s * 0.35, cy + s * 0.85],
      ],
      p.main,
    )
    cv.ellipse(cx, cy + s * 0.85, s * 0.35, s * 0.12, p.main)
    cv.circle(cx, cy - s * 0.55, s * 0.42, p.main)
    cv.ellipse(cx, cy - s * 0.58, s * 0.22, s * 0.2, darken(p.main, 0.45))
    for (let i = 0; i < 5; i++) {
      const y = cy - s * 0.15 + i * s * 0.2
      const w = s * (0.5 - i * 0.035)
      cv.line(cx - w, y, cx + w, y, s * 0.03, darken(p.main, 0.2))
    }
    cv.line(cx + s * 0.22, cy - s * 0.25, cx + s * 0.16, cy + s * 0.7, s * 0.03, p.second)
  },
  'sleeping-pad'(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 0.95, cy + s * 0.25, s * 1.5, s * 0.22, s * 0.06, p.main)
    for (let i = 0; i < 4; i++)
      cv.rect(cx - s * 0.8 + i * s * 0.33, cy + s * 0.25, s * 0.03, s * 0.22, darken(p.main, 0.2))
    cv.circle(cx + s * 0.55, cy - s * 0.02, s * 0.5, p.main)
    for (const r of [0.38, 0.25, 0.12]) cv.ring(cx + s * 0.55, cy - s * 0.02, s * r, s * 0.045, darken(p.main, 0.25))
    cv.roundRect(cx - s * 1.0, cy + s * 0.28, s * 0.12, s * 0.16, s * 0.04, p.accent)
  },
  headlamp(cv, p, cx, cy, s) {
    cv.polygon(
      [
        [cx - s * 0.12, cy],
        [cx + s * 0.12, cy],
        [cx + s * 0.7, cy + s * 0.95],
        [cx - s * 0.7, cy + s * 0.95],
      ],
      FLAME_CORE,
      0.55,
    )
    cv.roundRect(cx - s * 0.95, cy - s * 0.12, s * 1.9, s * 0.24, s * 0.12, p.second)
    for (let i = 0; i < 6; i++) cv.rect(cx - s * 0.9 + i * s * 0.33, cy - s * 0.03, s * 0.12, s * 0.06, p.accent)
    cv.roundRect(cx - s * 0.4, cy - s * 0.4, s * 0.8, s * 0.66, s * 0.16, p.main)
    cv.circle(cx, cy - s * 0.07, s * 0.2, WHITE)
    cv.ring(cx, cy - s * 0.07, s * 0.2, s * 0.05, darken(p.main, 0.3))
    cv.rect(cx + s * 0.2, cy - s * 0.5, s * 0.14, s * 0.12, p.accent)
  },
  lantern(cv, p, cx, cy, s) {
    cv.halfRing(cx, cy - s * 0.72, s * 0.26, s * 0.07, -1, p.second)
    cv.circle(cx, cy - s * 0.05, s * 0.62, FLAME_CORE, 0.35)
    cv.roundRect(cx - s * 0.38, cy - s * 0.55, s * 0.76, s * 1.0, s * 0.12, GLASS)
    cv.ellipse(cx, cy - s * 0.05, s * 0.15, s * 0.26, FLAME_CORE)
    cv.ellipse(cx, cy - s * 0.02, s * 0.08, s * 0.14, FLAME)
    cv.rect(cx - s * 0.4, cy - s * 0.55, s * 0.07, s * 1.0, p.main)
    cv.rect(cx + s * 0.33, cy - s * 0.55, s * 0.07, s * 1.0, p.main)
    cv.roundRect(cx - s * 0.46, cy - s * 0.76, s * 0.92, s * 0.24, s * 0.08, p.main)
    cv.rect(cx - s * 0.3, cy - s * 0.72, s * 0.6, s * 0.12, INK)
    cv.line(cx, cy - s * 0.72, cx, cy - s * 0.6, s * 0.015, METAL)
    cv.roundRect(cx - s * 0.5, cy + s * 0.42, s * 1.0, s * 0.3, s * 0.08, p.main)
  },
  poles(cv, p, cx, cy, s) {
    for (const dx of [-0.2, 0.2]) {
      const x0 = cx + (dx - 0.15) * s
      const y0 = cy - s * 0.92
      const x1 = cx + (dx + 0.15) * s
      const y1 = cy + s * 0.95
      const at = (t: number) => [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t] as const
      cv.line(x0, y0, x1, y1, s * 0.05, METAL)
      cv.halfRing(at(0.02)[0] - s * 0.06, at(0.02)[1] + s * 0.02, s * 0.1, s * 0.03, -1, p.accent)
      cv.line(at(0.02)[0], at(0.02)[1], at(0.28)[0], at(0.28)[1], s * 0.14, CORK)
      cv.line(at(0.5)[0], at(0.5)[1], at(0.53)[0], at(0.53)[1], s * 0.08, p.main)
      cv.ellipse(at(0.88)[0], at(0.88)[1], s * 0.14, s * 0.04, p.second)
    }
  },
  'long-sleeve'(cv, p, cx, cy, s) {
    garment(cv, p.main, cx, cy, s, 1)
    cv.halfDisc(cx, cy - s * 0.75, s * 0.18, 1, p.bg)
    cv.halfRing(cx, cy - s * 0.75, s * 0.19, s * 0.04, 1, p.second)
    for (const k of [-1, 1])
      cv.line(cx + k * s * 0.82, cy + s * 0.6, cx + k * s * 1.02, cy + s * 0.56, s * 0.07, p.second)
  },
  jacket(cv, p, cx, cy, s) {
    garment(cv, p.main, cx, cy, s, 0.95)
    cv.polygon(
      [
        [cx - s * 0.25, cy - s * 0.92],
        [cx + s * 0.25, cy - s * 0.92],
        [cx + s * 0.3, cy - s * 0.68],
        [cx - s * 0.3, cy - s * 0.68],
      ],
      p.second,
    )
    cv.line(cx, cy - s * 0.9, cx, cy + s * 0.85, s * 0.04, p.second)
    cv.line(cx - s * 0.35, cy + s * 0.2, cx - s * 0.22, cy + s * 0.5, s * 0.04, p.second)
    cv.line(cx + s * 0.35, cy + s * 0.2, cx + s * 0.22, cy + s * 0.5, s * 0.04, p.second)
    cv.rect(cx - s * 0.47, cy + s * 0.75, s * 0.94, s * 0.1, p.second)
  },
  'rain-shell'(cv, p, cx, cy, s) {
    cv.ellipse(cx, cy - s * 0.78, s * 0.34, s * 0.28, p.main)
    garment(cv, p.main, cx, cy, s, 0.95)
    cv.ellipse(cx, cy - s * 0.76, s * 0.2, s * 0.17, darken(p.main, 0.45))
    cv.line(cx, cy - s * 0.58, cx, cy + s * 0.85, s * 0.04, p.accent)
    cv.line(cx - s * 0.45, cy - s * 0.3, cx - s * 0.45, cy + s * 0.05, s * 0.03, p.accent)
    for (const k of [-1, 1])
      cv.roundRect(cx + k * s * 0.28 - s * 0.12, cy + s * 0.25, s * 0.24, s * 0.05, s * 0.02, p.second)
  },
  shorts(cv, p, cx, cy, s) {
    cv.rect(cx - s * 0.6, cy - s * 0.5, s * 1.2, s * 0.4, p.main)
    cv.polygon(
      [
        [cx - s * 0.6, cy - s * 0.47],
        [cx + s * 0.02, cy - s * 0.47],
        [cx - s * 0.04, cy + s * 0.6],
        [cx - s * 0.74, cy + s * 0.52],
      ],
      p.main,
    )
    cv.polygon(
      [
        [cx - s * 0.02, cy - s * 0.47],
        [cx + s * 0.6, cy - s * 0.47],
        [cx + s * 0.74, cy + s * 0.52],
        [cx + s * 0.04, cy + s * 0.6],
      ],
      p.main,
    )
    cv.roundRect(cx - s * 0.62, cy - s * 0.65, s * 1.24, s * 0.2, s * 0.05, p.second)
    cv.rect(cx - s * 0.1, cy - s * 0.63, s * 0.2, s * 0.16, p.accent)
    cv.line(cx - s * 0.45, cy - s * 0.35, cx - s * 0.25, cy - s * 0.1, s * 0.03, p.second)
    cv.line(cx + s * 0.45, cy - s * 0.35, cx + s * 0.25, cy - s * 0.1, s * 0.03, p.second)
  },
  socks(cv, p, cx, cy, s) {
    for (const [k, dx] of [
      [0, -0.38],
      [1, 0.28],
    ] as const) {
      const x = cx + dx * s
      const top = cy - s * 0.85 + k * s * 0.15
      const footY = cy + s * 0.1 + k * s * 0.15
      const c = k === 0 ? p.main : darken(p.main, 0.12)
      cv.roundRect(x - s * 0.2, top, s * 0.4, s * 1.25, s * 0.15, c)
      cv.roundRect(x - s * 0.2, footY, s * 0.72, s * 0.36, s * 0.18, c)
      cv.roundRect(x + s * 0.34, footY, s * 0.18, s * 0.36, s * 0.16, p.second)
      cv.circle(x - s * 0.06, footY + s * 0.22, s * 0.13, p.second)
      cv.rect(x - s * 0.2, top + s * 0.1, s * 0.4, s * 0.06, p.accent)
      cv.rect(x - s * 0.2, top + s * 0.22, s * 0.4, s * 0.06, p.accent)
    }
  },
  scarf(cv, p, cx, cy, s) {
    cv.halfRing(cx, cy - s * 0.35, s * 0.42, s * 0.3, -1, p.main)
    const left = [
      [cx - s * 0.57, cy - s * 0.35],
      [cx - s * 0.27, cy - s * 0.35],
      [cx - s * 0.2, cy + s * 0.7],
      [cx - s * 0.5, cy + s * 0.75],
    ] as const
    const right = [
      [cx + s * 0.27, cy - s * 0.35],
      [cx + s * 0.57, cy - s * 0.35],
      [cx + s * 0.45, cy + s * 0.55],
      [cx + s * 0.15, cy + s * 0.5],
    ] as const
    cv.polygon(left, p.main)
    cv.polygon(right, darken(p.main, 0.12))
    for (const strip of [left, right]) {
      for (const t of [0.6, 0.75]) {
        const a = [strip[0][0] + (strip[3][0] - strip[0][0]) * t, strip[0][1] + (strip[3][1] - strip[0][1]) * t]
        const b = [strip[1][0] + (strip[2][0] - strip[1][0]) * t, strip[1][1] + (strip[2][1] - strip[1][1]) * t]
        cv.line(a[0]!, a[1]!, b[0]!, b[1]!, s * 0.05, p.accent)
      }
      for (let i = 0; i <= 5; i++) {
        const x = strip[3][0] + ((strip[2][0] - strip[3][0]) * i) / 5
        const y = strip[3][1] + ((strip[2][1] - strip[3][1]) * i) / 5
        cv.line(x, y, x, y + s * 0.14, s * 0.025, p.second)
      }
    }
  },
  'camp-chair'(cv, p, cx, cy, s) {
    cv.line(cx - s * 0.6, cy + s * 0.85, cx + s * 0.55, cy + s * 0.1, s * 0.07, METAL)
    cv.line(cx + s * 0.6, cy + s * 0.85, cx - s * 0.55, cy + s * 0.1, s * 0.07, METAL)
    cv.polygon(
      [
        [cx - s * 0.58, cy - s * 0.8],
        [cx + s * 0.58, cy - s * 0.8],
        [cx + s * 0.55, cy + s * 0.1],
        [cx - s * 0.55, cy + s * 0.1],
      ],
      p.main,
    )
    cv.polygon(
      [
        [cx - s * 0.65, cy],
        [cx + s * 0.65, cy],
        [cx + s * 0.55, cy + s * 0.25],
        [cx - s * 0.55, cy + s * 0.25],
      ],
      p.second,
    )
    cv.line(cx - s * 0.6, cy - s * 0.85, cx - s * 0.6, cy + s * 0.2, s * 0.06, METAL)
    cv.line(cx + s * 0.6, cy - s * 0.85, cx + s * 0.6, cy + s * 0.2, s * 0.06, METAL)
    cv.line(cx - s * 0.9, cy - s * 0.22, cx - s * 0.55, cy - s * 0.22, s * 0.09, p.second)
    cv.line(cx + s * 0.55, cy - s * 0.22, cx + s * 0.9, cy - s * 0.22, s * 0.09, p.second)
    cv.roundRect(cx + s * 0.75, cy - s * 0.2, s * 0.16, s * 0.2, s * 0.04, p.accent)
  },
  hammock(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 1.02, cy - s * 0.9, s * 0.14, s * 1.8, s * 0.05, WOOD)
    cv.roundRect(cx + s * 0.88, cy - s * 0.9, s * 0.14, s * 1.8, s * 0.05, WOOD)
    cv.circle(cx - s * 0.95, cy - s * 0.95, s * 0.28, LEAF)
    cv.circle(cx + s * 0.95, cy - s * 0.95, s * 0.28, LEAF)
    cv.line(cx - s * 0.88, cy - s * 0.5, cx - s * 0.6, cy - s * 0.05, s * 0.025, INK)
    cv.line(cx + s * 0.88, cy - s * 0.5, cx + s * 0.6, cy - s * 0.05, s * 0.025, INK)
    const at = (t: number) => {
      const x = cx - s * 0.6 + t * s * 1.2
      const u = (x - cx) / (s * 0.6)
      return [x, cy - s * 0.05 + (1 - u * u) * s * 0.45] as const
    }
    for (let i = 0; i <= 40; i++) cv.circle(at(i / 40)[0], at(i / 40)[1], s * 0.1, p.main)
    for (let i = 0; i < 40; i++)
      cv.line(
        at(i / 40)[0],
        at(i / 40)[1] + s * 0.04,
        at((i + 1) / 40)[0],
        at((i + 1) / 40)[1] + s * 0.04,
        s * 0.03,
        p.accent,
      )
  },
  'first-aid'(cv, p, cx, cy, s) {
    cv.halfRing(cx, cy - s * 0.55, s * 0.25, s * 0.08, -1, p.second)
    cv.roundRect(cx - s * 0.8, cy - s * 0.55, s * 1.6, s * 1.2, s * 0.16, p.main)
    cv.rect(cx - s * 0.8, cy - s * 0.36, s * 1.6, s * 0.05, darken(p.main, 0.3))
    cv.rect(cx - s * 0.11, cy - s * 0.18, s * 0.22, s * 0.66, WHITE)
    cv.rect(cx - s * 0.33, cy + s * 0.04, s * 0.66, s * 0.22, WHITE)
  },
  'multi-tool'(cv, p, cx, cy, s) {
    cv.polygon(
      [
        [cx - s * 0.35, cy],
        [cx + s * 0.15, cy - s * 0.68],
        [cx + s * 0.3, cy - s * 0.62],
        [cx - s * 0.12, cy + s * 0.02],
      ],
      METAL,
    )
    cv.line(cx - s * 0.55, cy + s * 0.02, cx - s * 0.85, cy - s * 0.5, s * 0.07, METAL)
    cv.polygon(
      [
        [cx + s * 0.4, cy - s * 0.02],
        [cx + s * 0.98, cy + s * 0.06],
        [cx + s * 0.98, cy + s * 0.12],
        [cx + s * 0.4, cy + s * 0.13],
      ],
      METAL,
    )
    cv.polygon(
      [
        [cx + s * 0.4, cy + s * 0.17],
        [cx + s * 0.98, cy + s * 0.16],
        [cx + s * 0.98, cy + s * 0.22],
        [cx + s * 0.4, cy + s * 0.3],
      ],
      darken(METAL, 0.15),
    )
    cv.roundRect(cx - s * 0.85, cy - s * 0.02, s * 1.3, s * 0.34, s * 0.14, p.main)
    cv.circle(cx - s * 0.65, cy + s * 0.15, s * 0.06, p.accent)
    cv.circle(cx + s * 0.3, cy + s * 0.15, s * 0.06, p.accent)
  },
  'dry-bag'(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 0.5, cy - s * 0.5, s * 1.0, s * 1.35, s * 0.3, p.main)
    cv.roundRect(cx - s * 0.62, cy - s * 0.78, s * 1.24, s * 0.32, s * 0.16, darken(p.main, 0.15))
    cv.line(cx - s * 0.62, cy - s * 0.62, cx + s * 0.62, cy - s * 0.62, s * 0.03, darken(p.main, 0.35))
    cv.roundRect(cx - s * 0.76, cy - s * 0.74, s * 0.18, s * 0.24, s * 0.05, INK)
    cv.roundRect(cx + s * 0.58, cy - s * 0.74, s * 0.18, s * 0.24, s * 0.05, INK)
    cv.rect(cx - s * 0.5, cy + s * 0.3, s * 1.0, s * 0.06, p.second)
    cv.roundRect(cx - s * 0.2, cy - s * 0.2, s * 0.4, s * 0.3, s * 0.05, WHITE)
  },
  sunglasses(cv, p, cx, cy, s) {
    cv.line(cx - s * 0.92, cy - s * 0.22, cx - s * 1.02, cy + s * 0.05, s * 0.06, p.second)
    cv.line(cx + s * 0.92, cy - s * 0.22, cx + s * 1.02, cy + s * 0.05, s * 0.06, p.second)
    for (const k of [-1, 1]) {
      const x = cx + k * s * 0.48
      cv.roundRect(x - s * 0.44, cy - s * 0.3, s * 0.88, s * 0.64, s * 0.28, p.second)
      cv.roundRect(x - s * 0.37, cy - s * 0.23, s * 0.74, s * 0.5, s * 0.22, darken(p.main, 0.35))
      cv.line(x - s * 0.2, cy - s * 0.08, x - s * 0.05, cy - s * 0.15, s * 0.05, lighten(p.main, 0.5))
    }
    cv.line(cx - s * 0.95, cy - s * 0.26, cx + s * 0.95, cy - s * 0.26, s * 0.08, p.second)
    cv.halfRing(cx, cy - s * 0.06, s * 0.1, s * 0.06, -1, p.second)
  },
  compass(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 0.55, cy - s * 0.95, s * 1.1, s * 1.85, s * 0.14, lighten(p.accent, 0.55))
    for (let i = 0; i < 12; i++)
      cv.rect(cx - s * 0.55, cy - s * 0.8 + i * s * 0.12, s * (i % 2 ? 0.1 : 0.18), s * 0.025, INK)
    cv.polygon(
      [
        [cx, cy - s * 0.85],
        [cx + s * 0.12, cy - s * 0.6],
        [cx - s * 0.12, cy - s * 0.6],
      ],
      p.main,
    )
    cv.line(cx, cy - s * 0.6, cx, cy - s * 0.3, s * 0.03, p.main)
    cv.circle(cx, cy + s * 0.2, s * 0.46, p.second)
    cv.circle(cx, cy + s * 0.2, s * 0.37, WHITE)
    for (let i = 0; i < 8; i++) {
      const a = (i * Math.PI) / 4
      cv.line(
        cx + Math.sin(a) * s * 0.3,
        cy + s * 0.2 - Math.cos(a) * s * 0.3,
        cx + Math.sin(a) * s * 0.36,
        cy + s * 0.2 - Math.cos(a) * s * 0.36,
        s * 0.025,
        INK,
      )
    }
    cv.polygon(
      [
        [cx + s * 0.1, cy + s * 0.2 - s * 0.3],
        [cx + s * 0.06, cy + s * 0.23],
        [cx - s * 0.06, cy + s * 0.17],
      ],
      [214, 58, 48],
    )
    cv.polygon(
      [
        [cx - s * 0.1, cy + s * 0.2 + s * 0.3],
        [cx + s * 0.06, cy + s * 0.23],
        [cx - s * 0.06, cy + s * 0.17],
      ],
      METAL,
    )
    cv.circle(cx, cy + s * 0.2, s * 0.04, INK)
    cv.circle(cx, cy + s * 0.78, s * 0.06, p.bg)
  },
  cooler(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 1.0, cy - s * 0.15, s * 0.2, s * 0.4, s * 0.06, p.second)
    cv.roundRect(cx + s * 0.8, cy - s * 0.15, s * 0.2, s * 0.4, s * 0.06, p.second)
    cv.roundRect(cx - s * 0.85, cy - s * 0.35, s * 1.7, s * 1.1, s * 0.12, p.main)
    cv.roundRect(cx - s * 0.9, cy - s * 0.58, s * 1.8, s * 0.32, s * 0.1, p.second)
    cv.rect(cx - s * 0.12, cy - s * 0.32, s * 0.24, s * 0.2, p.accent)
    cv.rect(cx - s * 0.85, cy + s * 0.6, s * 1.7, s * 0.07, darken(p.main, 0.2))
  },
  'chalk-bag'(cv, p, cx, cy, s) {
    cv.rect(cx - s * 0.95, cy + s * 0.2, s * 1.9, s * 0.1, INK)
    cv.roundRect(cx - s * 0.72, cy - s * 0.25, s * 0.22, s * 0.55, s * 0.08, p.second)
    for (let i = 0; i < 4; i++)
      cv.line(cx - s * 0.68 + i * s * 0.05, cy - s * 0.25, cx - s * 0.68 + i * s * 0.05, cy - s * 0.42, s * 0.025, WOOD)
    cv.roundRect(cx - s * 0.5, cy - s * 0.45, s * 1.0, s * 1.25, s * 0.28, p.main)
    cv.roundRect(cx - s * 0.56, cy - s * 0.62, s * 1.12, s * 0.3, s * 0.15, lighten(p.second, 0.6))
    cv.line(cx + s * 0.25, cy - s * 0.5, cx + s * 0.38, cy - s * 0.05, s * 0.035, p.accent)
    cv.roundRect(cx + s * 0.3, cy - s * 0.12, s * 0.14, s * 0.16, s * 0.05, INK)
  },
  'water-filter'(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 0.55, cy - s * 0.12, s * 1.1, s * 1.0, s * 0.35, lighten(p.accent, 0.5))
    cv.roundRect(cx - s * 0.5, cy + s * 0.3, s * 1.0, s * 0.52, s * 0.3, lighten(p.accent, 0.1))
    cv.rect(cx - s * 0.14, cy - s * 0.24, s * 0.28, s * 0.16, p.second)
    cv.roundRect(cx - s * 0.22, cy - s * 0.86, s * 0.44, s * 0.66, s * 0.12, p.main)
    cv.rect(cx - s * 0.22, cy - s * 0.6, s * 0.44, s * 0.06, p.second)
    cv.rect(cx - s * 0.22, cy - s * 0.45, s * 0.44, s * 0.06, p.second)
    cv.roundRect(cx - s * 0.1, cy - s * 0.98, s * 0.2, s * 0.14, s * 0.05, p.second)
    cv.ellipse(cx + s * 0.55, cy - s * 0.65, s * 0.06, s * 0.1, p.accent)
  },
  'cook-set'(cv, p, cx, cy, s) {
    cv.line(cx + s * 0.45, cy - s * 0.05, cx + s * 0.95, cy - s * 0.22, s * 0.08, p.second)
    cv.roundRect(cx - s * 0.6, cy - s * 0.25, s * 1.1, s * 0.95, s * 0.12, p.main)
    cv.rect(cx - s * 0.6, cy - s * 0.05, s * 1.1, s * 0.05, darken(p.main, 0.2))
    cv.roundRect(cx - s * 0.66, cy - s * 0.36, s * 1.22, s * 0.14, s * 0.06, p.second)
    cv.roundRect(cx - s * 0.14, cy - s * 0.5, s * 0.28, s * 0.16, s * 0.05, p.second)
    cv.halfDisc(cx - s * 0.55, cy + s * 0.55, s * 0.35, 1, p.accent)
    cv.roundRect(cx - s * 0.92, cy + s * 0.52, s * 0.74, s * 0.07, s * 0.03, darken(p.accent, 0.2))
    cv.line(cx + s * 0.72, cy + s * 0.9, cx + s * 0.8, cy + s * 0.25, s * 0.06, p.accent)
    cv.ellipse(cx + s * 0.81, cy + s * 0.15, s * 0.09, s * 0.14, p.accent)
  },
  bedding(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 0.9, cy - s * 0.85, s * 1.8, s * 0.75, s * 0.14, WOOD)
    cv.roundRect(cx - s * 0.8, cy - s * 0.58, s * 0.72, s * 0.36, s * 0.14, WHITE)
    cv.roundRect(cx + s * 0.08, cy - s * 0.58, s * 0.72, s * 0.36, s * 0.14, WHITE)
    cv.roundRect(cx - s * 0.95, cy - s * 0.28, s * 1.9, s * 0.98, s * 0.1, p.main)
    cv.rect(cx - s * 0.95, cy - s * 0.14, s * 1.9, s * 0.16, lighten(p.main, 0.3))
    for (let i = 0; i < 5; i++) cv.circle(cx - s * 0.6 + i * s * 0.3, cy + s * 0.6, s * 0.03, lighten(p.main, 0.5))
    cv.rect(cx - s * 0.88, cy + s * 0.7, s * 0.12, s * 0.16, darken(WOOD))
    cv.rect(cx + s * 0.76, cy + s * 0.7, s * 0.12, s * 0.16, darken(WOOD))
  },
  'folded-linen'(cv, p, cx, cy, s) {
    for (let i = 0; i < 3; i++) {
      const y = cy + s * 0.45 - i * s * 0.38
      const inset = i * s * 0.05
      cv.roundRect(
        cx - s * 0.8 + inset,
        y - s * 0.3,
        s * 1.6 - inset * 2,
        s * 0.36,
        s * 0.1,
        i % 2 ? lighten(p.main, 0.35) : p.main,
      )
      cv.line(cx - s * 0.72 + inset, y - s * 0.12, cx + s * 0.72 - inset, y - s * 0.12, s * 0.02, darken(p.main, 0.2))
    }
    cv.rect(cx + s * 0.25, cy - s * 0.78, s * 0.12, s * 1.34, p.accent)
    cv.roundRect(cx + s * 0.16, cy - s * 0.82, s * 0.3, s * 0.12, s * 0.06, p.accent)
  },
  throw(cv, p, cx, cy, s) {
    for (let i = 0; i <= 14; i++)
      cv.line(
        cx - s * 0.75 + i * s * 0.107,
        cy + s * 0.55,
        cx - s * 0.75 + i * s * 0.107,
        cy + s * 0.8,
        s * 0.03,
        p.main,
      )
    cv.roundRect(cx - s * 0.8, cy - s * 0.7, s * 1.6, s * 1.28, s * 0.12, p.main)
    const knit = darken(p.main, 0.18)
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 7; c++) {
        const x = cx - s * 0.6 + c * s * 0.2
        const y = cy - s * 0.55 + r * s * 0.2
        cv.line(x - s * 0.07, y - s * 0.05, x, y + s * 0.05, s * 0.035, knit)
        cv.line(x, y + s * 0.05, x + s * 0.07, y - s * 0.05, s * 0.035, knit)
      }
    }
    cv.rect(cx - s * 0.8, cy - s * 0.1, s * 1.6, s * 0.04, darken(p.main, 0.3))
  },
  cushion(cv, p, cx, cy, s) {
    for (const [kx, ky] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ] as const) {
      cv.polygon(
        [
          [cx + kx * s * 0.88, cy + ky * s * 0.88],
          [cx + kx * s * 0.45, cy + ky * s * 0.68],
          [cx + kx * s * 0.68, cy + ky * s * 0.45],
        ],
        p.main,
      )
    }
    cv.roundRect(cx - s * 0.75, cy - s * 0.75, s * 1.5, s * 1.5, s * 0.42, p.main)
    cv.ellipse(cx - s * 0.2, cy - s * 0.2, s * 0.38, s * 0.28, lighten(p.main, 0.25), 0.6)
    cv.line(cx - s * 0.55, cy + s * 0.6, cx + s * 0.55, cy + s * 0.6, s * 0.02, darken(p.main, 0.25))
  },
  'side-table'(cv, p, cx, cy, s) {
    cv.rect(cx - s * 0.62, cy + s * 0.2, s * 0.1, s * 0.68, darken(WOOD, 0.1))
    cv.rect(cx + s * 0.52, cy + s * 0.2, s * 0.1, s * 0.68, darken(WOOD, 0.1))
    cv.rect(cx - s * 0.65, cy - s * 0.52, s * 1.3, s * 0.8, WOOD)
    cv.rect(cx - s * 0.56, cy - s * 0.05, s * 1.12, s * 0.22, darken(WOOD, 0.35))
    cv.rect(cx - s * 0.42, cy - s * 0.02, s * 0.1, s * 0.19, p.main)
    cv.rect(cx - s * 0.3, cy + s * 0.01, s * 0.08, s * 0.16, p.accent)
    cv.rect(cx - s * 0.2, cy - s * 0.03, s * 0.1, s * 0.2, p.second)
    cv.roundRect(cx - s * 0.56, cy - s * 0.45, s * 1.12, s * 0.34, s * 0.04, lighten(WOOD, 0.15))
    cv.circle(cx, cy - s * 0.28, s * 0.05, INK)
    cv.roundRect(cx - s * 0.75, cy - s * 0.66, s * 1.5, s * 0.15, s * 0.04, darken(WOOD, 0.1))
    cv.circle(cx + s * 0.35, cy - s * 0.82, s * 0.12, p.main)
    cv.rect(cx + s * 0.3, cy - s * 0.82, s * 0.1, s * 0.16, p.main)
  },
  'table-lamp'(cv, p, cx, cy, s) {
    cv.ellipse(cx, cy - s * 0.1, s * 0.7, s * 0.12, FLAME_CORE, 0.6)
    cv.circle(cx, cy + s * 0.42, s * 0.4, p.main)
    cv.roundRect(cx - s * 0.25, cy + s * 0.75, s * 0.5, s * 0.12, s * 0.05, darken(p.main, 0.2))
    cv.rect(cx - s * 0.04, cy - s * 0.2, s * 0.08, s * 0.28, BRASS)
    cv.polygon(
      [
        [cx - s * 0.36, cy - s * 0.88],
        [cx + s * 0.36, cy - s * 0.88],
        [cx + s * 0.62, cy - s * 0.12],
        [cx - s * 0.62, cy - s * 0.12],
      ],
      lighten(p.accent, 0.55),
    )
    cv.line(cx - s * 0.6, cy - s * 0.13, cx + s * 0.6, cy - s * 0.13, s * 0.03, darken(p.accent, 0.1))
  },
  'floor-lamp'(cv, p, cx, cy, s) {
    cv.polygon(
      [
        [cx + s * 0.05, cy - s * 0.55],
        [cx + s * 0.6, cy - s * 0.55],
        [cx + s * 0.95, cy + s * 0.3],
        [cx - s * 0.3, cy + s * 0.3],
      ],
      FLAME_CORE,
      0.45,
    )
    cv.ellipse(cx - s * 0.2, cy + s * 0.9, s * 0.42, s * 0.08, darken(BRASS, 0.2))
    cv.line(cx - s * 0.2, cy + s * 0.9, cx - s * 0.2, cy - s * 0.7, s * 0.06, BRASS)
    cv.line(cx - s * 0.2, cy - s * 0.7, cx + s * 0.25, cy - s * 0.9, s * 0.06, BRASS)
    cv.polygon(
      [
        [cx + s * 0.18, cy - s * 0.95],
        [cx + s * 0.45, cy - s * 0.95],
        [cx + s * 0.62, cy - s * 0.55],
        [cx + s * 0.02, cy - s * 0.55],
      ],
      p.main,
    )
  },
  pendant(cv, _p, cx, cy, s) {
    cv.roundRect(cx - s * 0.15, cy - s * 1.02, s * 0.3, s * 0.08, s * 0.03, INK)
    cv.line(cx, cy - s * 1.0, cx, cy - s * 0.55, s * 0.03, INK)
    cv.circle(cx, cy + s * 0.3, s * 0.45, FLAME_CORE, 0.35)
    cv.halfDisc(cx, cy + s * 0.15, s * 0.75, -1, RATTAN)
    const weave = darken(RATTAN, 0.25)
    for (const r of [0.25, 0.42, 0.59]) cv.halfRing(cx, cy + s * 0.15, s * r, s * 0.035, -1, weave)
    for (let i = 1; i < 8; i++) {
      const a = (i * Math.PI) / 8
      cv.line(
        cx - Math.cos(a) * s * 0.12,
        cy + s * 0.15 - Math.sin(a) * s * 0.12,
        cx - Math.cos(a) * s * 0.74,
        cy + s * 0.15 - Math.sin(a) * s * 0.74,
        s * 0.025,
        weave,
      )
    }
    cv.rect(cx - s * 0.77, cy + s * 0.12, s * 1.54, s * 0.06, weave)
    cv.halfDisc(cx, cy + s * 0.18, s * 0.2, 1, FLAME_CORE)
  },
  'jar-candle'(cv, p, cx, cy, s) {
    cv.circle(cx, cy - s * 0.6, s * 0.3, FLAME_CORE, 0.35)
    cv.roundRect(cx - s * 0.5, cy - s * 0.35, s * 1.0, s * 1.15, s * 0.12, p.main)
    cv.ellipse(cx, cy - s * 0.3, s * 0.42, s * 0.08, lighten(p.main, 0.6))
    cv.roundRect(cx - s * 0.38, cy + s * 0.08, s * 0.76, s * 0.4, s * 0.04, WHITE)
    cv.line(cx - s * 0.25, cy + s * 0.22, cx + s * 0.25, cy + s * 0.22, s * 0.04, p.second)
    cv.line(cx - s * 0.15, cy + s * 0.34, cx + s * 0.15, cy + s * 0.34, s * 0.03, p.second)
    cv.rect(cx - s * 0.02, cy - s * 0.45, s * 0.04, s * 0.14, INK)
    flame(cv, cx, cy - s * 0.6, s)
  },
  'taper-candles'(cv, p, cx, cy, s) {
    for (const [dx, lift] of [
      [-0.3, 0],
      [0.3, 0.15],
    ] as const) {
      const x = cx + dx * s
      const top = cy - s * 0.6 + lift * s
      cv.ellipse(x, cy + s * 0.82, s * 0.28, s * 0.07, p.second)
      cv.roundRect(x - s * 0.1, cy + s * 0.58, s * 0.2, s * 0.24, s * 0.05, p.second)
      cv.roundRect(x - s * 0.07, top, s * 0.14, cy + s * 0.6 - top, s * 0.05, p.main)
      cv.line(x, top, x, top - s * 0.08, s * 0.02, INK)
      flame(cv, x, top - s * 0.18, s)
    }
  },
  diffuser(cv, p, cx, cy, s) {
    for (let i = 0; i < 7; i++)
      cv.line(
        cx + (i - 3) * s * 0.03,
        cy - s * 0.05,
        cx + (i - 3) * s * 0.15,
        cy - s * 0.95 + Math.abs(i - 3) * s * 0.06,
        s * 0.03,
        darken(WOOD, 0.2),
      )
    cv.rect(cx - s * 0.1, cy - s * 0.14, s * 0.2, s * 0.16, p.second)
    cv.roundRect(cx - s * 0.38, cy, s * 0.76, s * 0.85, s * 0.14, lighten(p.main, 0.45))
    cv.roundRect(cx - s * 0.38, cy + s * 0.35, s * 0.76, s * 0.5, s * 0.14, p.main)
    cv.rect(cx - s * 0.26, cy + s * 0.14, s * 0.52, s * 0.26, WHITE)
    cv.line(cx - s * 0.16, cy + s * 0.27, cx + s * 0.16, cy + s * 0.27, s * 0.03, p.second)
  },
  towel(cv, p, cx, cy, s) {
    cv.line(cx - s * 0.95, cy - s * 0.72, cx + s * 0.95, cy - s * 0.72, s * 0.07, METAL)
    cv.circle(cx - s * 0.95, cy - s * 0.72, s * 0.07, darken(METAL))
    cv.circle(cx + s * 0.95, cy - s * 0.72, s * 0.07, darken(METAL))
    cv.roundRect(cx - s * 0.55, cy - s * 0.76, s * 1.1, s * 1.6, s * 0.06, p.main)
    const cell = darken(p.main, 0.1)
    for (let r = 0; r < 9; r++)
      for (let c = 0; c < 6; c++)
        cv.rect(cx - s * 0.48 + c * s * 0.17, cy - s * 0.3 + r * s * 0.12, s * 0.1, s * 0.07, cell)
    cv.rect(cx - s * 0.55, cy - s * 0.76, s * 1.1, s * 0.36, darken(p.main, 0.15))
    cv.rect(cx - s * 0.55, cy + s * 0.62, s * 1.1, s * 0.08, p.accent)
  },
  'bath-mat'(cv, p, cx, cy, s) {
    const bamboo: Rgb = [214, 186, 122]
    for (let i = 0; i < 7; i++) {
      const x = cx - s * 0.9 + i * s * 0.26
      cv.roundRect(x, cy - s * 0.62, s * 0.2, s * 1.24, s * 0.05, i % 2 ? bamboo : darken(bamboo, 0.06))
      for (const y of [-0.3, 0.15]) cv.rect(x, cy + (y + (i % 2) * 0.12) * s, s * 0.2, s * 0.025, darken(bamboo, 0.25))
    }
    cv.line(cx - s * 0.95, cy - s * 0.45, cx + s * 0.95, cy - s * 0.45, s * 0.02, p.second)
    cv.line(cx - s * 0.95, cy + s * 0.45, cx + s * 0.95, cy + s * 0.45, s * 0.02, p.second)
  },
  robe(cv, p, cx, cy, s) {
    cv.polygon(
      [
        [cx - s * 0.45, cy - s * 0.85],
        [cx + s * 0.45, cy - s * 0.85],
        [cx + s * 0.55, cy + s * 0.95],
        [cx - s * 0.55, cy + s * 0.95],
      ],
      p.main,
    )
    for (const k of [-1, 1])
      cv.polygon(
        [
          [cx + k * s * 0.42, cy - s * 0.85],
          [cx + k * s * 0.62, cy - s * 0.8],
          [cx + k * s * 0.95, cy + s * 0.1],
          [cx + k * s * 0.68, cy + s * 0.22],
          [cx + k * s * 0.45, cy - s * 0.3],
        ],
        p.main,
      )
    cv.polygon(
      [
        [cx - s * 0.2, cy - s * 0.86],
        [cx + s * 0.2, cy - s * 0.86],
        [cx, cy - s * 0.35],
      ],
      p.bg,
    )
    cv.line(cx - s * 0.22, cy - s * 0.85, cx + s * 0.1, cy + s * 0.05, s * 0.07, darken(p.main, 0.15))
    cv.line(cx + s * 0.22, cy - s * 0.85, cx - s * 0.02, cy - s * 0.3, s * 0.07, darken(p.main, 0.15))
    cv.rect(cx - s * 0.5, cy + s * 0.05, s * 1.0, s * 0.09, p.second)
    cv.line(cx + s * 0.15, cy + s * 0.1, cx + s * 0.05, cy + s * 0.5, s * 0.06, p.second)
    cv.line(cx + s * 0.15, cy + s * 0.1, cx + s * 0.3, cy + s * 0.45, s * 0.06, p.second)
    cv.roundRect(cx - s * 0.42, cy + s * 0.3, s * 0.3, s * 0.3, s * 0.03, darken(p.main, 0.1))
  },
  plates(cv, p, cx, cy, s) {
    for (let i = 0; i < 4; i++) {
      const y = cy + s * 0.5 - i * s * 0.13
      cv.ellipse(cx, y + s * 0.04, s * 0.92, s * 0.26, darken(p.main, 0.25))
      cv.ellipse(cx, y, s * 0.92, s * 0.26, p.main)
    }
    const top = cy + s * 0.5 - 3 * s * 0.13
    cv.ellipse(cx, top + s * 0.02, s * 0.6, s * 0.15, lighten(p.main, 0.25))
    for (const [dx, dy] of [
      [-0.3, 0],
      [0.1, -0.06],
      [0.35, 0.04],
      [-0.05, 0.08],
    ] as const)
      cv.circle(cx + dx * s, top + dy * s, s * 0.02, INK, 0.5)
  },
  bowl(cv, p, cx, cy, s) {
    cv.circle(cx - s * 0.4, cy - s * 0.12, s * 0.26, LEAF)
    cv.circle(cx + s * 0.02, cy - s * 0.25, s * 0.32, LEAF_DARK)
    cv.circle(cx + s * 0.42, cy - s * 0.12, s * 0.24, LEAF)
    cv.circle(cx + s * 0.2, cy - s * 0.2, s * 0.1, [214, 68, 52])
    cv.circle(cx - s * 0.15, cy - s * 0.12, s * 0.09, [214, 68, 52])
    cv.halfDisc(cx, cy - s * 0.05, s * 0.9, 1, p.main)
    cv.roundRect(cx - s * 0.92, cy - s * 0.1, s * 1.84, s * 0.1, s * 0.05, p.second)
    cv.roundRect(cx - s * 0.3, cy + s * 0.8, s * 0.6, s * 0.1, s * 0.04, p.second)
  },
  espresso(cv, p, cx, cy, s) {
    for (const dx of [-0.45, 0.45]) {
      const x = cx + dx * s
      cv.ellipse(x, cy + s * 0.38, s * 0.42, s * 0.1, p.second)
      cv.ring(x + s * 0.28, cy + s * 0.08, s * 0.1, s * 0.05, p.main)
      cv.roundRect(x - s * 0.25, cy - s * 0.12, s * 0.5, s * 0.46, s * 0.14, p.main)
      cv.ellipse(x, cy - s * 0.1, s * 0.21, s * 0.05, COFFEE)
      cv.path(
        [
          [x - s * 0.05, cy - s * 0.25],
          [x + s * 0.03, cy - s * 0.38],
          [x - s * 0.05, cy - s * 0.52],
        ],
        s * 0.025,
        darken(p.shadow, 0.25),
      )
    }
  },
  carafe(cv, p, cx, cy, s) {
    cv.circle(cx, cy + s * 0.38, s * 0.5, GLASS)
    cv.halfDisc(cx, cy + s * 0.38, s * 0.46, 1, lighten(p.accent, 0.35))
    cv.rect(cx - s * 0.14, cy - s * 0.42, s * 0.28, s * 0.45, GLASS)
    cv.polygon(
      [
        [cx - s * 0.16, cy - s * 0.95],
        [cx + s * 0.16, cy - s * 0.95],
        [cx + s * 0.21, cy - s * 0.48],
        [cx - s * 0.21, cy - s * 0.48],
      ],
      lighten(p.main, 0.45),
    )
    cv.line(cx - s * 0.3, cy + s * 0.2, cx - s * 0.22, cy + s * 0.05, s * 0.04, WHITE)
    cv.line(cx - s * 0.08, cy - s * 0.35, cx - s * 0.08, cy - s * 0.05, s * 0.03, WHITE)
  },
  board(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 0.2, cy - s * 0.88, s * 0.4, s * 0.5, s * 0.12, WOOD)
    cv.circle(cx, cy - s * 0.72, s * 0.07, p.bg)
    cv.roundRect(cx - s * 0.65, cy - s * 0.45, s * 1.3, s * 1.25, s * 0.12, WOOD)
    cv.roundRect(cx - s * 0.55, cy - s * 0.35, s * 1.1, s * 1.05, s * 0.08, darken(WOOD, 0.18))
    cv.roundRect(cx - s * 0.5, cy - s * 0.3, s * 1.0, s * 0.95, s * 0.06, WOOD)
    for (const y of [-0.15, 0.1, 0.4])
      cv.line(cx - s * 0.45, cy + y * s, cx + s * 0.45, cy + (y + 0.05) * s, s * 0.015, lighten(WOOD, 0.2))
    cv.polygon(
      [
        [cx - s * 0.35, cy + s * 0.35],
        [cx + s * 0.15, cy + s * 0.02],
        [cx + s * 0.15, cy + s * 0.35],
      ],
      [242, 204, 110],
    )
    for (const [dx, dy] of [
      [0.3, 0.25],
      [0.38, 0.1],
      [0.28, -0.05],
    ] as const)
      cv.circle(cx + dx * s, cy + dy * s, s * 0.06, LEAF_DARK)
  },
  casserole(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 1.0, cy - s * 0.06, s * 0.32, s * 0.18, s * 0.09, p.main)
    cv.roundRect(cx + s * 0.68, cy - s * 0.06, s * 0.32, s * 0.18, s * 0.09, p.main)
    cv.roundRect(cx - s * 0.78, cy - s * 0.15, s * 1.56, s * 0.85, s * 0.25, p.main)
    cv.rect(cx - s * 0.78, cy + s * 0.02, s * 1.56, s * 0.05, lighten(p.main, 0.3))
    cv.ellipse(cx, cy - s * 0.18, s * 0.84, s * 0.2, darken(p.main, 0.12))
    cv.roundRect(cx - s * 0.15, cy - s * 0.5, s * 0.3, s * 0.2, s * 0.08, METAL)
  },
  utensils(cv, p, cx, cy, s) {
    const olive = WOOD
    const x0 = cx - s * 0.45
    cv.line(x0, cy - s * 0.25, x0, cy + s * 0.9, s * 0.1, olive)
    cv.ellipse(x0, cy - s * 0.55, s * 0.2, s * 0.34, olive)
    cv.ellipse(x0, cy - s * 0.55, s * 0.13, s * 0.26, darken(olive, 0.15))
    cv.line(cx, cy - s * 0.4, cx, cy + s * 0.9, s * 0.1, olive)
    cv.roundRect(cx - s * 0.17, cy - s * 0.95, s * 0.34, s * 0.6, s * 0.1, olive)
    const x2 = cx + s * 0.45
    cv.line(x2, cy - s * 0.35, x2, cy + s * 0.9, s * 0.1, olive)
    cv.roundRect(x2 - s * 0.17, cy - s * 0.5, s * 0.34, s * 0.22, s * 0.08, olive)
    for (const dx of [-0.12, 0, 0.12]) cv.line(x2 + dx * s, cy - s * 0.45, x2 + dx * s, cy - s * 0.9, s * 0.05, olive)
    for (const x of [x0, cx, x2])
      cv.line(x - s * 0.02, cy + s * 0.2, x + s * 0.02, cy + s * 0.7, s * 0.015, darken(olive, 0.25))
    cv.circle(cx + s * 0.0, cy + s * 0.8, s * 0.03, p.accent)
  },
  napkins(cv, p, cx, cy, s) {
    for (let i = 0; i < 4; i++)
      cv.roundRect(
        cx - s * 0.75,
        cy + s * 0.35 + i * s * 0.1,
        s * 1.5,
        s * 0.09,
        s * 0.03,
        i % 2 ? darken(p.main, 0.12) : p.main,
      )
    cv.roundRect(cx - s * 0.75, cy - s * 0.65, s * 1.5, s * 1.02, s * 0.04, p.main)
    cv.polygon(
      [
        [cx - s * 0.75, cy - s * 0.65],
        [cx + s * 0.15, cy - s * 0.65],
        [cx - s * 0.75, cy + s * 0.25],
      ],
      lighten(p.main, 0.3),
    )
    cv.line(cx + s * 0.15, cy - s * 0.65, cx - s * 0.75, cy + s * 0.25, s * 0.02, darken(p.main, 0.2))
    cv.line(cx + s * 0.2, cy + s * 0.15, cx + s * 0.6, cy - s * 0.35, s * 0.03, LEAF_DARK)
    for (const t of [0.25, 0.5, 0.75])
      cv.ellipse(cx + s * (0.2 + 0.4 * t) + s * 0.07, cy + s * (0.15 - 0.5 * t), s * 0.07, s * 0.04, LEAF)
  },
  'tea-towels'(cv, p, cx, cy, s) {
    cv.line(cx - s * 0.98, cy - s * 0.8, cx + s * 0.98, cy - s * 0.8, s * 0.07, WOOD)
    const colours = [p.main, p.second, lighten(p.accent, 0.2)]
    for (let i = 0; i < 3; i++) {
      const x = cx + (i - 1) * s * 0.64
      cv.halfRing(x, cy - s * 0.78, s * 0.08, s * 0.03, -1, INK)
      cv.roundRect(
        x - s * 0.27,
        cy - s * 0.76,
        s * 0.54,
        s * 1.5,
        s * 0.04,
        i === 2 ? WHITE : lighten(colours[i]!, 0.6),
      )
      if (i === 0)
        for (let r = 0; r < 7; r++)
          for (let c = 0; c < 3; c++)
            if ((r + c) % 2 === 0)
              cv.rect(x - s * 0.27 + c * s * 0.18, cy - s * 0.76 + r * s * 0.21, s * 0.18, s * 0.21, colours[0]!)
      if (i === 1)
        for (let c = 0; c < 4; c++) cv.rect(x - s * 0.22 + c * s * 0.13, cy - s * 0.76, s * 0.05, s * 1.5, colours[1]!)
      if (i === 2) cv.rect(x - s * 0.27, cy + s * 0.45, s * 0.54, s * 0.08, colours[2]!)
    }
  },
  apron(cv, p, cx, cy, s) {
    cv.halfRing(cx, cy - s * 0.68, s * 0.22, s * 0.05, -1, p.second)
    cv.line(cx - s * 0.6, cy - s * 0.1, cx - s * 0.95, cy + s * 0.3, s * 0.05, p.second)
    cv.line(cx + s * 0.6, cy - s * 0.1, cx + s * 0.95, cy + s * 0.3, s * 0.05, p.second)
    cv.polygon(
      [
        [cx - s * 0.3, cy - s * 0.72],
        [cx + s * 0.3, cy - s * 0.72],
        [cx + s * 0.36, cy - s * 0.12],
        [cx - s * 0.36, cy - s * 0.12],
      ],
      p.main,
    )
    cv.polygon(
      [
        [cx - s * 0.6, cy - s * 0.15],
        [cx + s * 0.6, cy - s * 0.15],
        [cx + s * 0.66, cy + s * 0.9],
        [cx - s * 0.66, cy + s * 0.9],
      ],
      p.main,
    )
    cv.roundRect(cx - s * 0.38, cy + s * 0.2, s * 0.76, s * 0.36, s * 0.05, darken(p.main, 0.12))
    cv.line(cx, cy + s * 0.2, cx, cy + s * 0.56, s * 0.02, darken(p.main, 0.3))
  },
  mirror(cv, p, cx, cy, s) {
    cv.line(cx, cy - s * 0.95, cx - s * 0.12, cy - s * 0.55, s * 0.07, [122, 74, 42])
    cv.line(cx, cy - s * 0.95, cx + s * 0.12, cy - s * 0.55, s * 0.07, [122, 74, 42])
    cv.circle(cx, cy - s * 0.95, s * 0.05, METAL)
    cv.circle(cx, cy + s * 0.12, s * 0.72, GLASS)
    cv.circle(cx + s * 0.2, cy + s * 0.3, s * 0.35, lighten(p.accent, 0.5), 0.6)
    cv.line(cx - s * 0.38, cy + s * 0.08, cx - s * 0.08, cy - s * 0.25, s * 0.06, WHITE, 0.8)
    cv.line(cx - s * 0.3, cy + s * 0.28, cx - s * 0.12, cy + s * 0.08, s * 0.04, WHITE, 0.8)
    cv.ring(cx, cy + s * 0.12, s * 0.74, s * 0.07, BRASS)
  },
  'bud-vase'(cv, p, cx, cy, s) {
    cv.line(cx, cy - s * 0.15, cx + s * 0.1, cy - s * 0.75, s * 0.03, LEAF_DARK)
    cv.ellipse(cx - s * 0.08, cy - s * 0.38, s * 0.1, s * 0.05, LEAF)
    for (let i = 0; i < 5; i++) {
      const a = (i * 2 * Math.PI) / 5
      cv.circle(cx + s * 0.1 + Math.cos(a) * s * 0.11, cy - s * 0.82 + Math.sin(a) * s * 0.11, s * 0.09, p.accent)
    }
    cv.circle(cx + s * 0.1, cy - s * 0.82, s * 0.06, FLAME)
    cv.roundRect(cx - s * 0.1, cy - s * 0.25, s * 0.2, s * 0.4, s * 0.06, p.main)
    cv.roundRect(cx - s * 0.32, cy + s * 0.02, s * 0.64, s * 0.84, s * 0.3, p.main)
    cv.line(cx - s * 0.18, cy + s * 0.2, cx - s * 0.18, cy + s * 0.55, s * 0.05, lighten(p.main, 0.4))
  },
  'plant-pot'(cv, _p, cx, cy, s) {
    for (const [x, y, rx, ry] of [
      [-0.35, -0.55, 0.18, 0.36],
      [0.05, -0.75, 0.2, 0.4],
      [0.4, -0.5, 0.18, 0.34],
      [-0.12, -0.4, 0.14, 0.3],
    ] as const) {
      cv.line(cx, cy - s * 0.15, cx + x * s, cy + (y + ry * 0.6) * s, s * 0.03, LEAF_DARK)
      cv.ellipse(cx + x * s, cy + y * s, rx * s, ry * s, LEAF)
      cv.line(cx + x * s, cy + (y - ry * 0.8) * s, cx + x * s, cy + (y + ry * 0.8) * s, s * 0.02, LEAF_DARK)
    }
    cv.ellipse(cx, cy + s * 0.8, s * 0.52, s * 0.08, darken(TERRACOTTA, 0.2))
    cv.polygon(
      [
        [cx - s * 0.48, cy - s * 0.1],
        [cx + s * 0.48, cy - s * 0.1],
        [cx + s * 0.36, cy + s * 0.78],
        [cx - s * 0.36, cy + s * 0.78],
      ],
      TERRACOTTA,
    )
    cv.roundRect(cx - s * 0.56, cy - s * 0.24, s * 1.12, s * 0.2, s * 0.04, darken(TERRACOTTA, 0.1))
  },
  basket(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 0.5, cy - s * 0.72, s * 0.95, s * 0.45, s * 0.16, p.main)
    const dark = darken(RATTAN, 0.28)
    cv.halfRing(cx - s * 0.5, cy - s * 0.42, s * 0.16, s * 0.06, -1, dark)
    cv.halfRing(cx + s * 0.5, cy - s * 0.42, s * 0.16, s * 0.06, -1, dark)
    cv.polygon(
      [
        [cx - s * 0.78, cy - s * 0.38],
        [cx + s * 0.78, cy - s * 0.38],
        [cx + s * 0.6, cy + s * 0.82],
        [cx - s * 0.6, cy + s * 0.82],
      ],
      RATTAN,
    )
    for (let r = 0; r < 6; r++) {
      const y = cy - s * 0.26 + r * s * 0.2
      const half = s * (0.76 - ((y - (cy - s * 0.38)) / (s * 1.2)) * 0.18) - s * 0.04
      for (let x = cx - half + (r % 2) * s * 0.13; x + s * 0.16 <= cx + half; x += s * 0.26)
        cv.roundRect(x, y, s * 0.16, s * 0.08, s * 0.04, dark)
    }
    cv.roundRect(cx - s * 0.82, cy - s * 0.46, s * 1.64, s * 0.16, s * 0.08, dark)
  },
  clock(cv, p, cx, cy, s) {
    cv.circle(cx, cy, s * 0.9, [232, 214, 178])
    cv.ring(cx, cy, s * 0.9, s * 0.06, p.second)
    for (let i = 0; i < 12; i++) {
      const a = (i * Math.PI) / 6
      cv.line(
        cx + Math.sin(a) * s * 0.7,
        cy - Math.cos(a) * s * 0.7,
        cx + Math.sin(a) * s * 0.8,
        cy - Math.cos(a) * s * 0.8,
        s * (i % 3 ? 0.025 : 0.05),
        INK,
      )
    }
    cv.line(cx, cy, cx + s * 0.3, cy - s * 0.32, s * 0.07, INK)
    cv.line(cx, cy, cx - s * 0.14, cy - s * 0.62, s * 0.045, INK)
    cv.line(cx - s * 0.12, cy - s * 0.05, cx + s * 0.52, cy + s * 0.2, s * 0.02, p.main)
    cv.circle(cx, cy, s * 0.06, INK)
  },
  rug(cv, p, cx, cy, s) {
    for (let i = 0; i < 12; i++) {
      const y = cy - s * 0.5 + i * s * 0.091
      cv.line(cx - s * 0.98, y, cx - s * 0.8, y, s * 0.02, darken(p.shadow, 0.2))
      cv.line(cx + s * 0.8, y, cx + s * 0.98, y, s * 0.02, darken(p.shadow, 0.2))
    }
    cv.rect(cx - s * 0.82, cy - s * 0.55, s * 1.64, s * 1.1, p.main)
    cv.rect(cx - s * 0.82, cy - s * 0.45, s * 1.64, s * 0.07, p.second)
    cv.rect(cx - s * 0.82, cy + s * 0.38, s * 1.64, s * 0.07, p.second)
    for (const i of [-1, 0, 1]) {
      const x = cx + i * s * 0.5
      cv.polygon(
        [
          [x, cy - s * 0.28],
          [x + s * 0.22, cy],
          [x, cy + s * 0.28],
          [x - s * 0.22, cy],
        ],
        p.accent,
      )
      cv.polygon(
        [
          [x, cy - s * 0.12],
          [x + s * 0.1, cy],
          [x, cy + s * 0.12],
          [x - s * 0.1, cy],
        ],
        p.second,
      )
    }
  },
  coasters(cv, _p, cx, cy, s) {
    const vein: Rgb = [176, 176, 172]
    for (let i = 0; i < 4; i++) {
      const y = cy + s * 0.55 - i * s * 0.13
      cv.ellipse(cx - s * 0.3, y + s * 0.05, s * 0.5, s * 0.14, CORK)
      cv.ellipse(cx - s * 0.3, y, s * 0.5, s * 0.14, MARBLE)
    }
    cv.path(
      [
        [cx - s * 0.6, cy + s * 0.2],
        [cx - s * 0.35, cy + s * 0.14],
        [cx - s * 0.1, cy + s * 0.2],
      ],
      s * 0.015,
      vein,
    )
    cv.circle(cx + s * 0.45, cy - s * 0.42, s * 0.42, CORK)
    cv.circle(cx + s * 0.45, cy - s * 0.45, s * 0.4, MARBLE)
    cv.path(
      [
        [cx + s * 0.15, cy - s * 0.6],
        [cx + s * 0.35, cy - s * 0.45],
        [cx + s * 0.5, cy - s * 0.5],
        [cx + s * 0.75, cy - s * 0.3],
      ],
      s * 0.02,
      vein,
    )
    cv.path(
      [
        [cx + s * 0.3, cy - s * 0.2],
        [cx + s * 0.45, cy - s * 0.3],
        [cx + s * 0.6, cy - s * 0.7],
      ],
      s * 0.012,
      vein,
    )
  },
  'coat-rack'(cv, p, cx, cy, s) {
    cv.roundRect(cx - s * 0.95, cy - s * 0.6, s * 1.9, s * 0.22, s * 0.04, WOOD)
    for (let i = 0; i < 5; i++) {
      const x = cx - s * 0.76 + i * s * 0.38
      cv.line(x, cy - s * 0.45, x, cy - s * 0.28, s * 0.09, darken(WOOD, 0.15))
      cv.circle(x, cy - s * 0.26, s * 0.065, darken(WOOD, 0.15))
    }
    for (const x of [cx - s * 0.9, cx + s * 0.9]) cv.circle(x, cy - s * 0.49, s * 0.025, METAL)
    const x1 = cx - s * 0.38
    garmentOnPeg(cv, p, x1, cy - s * 0.22, s)
    const x3 = cx + s * 0.38
    cv.path(
      [
        [x3 - s * 0.15, cy + s * 0.12],
        [x3, cy - s * 0.25],
        [x3 + s * 0.15, cy + s * 0.12],
      ],
      s * 0.03,
      p.second,
    )
    cv.roundRect(x3 - s * 0.25, cy + s * 0.1, s * 0.5, s * 0.55, s * 0.05, p.accent)
  },
  garland(cv, p, cx, cy, s) {
    const colours = [p.main, p.second, p.accent, lighten(p.main, 0.3)]
    for (const [row, y0, sag] of [
      [0, -0.55, 0.3],
      [1, 0.0, 0.35],
    ] as const) {
      const at = (t: number) => [cx - s * 0.95 + t * s * 1.9, cy + y0 * s + (1 - (2 * t - 1) ** 2) * sag * s] as const
      const points = Array.from({ length: 21 }, (_, i) => at(i / 20))
      cv.path(points, s * 0.02, INK)
      for (let i = 0; i < 7; i++) {
        const t = (i + 0.5 + row * 0.5) / 7.5
        const [x, y] = at(t)
        cv.polygon(
          [
            [x - s * 0.1, y],
            [x + s * 0.1, y],
            [x, y + s * 0.3],
          ],
          colours[(i + row) % colours.length]!,
        )
      }
    }
  },
} satisfies Record<string, Draw>

function garmentOnPeg(cv: Canvas, p: Palette, x: number, y: number, s: number): void {
  cv.polygon(
    [
      [x - s * 0.12, y],
      [x + s * 0.12, y],
      [x + s * 0.34, y + s * 1.1],
      [x - s * 0.34, y + s * 1.1],
    ],
    p.main,
  )
  cv.polygon(
    [
      [x - s * 0.12, y],
      [x - s * 0.3, y + s * 0.2],
      [x - s * 0.4, y + s * 0.8],
      [x - s * 0.28, y + s * 0.8],
    ],
    darken(p.main, 0.1),
  )
  cv.polygon(
    [
      [x + s * 0.12, y],
      [x + s * 0.3, y + s * 0.2],
      [x + s * 0.4, y + s * 0.8],
      [x + s * 0.28, y + s * 0.8],
    ],
    darken(p.main, 0.1),
  )
  cv.line(x, y + s * 0.05, x, y + s * 1.1, s * 0.02, darken(p.main, 0.3))
  cv.circle(x + s * 0.05, y + s * 0.45, s * 0.025, p.second)
  cv.circle(x + s * 0.05, y + s * 0.7, s * 0.025, p.second)
}

export type Motif = keyof typeof DRAWINGS
export const MOTIFS = Object.keys(DRAWINGS) as Motif[]

/** Draws the product of this kind centred on (cx, cy), about 2s across. */
export function drawProduct(cv: Canvas, motif: Motif, p: Palette, cx: number, cy: number, s: number): void {
  DRAWINGS[motif](cv, p, cx, cy, s)
}
