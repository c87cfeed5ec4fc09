import t from 'tap'
import {
  bannerImage,
  Canvas,
  encodePng,
  logoImage,
  MOTIFS,
  mulberry32,
  productImage,
  readPngHeader,
} from '../../src/seed/images.ts'
import { checkPng } from './png.ts'

t.test('encodePng round-trips pixels through an independent decoder', async (t) => {
  const w = 7
  const h = 5
  const rgb = new Uint8Array(w * h * 3)
  const rnd = mulberry32(42)
  for (let i = 0; i < rgb.length; i++) rgb[i] = Math.floor(rnd() * 256)
  // two equal rows in a row exercise the zero-row shortcut of the Up filter
  rgb.copyWithin(3 * w * 3, 2 * w * 3, 3 * w * 3)
  const png = encodePng(w, h, rgb)
  const decoded = checkPng(png)
  t.same([decoded.width, decoded.height, decoded.bitDepth, decoded.colourType], [w, h, 8, 2])
  t.same(decoded.chunks, ['IHDR', 'IDAT', 'IEND'])
  t.ok(Buffer.from(decoded.pixels).equals(Buffer.from(rgb)), 'same pixels back')
  t.same(readPngHeader(png), { width: w, height: h, bitDepth: 8, colourType: 2 })
  t.equal(readPngHeader(png.subarray(0, 20)), null, 'truncated')
  const bad = Buffer.from(png)
  bad[1] = 0
  t.equal(readPngHeader(bad), null, 'bad signature')
  t.throws(() => encodePng(2, 2, new Uint8Array(5)), RangeError)
  t.throws(() => encodePng(0, 2, new Uint8Array(0)), RangeError)
})

t.test('product images: 480x480, valid, deterministic, different per product', async (t) => {
  const seen = new Set<string>()
  for (const [i, motif] of MOTIFS.entries()) {
    const img = productImage({ motif, palette: i, view: 0, seed: i })
    const png = checkPng(img.bytes)
    t.same([png.width, png.height], [480, 480], motif)
    t.equal(img.byteSize, img.bytes.length)
    t.match(img.sha256, /^[0-9a-f]{64}$/)
    seen.add(img.sha256)
    // not a blank canvas: several distinct colours
    const colours = new Set<number>()
    for (let p = 0; p < png.pixels.length; p += 3 * 97)
      colours.add((png.pixels[p]! << 16) | (png.pixels[p + 1]! << 8) | png.pixels[p + 2]!)
    t.ok(colours.size >= 3, `${motif} has a composition`)
  }
  t.equal(seen.size, MOTIFS.length, 'every motif looks different')
  const a = productImage({ motif: 'tent', palette: 1, view: 0, seed: 9 })
  const b = productImage({ motif: 'tent', palette: 1, view: 0, seed: 9 })
  t.equal(a.sha256, b.sha256, 'same spec, same bytes')
  t.not(
    productImage({ motif: 'tent', palette: 1, view: 0, seed: 10 }).sha256,
    a.sha256,
    'another product, another image',
  )
  for (const view of [1, 2] as const) t.ok(checkPng(productImage({ motif: 'mug', palette: 3, view, seed: 1 }).bytes))
})

t.test('banners and logos are valid PNGs of the requested size', async (t) => {
  const banner = checkPng(bannerImage({ style: 'hills', palette: 2, seed: 1, width: 1200, height: 480 }).bytes)
  t.same([banner.width, banner.height], [1200, 480])
  const arches = checkPng(bannerImage({ style: 'arches', palette: 5, seed: 2, width: 600, height: 240 }).bytes)
  t.same([arches.width, arches.height], [600, 240])
  for (const style of ['peak', 'sun'] as const) {
    const logo = checkPng(logoImage({ style, palette: 0, size: 256 }).bytes)
    t.same([logo.width, logo.height], [256, 256])
  }
})

t.test('the canvas anti-aliases edges and fills interiors', async (t) => {
  const cv = new Canvas(40, 40)
  cv.clear([255, 255, 255])
  cv.circle(20, 20, 10, [0, 0, 0])
  const at = (x: number, y: number) => cv.data[(y * 40 + x) * 3]!
  t.equal(at(20, 20), 0, 'centre filled')
  t.equal(at(2, 2), 255, 'outside untouched')
  const edge = at(29, 20)
  t.ok(edge >= 0 && edge <= 255)
  let partial = 0
  for (let x = 0; x < 40; x++) for (let y = 0; y < 40; y++) if (at(x, y) > 0 && at(x, y) < 255) partial++
  t.ok(partial > 10, 'partially covered pixels along the edge')
})

t.test('mulberry32 is deterministic and uniform enough', async (t) => {
  const a = mulberry32(7)
  const b = mulberry32(7)
  const xs = Array.from({ length: 1000 }, () => a())
  t.same(
    Array.from({ length: 1000 }, () => b()),
    xs,
  )
  t.ok(xs.every((x) => x >= 0 && x < 1))
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length
  t.ok(Math.abs(mean - 0.5) < 0.05)
})

t.test('each demo product gets a picture of its own kind', async (t) => {
  const { buildDemoCatalog } = await import('../../src/seed/demo-catalog.ts')
  const motifOf = new Map<string, string>()
  for (const store of buildDemoCatalog()) {
    const byMotif = new Map<string, Set<string>>()
    for (const p of store.products) {
      const spec = p.images[0]!.image
      if (spec.kind !== 'product') continue
      t.ok(
        p.images.every((i) => i.image.kind === 'product' && i.image.spec.motif === spec.spec.motif),
        `${p.title}: every view shows the same kind`,
      )
      motifOf.set(p.title, spec.spec.motif)
      byMotif.set(spec.spec.motif, (byMotif.get(spec.spec.motif) ?? new Set()).add(p.productType))
    }
    for (const [motif, types] of byMotif)
      t.equal(
        types.size,
        1,
        `${store.name}: the ${motif} drawing is used for one product type only (${[...types].join(', ')})`,
      )
  }
  // The mismatches the demo once had: each of these now has a drawing of its own.
  t.equal(motifOf.get('Polarized Sport Sunglasses'), 'sunglasses')
  t.equal(motifOf.get('Rattan Storage Basket'), 'basket')
  t.equal(motifOf.get('Wooden Coat Rack'), 'coat-rack')
  t.equal(motifOf.get('Two-Person Cook Set'), 'cook-set')
  t.equal(motifOf.get('Multi-Tool 14-in-1'), 'multi-tool')
  t.ok(
    new Set(motifOf.values()).size >= 60,
    `${new Set(motifOf.values()).size} kinds of drawing for ${motifOf.size} products`,
  )
})
