// Decides an upload's type from its bytes (never from the name or the declared type) and reads
// its pixel size. Only raster formats: SVG can carry script, so it is never accepted.

export type SniffedImage = {
  contentType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/avif'
  width: number | null
  height: number | null
}

const ascii = (b: Uint8Array, from: number, length: number) => String.fromCharCode(...b.subarray(from, from + length))
const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8)
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16)

function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null
    const marker = b[i + 1]!
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2
      continue
    }
    const length = u16be(b, i + 2)
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(b, i + 5), width: u16be(b, i + 7) }
    }
    i += 2 + length
  }
  return null
}

function webpSize(b: Uint8Array): { width: number; height: number } | null {
  const chunk = ascii(b, 12, 4)
  if (chunk === 'VP8X' && b.length >= 30) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 }
  if (chunk === 'VP8 ' && b.length >= 30) return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff }
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }
  }
  return null
}

function avifSize(b: Uint8Array): { width: number; height: number } | null {
  // The first 'ispe' property box carries the image size.
  for (let i = 4; i + 16 <= b.length && i < 4096; i++) {
    if (b[i] === 0x69 && ascii(b, i, 4) === 'ispe') return { width: u32be(b, i + 8), height: u32be(b, i + 12) }
  }
  return null
}

export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  const b = bytes
  if (
    b.length >= 24 &&
    b[0] === 0x89 &&
    ascii(b, 1, 3) === 'PNG' &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  ) {
    return { contentType: 'image/png', width: u32be(b, 16), height: u32be(b, 20) }
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    const size = jpegSize(b)
    return { contentType: 'image/jpeg', width: size?.width ?? null, height: size?.height ?? null }
  }
  if (b.length >= 10 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) {
    return { contentType: 'image/gif', width: u16le(b, 6), height: u16le(b, 8) }
  }
  if (b.length >= 16 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') {
    const size = webpSize(b)
    return { contentType: 'image/webp', width: size?.width ?? null, height: size?.height ?? null }
  }
  if (b.length >= 12 && ascii(b, 4, 4) === 'ftyp' && ['avif', 'avis'].includes(ascii(b, 8, 4))) {
    const size = avifSize(b)
    return { contentType: 'image/avif', width: size?.width ?? null, height: size?.height ?? null }
  }
  return null
}
