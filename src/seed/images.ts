import { createHash } from 'node:crypto'
import { crc32, deflateSync } from 'node:zlib'

// A tiny PNG encoder (8-bit RGB, no interlace) and a procedural image generator for the
// demo catalog: flat-colour compositions, anti-aliased by signed distance, fast enough to
// run at the first start of the embedded database.

export type Rgb = readonly [number, number, number]

export type GeneratedImage = {
  bytes: Buffer
  width: number
  height: number
  sha256: string
  contentType: 'image/png'
  byteSize: number
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'latin1')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

// rgb: width * height * 3 bytes, row-major.
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new RangeError('bad image size')
  if (rgb.length !== width * height * 3) throw new RangeError('pixel buffer does not match the size')
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // colour type: truecolour
  ihdr[10] = 0 // deflate
  ihdr[11] = 0 // adaptive filtering
  ihdr[12] = 0 // no interlace
  // Filter "Up" (2) on every row but the first: flat compositions turn into long zero runs.
  const stride = width * 3
  const raw = Buffer.alloc((stride + 1) * height)
  for (let y = 0; y < height; y++) {
    const o = y * (stride + 1)
    const row = y * stride
    if (y === 0) {
      raw[o] = 0
      raw.set(rgb.subarray(row, row + stride), o + 1)
    } else {
      raw[o] = 2
      const prev = row - stride
      // A row equal to the one above filters to zeros, which raw already holds.
      if (Buffer.compare(rgb.subarray(prev, row), rgb.subarray(row, row + stride)) === 0) continue
      for (let x = 0; x < stride; x++) raw[o + 1 + x] = (rgb[row + x]! - rgb[prev + x]!) & 0xff
    }
  }
  const idat = deflateSync(raw, { level: 6 })
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))])
}

export type PngInfo = { width: number; height: number; bitDepth: number; colourType: number }

// Reads the signature and IHDR; null when the bytes are not a PNG.
export function readPngHeader(bytes: Uint8Array): PngInfo | null {
  if (bytes.length < 33) return null
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (!b.subarray(0, 8).equals(PNG_SIGNATURE)) return null
  if (b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return null
  if (crc32(b.subarray(12, 29)) !== b.readUInt32BE(29)) return null
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), bitDepth: b[24]!, colourType: b[25]! }
}

// --- drawing ---

const hypot = (x: number, y: number): number => Math.sqrt(x * x + y * y)

export class Canvas {
  readonly width: number
  readonly height: number
  readonly data: Uint8Array
  constructor(width: number, height: number) {
    this.width = width
    this.height = height
    this.data = new Uint8Array(width * height * 3)
  }

  clear(c: Rgb): void {
    const d = this.data
    d[0] = c[0]
    d[1] = c[1]
    d[2] = c[2]
    for (let filled = 3; filled < d.length; filled *= 2) d.copyWithin(filled, 0, Math.min(filled, d.length - filled))
  }

  // Fills where sdf < 0, anti-aliased over one pixel, inside the bounding box. Every sdf
  // here is 1-Lipschitz (exact or a lower bound of the distance), so a value d at one pixel
  // decides the next |d| - 0.5 pixels of the row without evaluating them.
  fill(sdf: (x: number, y: number) => number, box: [number, number, number, number], c: Rgb, opacity = 1): void {
    const x0 = Math.max(0, Math.floor(box[0]) - 1)
    const y0 = Math.max(0, Math.floor(box[1]) - 1)
    const x1 = Math.min(this.width, Math.ceil(box[2]) + 1)
    const y1 = Math.min(this.height, Math.ceil(box[3]) + 1)
    for (let y = y0; y < y1; y++) {
      let x = x0
      while (x < x1) {
        const dist = sdf(x + 0.5, y + 0.5)
        if (dist >= 0.5) {
          x += Math.floor(dist - 0.5) + 1
        } else if (dist <= -0.5) {
          const run = Math.min(Math.floor(-dist - 0.5) + 1, x1 - x)
          for (let k = 0; k < run; k++) this.blend((y * this.width + x + k) * 3, c, opacity)
          x += run
        } else {
          this.blend((y * this.width + x) * 3, c, (0.5 - dist) * opacity)
          x++
        }
      }
    }
  }

  private blend(i: number, c: Rgb, a: number): void {
    const d = this.data
    if (a >= 1) {
      d[i] = c[0]
      d[i + 1] = c[1]
      d[i + 2] = c[2]
    } else {
      d[i] = Math.round(d[i]! + (c[0] - d[i]!) * a)
      d[i + 1] = Math.round(d[i + 1]! + (c[1] - d[i + 1]!) * a)
      d[i + 2] = Math.round(d[i + 2]! + (c[2] - d[i + 2]!) * a)
    }
  }

  circle(cx: number, cy: number, r: number, c: Rgb, opacity = 1): void {
    this.fill((x, y) => hypot(x - cx, y - cy) - r, [cx - r, cy - r, cx + r, cy + r], c, opacity)
  }

  ring(cx: number, cy: number, r: number, thickness: number, c: Rgb): void {
    const o = r + thickness / 2
    this.fill((x, y) => Math.abs(hypot(x - cx, y - cy) - r) - thickness / 2, [cx - o, cy - o, cx + o, cy + o], c)
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, c: Rgb, opacity = 1): void {
    const m = Math.min(rx, ry)
    this.fill((x, y) => (hypot((x - cx) / rx, (y - cy) / ry) - 1) * m, [cx - rx, cy - ry, cx + rx, cy + ry], c, opacity)
  }

  roundRect(x: number, y: number, w: number, h: number, r: number, c: Rgb, opacity = 1): void {
    const cx = x + w / 2
    const cy = y + h / 2
    const hx = w / 2 - r
    const hy = h / 2 - r
    this.fill(
      (px, py) => {
        const qx = Math.abs(px - cx) - hx
        const qy = Math.abs(py - cy) - hy
        return hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r
      },
      [x, y, x + w, y + h],
      c,
      opacity,
    )
  }

  rect(x: number, y: number, w: number, h: number, c: Rgb): void {
    this.roundRect(x, y, w, h, 0, c)
  }

  // Convex polygon, points in either winding order.
  polygon(points: readonly (readonly [number, number])[], c: Rgb, opacity = 1): void {
    let area = 0
    for (let i = 0; i < points.length; i++) {
      const [ax, ay] = points[i]!
      const [bx, by] = points[(i + 1) % points.length]!
      area += ax * by - bx * ay
    }
    const sign = area > 0 ? 1 : -1
    const edges = points.map((p, i) => {
      const q = points[(i + 1) % points.length]!
      const dx = q[0] - p[0]
      const dy = q[1] - p[1]
      const len = hypot(dx, dy) || 1
      // outward normal
      const nx = (sign * dy) / len
      const ny = (-sign * dx) / len
      return [nx, ny, nx * p[0] + ny * p[1]] as const
    })
    const xs = points.map((p) => p[0])
    const ys = points.map((p) => p[1])
    this.fill(
      (x, y) => {
        let m = -Infinity
        for (const [nx, ny, d] of edges) {
          const v = nx * x + ny * y - d
          if (v > m) m = v
        }
        return m
      },
      [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
      c,
      opacity,
    )
  }

  // Upper (dir = -1) or lower (dir = 1) half disc.
  halfDisc(cx: number, cy: number, r: number, dir: 1 | -1, c: Rgb): void {
    this.fill(
      (x, y) => Math.max(hypot(x - cx, y - cy) - r, -(y - cy) * dir),
      dir === 1 ? [cx - r, cy, cx + r, cy + r] : [cx - r, cy - r, cx + r, cy],
      c,
    )
  }
}

// --- palettes and motifs ---

export type Palette = { bg: Rgb; main: Rgb; second: Rgb; accent: Rgb; shadow: Rgb }

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

export const MOTIFS = [
  'tent',
  'pack',
  'bottle',
  'mug',
  'lamp',
  'orb',
  'plate',
  'stripes',
  'block',
  'garment',
  'boot',
  'bowl',
  'candle',
  'vase',
  'chair',
  'tool',
] as const
export type Motif = (typeof MOTIFS)[number]

// view 0: the product on its own; view 1: a closer, shifted crop; view 2: a detail pattern.
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

function drawMotif(cv: Canvas, motif: Motif, p: Palette, cx: number, cy: number, s: number): void {
  // s: half the size of the object's box.
  switch (motif) {
    case 'tent': {
      cv.polygon([[cx - s, cy + s * 0.7], [cx, cy - s * 0.8], [cx + s, cy + s * 0.7]], p.main)
      cv.polygon([[cx - s * 0.28, cy + s * 0.7], [cx, cy - s * 0.1], [cx + s * 0.28, cy + s * 0.7]], p.second)
      cv.rect(cx - s * 0.03, cy - s * 0.95, s * 0.06, s * 0.2, p.second)
      break
    }
    case 'pack': {
      cv.ring(cx, cy - s * 0.72, s * 0.28, s * 0.1, p.second)
      cv.roundRect(cx - s * 0.62, cy - s * 0.72, s * 1.24, s * 1.55, s * 0.3, p.main)
      cv.roundRect(cx - s * 0.45, cy + s * 0.15, s * 0.9, s * 0.52, s * 0.14, p.second)
      cv.roundRect(cx - s * 0.62, cy - s * 0.4, s * 1.24, s * 0.1, 0, p.accent)
      break
    }
    case 'bottle': {
      cv.roundRect(cx - s * 0.17, cy - s * 0.95, s * 0.34, s * 0.22, s * 0.05, p.second)
      cv.roundRect(cx - s * 0.38, cy - s * 0.75, s * 0.76, s * 1.65, s * 0.26, p.main)
      cv.roundRect(cx - s * 0.38, cy - s * 0.12, s * 0.76, s * 0.36, 0, p.accent)
      break
    }
    case 'mug': {
      cv.ring(cx + s * 0.55, cy + s * 0.05, s * 0.3, s * 0.12, p.main)
      cv.roundRect(cx - s * 0.65, cy - s * 0.5, s * 1.2, s * 1.25, s * 0.18, p.main)
      cv.roundRect(cx - s * 0.65, cy - s * 0.5, s * 1.2, s * 0.16, s * 0.08, p.second)
      cv.ellipse(cx - s * 0.05, cy - s * 0.85, s * 0.08, s * 0.2, p.accent, 0.7)
      break
    }
    case 'lamp': {
      cv.rect(cx - s * 0.05, cy - s * 0.2, s * 0.1, s * 0.95, p.second)
      cv.roundRect(cx - s * 0.45, cy + s * 0.7, s * 0.9, s * 0.16, s * 0.08, p.second)
      cv.polygon([[cx - s * 0.35, cy - s * 0.9], [cx + s * 0.35, cy - s * 0.9], [cx + s * 0.7, cy - s * 0.15], [cx - s * 0.7, cy - s * 0.15]], p.main)
      cv.circle(cx, cy - s * 0.05, s * 0.12, p.accent)
      break
    }
    case 'orb': {
      cv.circle(cx, cy, s * 0.85, p.main)
      cv.circle(cx - s * 0.28, cy - s * 0.3, s * 0.22, p.accent, 0.8)
      cv.ring(cx, cy, s * 0.85, s * 0.08, p.second)
      break
    }
    case 'plate': {
      cv.circle(cx, cy, s * 0.9, p.main)
      cv.circle(cx, cy, s * 0.62, p.accent)
      cv.ring(cx, cy, s * 0.76, s * 0.05, p.second)
      break
    }
    case 'stripes': {
      cv.roundRect(cx - s * 0.85, cy - s * 0.7, s * 1.7, s * 1.4, s * 0.1, p.main)
      for (let i = 0; i < 4; i++) cv.rect(cx - s * 0.85, cy - s * 0.5 + i * s * 0.32, s * 1.7, s * 0.12, i % 2 ? p.accent : p.second)
      break
    }
    case 'block': {
      cv.roundRect(cx - s * 0.75, cy - s * 0.6, s * 1.5, s * 1.3, s * 0.22, p.main)
      cv.roundRect(cx - s * 0.75, cy - s * 0.6, s * 1.5, s * 0.35, s * 0.18, p.second)
      cv.circle(cx, cy + s * 0.2, s * 0.14, p.accent)
      break
    }
    case 'garment': {
      cv.polygon([[cx - s * 0.45, cy - s * 0.8], [cx + s * 0.45, cy - s * 0.8], [cx + s * 0.55, cy + s * 0.85], [cx - s * 0.55, cy + s * 0.85]], p.main)
      cv.polygon([[cx - s * 0.45, cy - s * 0.8], [cx - s * 0.95, cy - s * 0.35], [cx - s * 0.72, cy - s * 0.05], [cx - s * 0.4, cy - s * 0.3]], p.main)
      cv.polygon([[cx + s * 0.45, cy - s * 0.8], [cx + s * 0.95, cy - s * 0.35], [cx + s * 0.72, cy - s * 0.05], [cx + s * 0.4, cy - s * 0.3]], p.main)
      cv.halfDisc(cx, cy - s * 0.8, s * 0.2, 1, p.bg)
      cv.rect(cx - s * 0.5, cy + s * 0.25, s * 1.02, s * 0.1, p.accent)
      break
    }
    case 'boot': {
      cv.roundRect(cx - s * 0.55, cy - s * 0.8, s * 0.6, s * 1.4, s * 0.12, p.main)
      cv.roundRect(cx - s * 0.55, cy + s * 0.15, s * 1.35, s * 0.55, s * 0.25, p.main)
      cv.roundRect(cx - s * 0.6, cy + s * 0.62, s * 1.45, s * 0.16, s * 0.06, p.second)
      for (let i = 0; i < 3; i++) cv.rect(cx - s * 0.45, cy - s * 0.6 + i * s * 0.22, s * 0.4, s * 0.06, p.accent)
      break
    }
    case 'bowl': {
      cv.halfDisc(cx, cy - s * 0.1, s * 0.85, 1, p.main)
      cv.roundRect(cx - s * 0.9, cy - s * 0.18, s * 1.8, s * 0.14, s * 0.07, p.second)
      cv.roundRect(cx - s * 0.3, cy + s * 0.7, s * 0.6, s * 0.12, s * 0.05, p.second)
      cv.circle(cx - s * 0.3, cy - s * 0.35, s * 0.2, p.accent)
      cv.circle(cx + s * 0.15, cy - s * 0.4, s * 0.24, p.accent, 0.85)
      break
    }
    case 'candle': {
      cv.roundRect(cx - s * 0.5, cy - s * 0.35, s * 1.0, s * 1.15, s * 0.12, p.main)
      cv.roundRect(cx - s * 0.5, cy + s * 0.05, s * 1.0, s * 0.35, 0, p.second)
      cv.rect(cx - s * 0.02, cy - s * 0.5, s * 0.04, s * 0.16, p.second)
      cv.ellipse(cx, cy - s * 0.65, s * 0.1, s * 0.2, p.accent)
      break
    }
    case 'vase': {
      cv.roundRect(cx - s * 0.16, cy - s * 0.9, s * 0.32, s * 0.6, s * 0.08, p.main)
      cv.circle(cx, cy + s * 0.25, s * 0.6, p.main)
      cv.rect(cx - s * 0.58, cy + s * 0.15, s * 1.16, s * 0.1, p.accent)
      cv.circle(cx - s * 0.25, cy - s * 1.0, s * 0.14, p.second)
      cv.circle(cx + s * 0.2, cy - s * 1.05, s * 0.11, p.accent)
      break
    }
    case 'chair': {
      cv.roundRect(cx - s * 0.55, cy - s * 0.85, s * 1.1, s * 0.9, s * 0.15, p.main)
      cv.roundRect(cx - s * 0.65, cy, s * 1.3, s * 0.25, s * 0.1, p.second)
      cv.polygon([[cx - s * 0.55, cy + s * 0.2], [cx - s * 0.4, cy + s * 0.2], [cx - s * 0.55, cy + s * 0.85], [cx - s * 0.7, cy + s * 0.85]], p.second)
      cv.polygon([[cx + s * 0.4, cy + s * 0.2], [cx + s * 0.55, cy + s * 0.2], [cx + s * 0.7, cy + s * 0.85], [cx + s * 0.55, cy + s * 0.85]], p.second)
      break
    }
    case 'tool': {
      cv.roundRect(cx - s * 0.85, cy - s * 0.2, s * 1.7, s * 0.4, s * 0.2, p.main)
      cv.polygon([[cx - s * 0.2, cy - s * 0.2], [cx + s * 0.7, cy - s * 0.75], [cx + s * 0.8, cy - s * 0.6], [cx + s * 0.1, cy - s * 0.2]], p.second)
      cv.circle(cx - s * 0.6, cy, s * 0.08, p.accent)
      cv.circle(cx + s * 0.6, cy, s * 0.08, p.accent)
      break
    }
  }
}

function encode(cv: Canvas): GeneratedImage {
  const bytes = encodePng(cv.width, cv.height, cv.data)
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
  if (deco === 0) cv.circle(size * (0.2 + rnd() * 0.6), size * (0.2 + rnd() * 0.3), size * (0.25 + rnd() * 0.1), p.shadow)
  else if (deco === 1) cv.rect(0, size * (0.55 + rnd() * 0.15), size, size, p.shadow)
  else cv.roundRect(size * 0.1, size * 0.1, size * 0.8, size * 0.8, size * 0.2, p.shadow)

  if (spec.view === 2) {
    // detail: the product's colours as a tiled pattern
    const step = size / 6
    for (let y = 0; y < 6; y++) {
      for (let x = 0; x < 6; x++) {
        const c = (x + y) % 3 === 0 ? p.main : (x + y) % 3 === 1 ? p.second : p.accent
        cv.circle(x * step + step / 2, y * step + step / 2, step * (0.22 + ((x * 3 + y) % 4) * 0.04), c)
      }
    }
    cv.roundRect(size * 0.25, size * 0.25, size * 0.5, size * 0.5, size * 0.08, p.bg)
    drawMotif(cv, spec.motif, p, size / 2, size / 2, size * 0.18)
    return encode(cv)
  }
  const scale = spec.view === 1 ? 0.46 : 0.3 + rnd() * 0.04
  const cx = size / 2 + (spec.view === 1 ? size * 0.08 : (rnd() - 0.5) * size * 0.06)
  const cy = size / 2 + (spec.view === 1 ? size * 0.06 : 0)
  const s = size * scale
  cv.ellipse(cx, cy + s * 0.98, s * 0.95, s * 0.12, p.shadow)
  drawMotif(cv, spec.motif, p, cx, cy, s)
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
        cv.polygon([[x, h], [x, base], [x + half, peak], [x + half * 2, base], [x + half * 2, h]], c)
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
  cv.clear([255, 255, 255])
  cv.circle(n / 2, n / 2, n * 0.46, p.main)
  if (spec.style === 'peak') {
    cv.polygon([[n * 0.2, n * 0.7], [n * 0.42, n * 0.3], [n * 0.64, n * 0.7]], p.bg)
    cv.polygon([[n * 0.45, n * 0.7], [n * 0.62, n * 0.42], [n * 0.8, n * 0.7]], p.accent)
  } else {
    cv.halfDisc(n / 2, n * 0.62, n * 0.24, -1, p.accent)
    cv.rect(n * 0.2, n * 0.64, n * 0.6, n * 0.05, p.bg)
    cv.rect(n * 0.28, n * 0.73, n * 0.44, n * 0.04, p.bg)
  }
  return encode(cv)
}
