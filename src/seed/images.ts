import { createHash } from 'node:crypto'
import { Canvas, type Rgb } from './canvas.ts'
import { encodePng } from './png.ts'
import { drawProduct, type Motif, type Palette } from './product-drawings.ts'

// The demo catalog's generated pictures: product pictures (one drawing per kind of product,
// src/seed/product-drawings.ts), banners and logos, fast enough to run at the first start of
// the embedded database.

export { Canvas, type Rgb } from './canvas.ts'
export { encodePng, readPngHeader, type PngInfo } from './png.ts'
export { MOTIFS, type Motif, type Palette } from './product-drawings.ts'

export type GeneratedImage = {
  bytes: Buffer
  width: number
  height: number
  sha256: string
  contentType: 'image/png'
  byteSize: number
}

// --- palettes ---

const hex = (s: string): Rgb => [parseInt(s.slice(1, 3), 16), parseInt(s.slice(3, 5), 16), parseInt(s.slice(5, 7), 16)]
const pal = (bg: string, main: string, second: string, accent: string, shadow: string): Palette => ({
  bg: hex(bg),
  main: hex(main),
  second: hex(second),
  accent: hex(accent),
  shadow: hex(shadow),
})

// Warm, muted, pleasant combinations; product images pick one by index.
export const PALETTES: readonly Palette[] = [
  pal('#F3E9DC', '#C8553D', '#2F4858', '#F6AE2D', '#E2D4C1'),
  pal('#E8F1EC', '#2A6F60', '#E9C46A', '#264653', '#D3E3DA'),
  pal('#FBEFEA', '#E07A5F', '#3D405B', '#81B29A', '#EED9D0'),
  pal('#EAF0F6', '#33658A', '#F26419', '#86BBD8', '#D5DFEA'),
  pal('#F5F0E1', '#6B705C', '#CB997E', '#A5A58D', '#E6DEC7'),
  pal('#F1ECF6', '#6D597A', '#E56B6F', '#EAAC8B', '#E0D6EA'),
  pal('#FFF4E0', '#D98324', '#443627', '#EFDCAB', '#F0E0C2'),
  pal('#E9F5F2', '#0F7173', '#F05D23', '#E7ECEF', '#D2E8E3'),
  pal('#F4EFEA', '#8C5E58', '#2E4A62', '#D4B483', '#E5DBD2'),
  pal('#EEF2E6', '#3A5A40', '#DDA15E', '#BC6C25', '#DCE3D0'),
  pal('#F7EDE2', '#BC4749', '#386641', '#F2E8CF', '#EADCCB'),
  pal('#E7EEF3', '#1D3557', '#E63946', '#A8DADC', '#D3DEE7'),
]

// view 0: the product on its own; view 1: a closer, shifted crop; view 2: a detail, cropped close.
export type ProductImageSpec = { motif: Motif; palette: number; view: 0 | 1 | 2; seed: number }

export const imageSpecKey = (s: ProductImageSpec): string => `p:${s.motif}:${s.palette}:${s.view}:${s.seed}`

// Small deterministic PRNG (mulberry32).
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// alpha: a canvas whose red channel is the opacity of each pixel (RGBA output), if any.
function encode(cv: Canvas, alpha?: Canvas): GeneratedImage {
  let bytes: Buffer
  if (alpha) {
    const rgba = new Uint8Array(cv.width * cv.height * 4)
    for (let i = 0, j = 0; i < cv.data.length; i += 3, j += 4) {
      rgba[j] = cv.data[i]!
      rgba[j + 1] = cv.data[i + 1]!
      rgba[j + 2] = cv.data[i + 2]!
      rgba[j + 3] = alpha.data[i]!
    }
    bytes = encodePng(cv.width, cv.height, rgba, 4)
  } else bytes = encodePng(cv.width, cv.height, cv.data)
  return {
    bytes,
    width: cv.width,
    height: cv.height,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    contentType: 'image/png',
    byteSize: bytes.length,
  }
}

export const PRODUCT_IMAGE_SIZE = 480

export function productImage(spec: ProductImageSpec): GeneratedImage {
  const size = PRODUCT_IMAGE_SIZE
  const p = PALETTES[spec.palette % PALETTES.length]!
  const rnd = mulberry32(spec.seed * 7919 + spec.view)
  const cv = new Canvas(size, size)
  cv.clear(p.bg)
  // background decoration: a soft disc or a band, placed per seed
  const deco = Math.floor(rnd() * 3)
  if (deco === 0)
    cv.circle(size * (0.2 + rnd() * 0.6), size * (0.2 + rnd() * 0.3), size * (0.25 + rnd() * 0.1), p.shadow)
  else if (deco === 1) cv.rect(0, size * (0.55 + rnd() * 0.15), size, size, p.shadow)
  else cv.roundRect(size * 0.1, size * 0.1, size * 0.8, size * 0.8, size * 0.2, p.shadow)

  if (spec.view === 2) {
    // detail: a close crop of the product itself (its upper left part fills the frame)
    drawProduct(cv, spec.motif, p, size * 0.62, size * 0.66, size * 0.78)
    return encode(cv)
  }
  const scale = spec.view === 1 ? 0.46 : 0.3 + rnd() * 0.04
  const cx = size / 2 + (spec.view === 1 ? size * 0.08 : (rnd() - 0.5) * size * 0.06)
  const cy = size / 2 + (spec.view === 1 ? size * 0.06 : 0)
  const s = size * scale
  cv.ellipse(cx, cy + s * 0.98, s * 0.95, s * 0.12, p.shadow)
  drawProduct(cv, spec.motif, p, cx, cy, s)
  return encode(cv)
}

// A wide banner: layered hills for outdoor stores, arches and discs for home stores.
export type BannerSpec = { style: 'hills' | 'arches'; palette: number; seed: number; width: number; height: number }
export const bannerSpecKey = (s: BannerSpec): string => `b:${s.style}:${s.palette}:${s.seed}:${s.width}x${s.height}`

export function bannerImage(spec: BannerSpec): GeneratedImage {
  const { width: w, height: h } = spec
  const p = PALETTES[spec.palette % PALETTES.length]!
  const rnd = mulberry32(spec.seed)
  const cv = new Canvas(w, h)
  cv.clear(p.bg)
  if (spec.style === 'hills') {
    cv.circle(w * (0.65 + rnd() * 0.2), h * 0.3, h * 0.16, p.accent)
    const layers: Rgb[] = [p.shadow, p.second, p.main]
    layers.forEach((c, li) => {
      const base = h * (0.55 + li * 0.15)
      let x = -w * 0.1
      while (x < w * 1.1) {
        const half = w * (0.12 + rnd() * 0.12)
        const peak = base - h * (0.18 + rnd() * 0.22)
        cv.polygon(
          [
            [x, h],
            [x, base],
            [x + half, peak],
            [x + half * 2, base],
            [x + half * 2, h],
          ],
          c,
        )
        x += half * 1.5
      }
    })
  } else {
    const n = 4
    for (let i = 0; i < n; i++) {
      const cx = w * (0.14 + i * 0.24)
      const c = i % 2 ? p.second : p.main
      const r = h * (0.2 + rnd() * 0.06)
      cv.halfDisc(cx, h * 0.45, r, -1, c)
      cv.rect(cx - r, h * 0.45, r * 2, h * 0.4, c)
      cv.circle(cx + r * 0.6, h * 0.28, h * 0.07, p.accent)
    }
    cv.rect(0, h * 0.85, w, h * 0.15, p.shadow)
  }
  return encode(cv)
}

// A square logo mark: a peak for outdoor stores, a rising sun for home stores.
export type LogoSpec = { style: 'peak' | 'sun'; palette: number; size: number }
export const logoSpecKey = (s: LogoSpec): string => `l:${s.style}:${s.palette}:${s.size}`

export function logoImage(spec: LogoSpec): GeneratedImage {
  const n = spec.size
  const p = PALETTES[spec.palette % PALETTES.length]!
  const cv = new Canvas(n, n)
  // A round mark on a transparent background, so it sits on any header colour.
  cv.clear(p.main)
  const alpha = new Canvas(n, n)
  alpha.circle(n / 2, n / 2, n * 0.46, [255, 255, 255])
  if (spec.style === 'peak') {
    cv.polygon(
      [
        [n * 0.2, n * 0.7],
        [n * 0.42, n * 0.3],
        [n * 0.64, n * 0.7],
      ],
      p.bg,
    )
    cv.polygon(
      [
        [n * 0.45, n * 0.7],
        [n * 0.62, n * 0.42],
        [n * 0.8, n * 0.7],
      ],
      p.accent,
    )
  } else {
    cv.halfDisc(n / 2, n * 0.62, n * 0.24, -1, p.accent)
    cv.rect(n * 0.2, n * 0.64, n * 0.6, n * 0.05, p.bg)
    cv.rect(n * 0.28, n * 0.73, n * 0.44, n * 0.04, p.bg)
  }
  return encode(cv, alpha)
}
