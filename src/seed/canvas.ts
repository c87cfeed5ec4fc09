// A small raster canvas for the demo images: flat-colour shapes, anti-aliased by signed
// distance. Every shape is a signed distance function filled inside its bounding box.

export type Rgb = readonly [number, number, number]

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
  // A stroke from (x0, y0) to (x1, y1) with round caps (a capsule).
  line(x0: number, y0: number, x1: number, y1: number, width: number, c: Rgb, opacity = 1): void {
    const dx = x1 - x0
    const dy = y1 - y0
    const len2 = dx * dx + dy * dy || 1
    const r = width / 2
    this.fill(
      (x, y) => {
        const t = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / len2))
        return hypot(x - x0 - t * dx, y - y0 - t * dy) - r
      },
      [Math.min(x0, x1) - r, Math.min(y0, y1) - r, Math.max(x0, x1) + r, Math.max(y0, y1) + r],
      c,
      opacity,
    )
  }

  // The part of a ring on one side of its centre: the upper (dir = -1) or lower (dir = 1) half.
  halfRing(cx: number, cy: number, r: number, thickness: number, dir: 1 | -1, c: Rgb): void {
    const o = r + thickness / 2
    this.fill(
      (x, y) => Math.max(Math.abs(hypot(x - cx, y - cy) - r) - thickness / 2, -(y - cy) * dir),
      dir === 1 ? [cx - o, cy, cx + o, cy + o] : [cx - o, cy - o, cx + o, cy],
      c,
    )
  }

  // A polyline through points, drawn as joined strokes.
  path(points: readonly (readonly [number, number])[], width: number, c: Rgb): void {
    for (let i = 1; i < points.length; i++)
      this.line(points[i - 1]![0], points[i - 1]![1], points[i]![0], points[i]![1], width, c)
  }
}
