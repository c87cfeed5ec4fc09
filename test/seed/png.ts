import { crc32, inflateSync } from 'node:zlib'

// An independent PNG reader for tests (not the encoder's own header reader): checks the
// signature, every chunk CRC, IHDR, and that IDAT inflates to exactly the expected bytes.
export type CheckedPng = {
  width: number
  height: number
  bitDepth: number
  colourType: number
  chunks: string[]
  pixels: Uint8Array
}

export function checkPng(input: Uint8Array): CheckedPng {
  const b = Buffer.from(input.buffer, input.byteOffset, input.byteLength)
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  signature.forEach((v, i) => {
    if (b[i] !== v) throw new Error('bad PNG signature')
  })
  let off = 8
  const chunks: string[] = []
  const idat: Buffer[] = []
  let ihdr: Buffer | null = null
  while (off < b.length) {
    const len = b.readUInt32BE(off)
    const type = b.toString('latin1', off + 4, off + 8)
    const data = b.subarray(off + 8, off + 8 + len)
    const crc = b.readUInt32BE(off + 8 + len)
    if (crc32(b.subarray(off + 4, off + 8 + len)) !== crc) throw new Error(`bad CRC in ${type}`)
    chunks.push(type)
    if (type === 'IHDR') ihdr = data
    if (type === 'IDAT') idat.push(data)
    off += 12 + len
    if (type === 'IEND') break
  }
  if (off !== b.length) throw new Error('bytes after IEND')
  if (!ihdr || chunks[0] !== 'IHDR' || ihdr.length !== 13) throw new Error('IHDR must come first')
  const width = ihdr.readUInt32BE(0)
  const height = ihdr.readUInt32BE(4)
  const bitDepth = ihdr[8]!
  const colourType = ihdr[9]!
  if ((colourType !== 2 && colourType !== 6) || bitDepth !== 8) throw new Error('expected 8-bit RGB or RGBA')
  const bpp = colourType === 6 ? 4 : 3
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * bpp
  if (raw.length !== (stride + 1) * height) throw new Error('IDAT size does not match IHDR')
  // Undo the filters (None, Sub, Up, Average, Paeth) to get the pixels back.
  const px = new Uint8Array(stride * height)
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x]!
      const a = x >= bpp ? px[y * stride + x - bpp]! : 0
      const up = y > 0 ? px[(y - 1) * stride + x]! : 0
      const c = x >= bpp && y > 0 ? px[(y - 1) * stride + x - bpp]! : 0
      let pred = 0
      if (f === 1) pred = a
      else if (f === 2) pred = up
      else if (f === 3) pred = (a + up) >> 1
      else if (f === 4) {
        const p = a + up - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - up)
        const pc = Math.abs(p - c)
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? up : c
      } else if (f !== 0) throw new Error(`bad filter ${f}`)
      px[y * stride + x] = (v + pred) & 0xff
    }
  }
  return { width, height, bitDepth, colourType, chunks, pixels: px }
}
