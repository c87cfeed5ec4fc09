import { crc32, deflateSync } from 'node:zlib'

// A tiny PNG encoder (8-bit RGB, no interlace) and a header reader.
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'latin1')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

// rgb: width * height * channels bytes, row-major; 3 channels (RGB) or 4 (RGBA).
export function encodePng(width: number, height: number, rgb: Uint8Array, channels: 3 | 4 = 3): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new RangeError('bad image size')
  if (rgb.length !== width * height * channels) throw new RangeError('pixel buffer does not match the size')
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = channels === 4 ? 6 : 2 // colour type: truecolour, with alpha or without
  ihdr[10] = 0 // deflate
  ihdr[11] = 0 // adaptive filtering
  ihdr[12] = 0 // no interlace
  // Filter "Up" (2) on every row but the first: flat compositions turn into long zero runs.
  const stride = width * channels
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
