// An image reduced to a grid of mean colours (checker.ts decodes it once per content hash): the
// mean colour of any region is then a weighted sum over the grid cells it covers, so moving a
// section's text or changing its height needs no new decoding.
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

/** Mean colour of a region given in fractions (0-1) of the image's width and height. */
export function regionMean(grid: ImageGrid, region: Region): Rgb {
  const sum = [0, 0, 0]
  let weight = 0
  for (let row = 0; row < grid.rows; row++) {
    const dy = overlap(row / grid.rows, (row + 1) / grid.rows, region.y0, region.y1)
    if (dy <= 0) continue
    for (let col = 0; col < grid.cols; col++) {
      const dx = overlap(col / grid.cols, (col + 1) / grid.cols, region.x0, region.x1)
      if (dx <= 0) continue
      const w = dx * dy
      const at = (row * grid.cols + col) * 3
      sum[0]! += grid.means[at]! * w
      sum[1]! += grid.means[at + 1]! * w
      sum[2]! += grid.means[at + 2]! * w
      weight += w
    }
  }
  if (weight === 0) return [0, 0, 0]
  return [sum[0]! / weight, sum[1]! / weight, sum[2]! / weight]
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0)
