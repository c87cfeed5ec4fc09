// An image reduced to a grid of mean colours (checker.ts decodes it once per content hash): any
// region is judged from the cells it covers, so moving a section's text or changing its height
// needs no new decoding.
import type { Rgb } from '../theme/color.ts'

export type ImageGrid = {
  /** The image's own size in pixels. */
  width: number
  height: number
  cols: number
  rows: number
  /** Mean sRGB colour (0-255) of each cell, row by row, three numbers per cell. */
  means: readonly number[]
}

export type Region = { x0: number; y0: number; x1: number; y1: number }

/** Mean colours of the cells a region (in fractions, 0-1, of the image) covers for at least a quarter of a cell. */
export function cellsUnder(grid: ImageGrid, r: Region): Rgb[] {
  const out: Rgb[] = []
  for (let row = 0; row < grid.rows; row++) {
    const dy = Math.min((row + 1) / grid.rows, r.y1) - Math.max(row / grid.rows, r.y0)
    if (dy <= 0) continue
    for (let col = 0; col < grid.cols; col++) {
      const dx = Math.min((col + 1) / grid.cols, r.x1) - Math.max(col / grid.cols, r.x0)
      if (dx <= 0 || dx * dy * grid.cols * grid.rows < 0.25) continue
      const at = (row * grid.cols + col) * 3
      out.push([grid.means[at]!, grid.means[at + 1]!, grid.means[at + 2]!])
    }
  }
  return out
}
