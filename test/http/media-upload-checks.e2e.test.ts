import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import sharp from 'sharp'
import t from 'tap'
import { encodePng } from '../../src/seed/images.ts'
import { bearer, testApp } from '../support/app.ts'

// An upload is checked once (issue 35 C 11): its EXIF orientation is applied, it is scaled to at
// most 4,096 px on its longest side, its metadata (EXIF with GPS, ICC, XMP) is stripped, and an
// image declaring more pixels than the limit is refused before it is decoded. Its address and its
// duplicate check keep using the hash of the bytes as uploaded.

// A PNG whose header claims width × height (the pixel data is a 4 × 4 image's): a decompression bomb's shape.
function claimedPng(width: number, height: number): Buffer {
  const png = Buffer.from(encodePng(4, 4, new Uint8Array(48)))
  png.writeUInt32BE(width, 16)
  png.writeUInt32BE(height, 20)
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29)
  return png
}

t.test('uploads are checked once', async (t) => {
  const { app, keyA } = await testApp(t, { plugins: false })
  const upload = (bytes: Buffer, alt = 'test') =>
    app.inject({
      method: 'POST',
      url: '/api/v1/media',
      headers: bearer(keyA),
      payload: { dataBase64: bytes.toString('base64'), alt },
    })
  const served = async (url: string) => (await app.inject({ method: 'GET', url: new URL(url).pathname })).rawPayload

  await t.test('EXIF orientation applied, metadata stripped, the address from the upload’s hash', async (t) => {
    // 60 × 20 pixels stored sideways (orientation 6: shown rotated 90°), with EXIF, GPS and an ICC profile.
    const photo = await sharp({ create: { width: 60, height: 20, channels: 3, background: '#c8553d' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'A. Photographer' } }, icc: 'p3' })
      .toBuffer()
    const before = await sharp(photo).metadata()
    t.equal(before.orientation, 6)
    t.ok(before.exif && before.icc, 'the upload carries EXIF and an ICC profile')
    const res = await upload(photo)
    t.equal(res.statusCode, 201, res.body.slice(0, 200))
    const asset = res.json().data
    t.match(asset, { contentType: 'image/jpeg', width: 20, height: 60 }, 'upright: 20 × 60')
    const sha = createHash('sha256').update(photo).digest('hex')
    t.equal(new URL(asset.url).pathname, `/media/${sha}.jpg`, 'addressed by the hash of the bytes as uploaded')
    const kept = await served(asset.url)
    const after = await sharp(kept).metadata()
    t.match(after, { format: 'jpeg', width: 20, height: 60 })
    t.equal(after.orientation, undefined, 'no orientation left to apply')
    t.equal(after.exif, undefined, 'EXIF stripped')
    t.equal(after.icc, undefined, 'ICC profile stripped (converted to sRGB)')
    t.equal(asset.byteSize, kept.length, 'the size is the stored bytes’')

    const again = await upload(photo)
    t.equal(again.statusCode, 200, 'the same upload again is found by its hash')
    t.equal(again.json().data.id, asset.id)
  })

  await t.test('larger than 4,096 px: scaled down, same format', async (t) => {
    const wide = await sharp({ create: { width: 5000, height: 100, channels: 3, background: '#2a6f60' } })
      .png()
      .toBuffer()
    const res = await upload(wide)
    t.equal(res.statusCode, 201, res.body.slice(0, 200))
    t.match(res.json().data, { contentType: 'image/png', width: 4096, height: 82 })
    const meta = await sharp(await served(res.json().data.url)).metadata()
    t.match(meta, { format: 'png', width: 4096, height: 82 })
  })

  await t.test('more pixels than the limit: refused before decoding, nothing recorded', async (t) => {
    const bomb = claimedPng(20_000, 20_000)
    t.ok(bomb.length < 200, `a ${bomb.length}-byte file claiming 400 megapixels`)
    const res = await upload(bomb)
    t.equal(res.statusCode, 413, res.body)
    t.equal(res.json().error.code, 'PAYLOAD_TOO_LARGE')
    t.match(res.json().error.message, /megapixels/)
    const listed = await app.inject({ method: 'GET', url: '/api/v1/media?limit=100', headers: bearer(keyA) })
    t.notOk(
      listed.json().data.media.some((m: { width: number }) => m.width === 20_000),
      'not in the media library',
    )
  })

  await t.test('a damaged image is refused with 415', async (t) => {
    const png = Buffer.from(encodePng(64, 64, new Uint8Array(64 * 64 * 3).fill(90)))
    const cut = png.subarray(0, png.length - 30)
    const res = await upload(Buffer.from(cut))
    t.equal(res.statusCode, 415, res.body)
    t.equal(res.json().error.code, 'UNSUPPORTED_MEDIA_TYPE')
  })
})
