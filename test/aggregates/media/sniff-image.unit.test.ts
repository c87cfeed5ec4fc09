import t from 'tap'
import { encodePng } from '../../../src/seed/images.ts'
import { sniffImage } from '../../../src/aggregates/media/sniff-image.ts'

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)))

t.test('types come from the bytes, with their pixel size', async (t) => {
  const png = encodePng(3, 2, new Uint8Array(3 * 2 * 3))
  t.same(sniffImage(png), { contentType: 'image/png', width: 3, height: 2 })
  t.same(sniffImage(bytes('GIF89a', [10, 0, 20, 0], [0, 0, 0])), { contentType: 'image/gif', width: 10, height: 20 })
  // JPEG: SOI, an APP0 segment, then SOF0 with height 0x0102 and width 0x0304.
  const jpeg = bytes(
    [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00],
    [0xff, 0xc0, 0x00, 0x0b, 0x08, 0x01, 0x02, 0x03, 0x04, 0x03, 0x01, 0x11, 0x00],
  )
  t.same(sniffImage(jpeg), { contentType: 'image/jpeg', width: 0x0304, height: 0x0102 })
  const webp = bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8X', [10, 0, 0, 0, 0, 0, 0, 0], [99, 0, 0, 49, 0, 0])
  t.same(sniffImage(webp), { contentType: 'image/webp', width: 100, height: 50 })
  const avif = bytes(
    [0, 0, 0, 20],
    'ftyp',
    'avif',
    [0, 0, 0, 0],
    [0, 0, 0, 20],
    'ispe',
    [0, 0, 0, 0],
    [0, 0, 1, 0],
    [0, 0, 0, 128],
  )
  t.same(sniffImage(avif), { contentType: 'image/avif', width: 256, height: 128 })
})

t.test('anything else is not an image: SVG, HTML, text, truncated headers', async (t) => {
  for (const input of [
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
    '<?xml version="1.0"?><svg/>',
    '<html><script>x</script></html>',
    'GIF8',
    'hello',
    '',
  ]) {
    t.equal(sniffImage(new Uint8Array(Buffer.from(input))), null, JSON.stringify(input))
  }
  t.equal(sniffImage(bytes([0x89], 'PNG')), null, 'a PNG signature alone is not enough')
})
