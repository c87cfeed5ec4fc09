import { createHash, randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'
import t from 'tap'
import { encodePng } from '../../src/seed/images.ts'
import { pngBytes } from './support/operation-cases.ts'
import { envelopeProblems, makeWorld, type Req } from './support/world.ts'

// uploadMedia: multipart or JSON (dataBase64 / https url). The type is read from the bytes; SVG
// and other non-raster types are refused (415), oversize is refused (413), the same bytes or URL
// register once (201, then 200), unsafe URLs are 400 UNSAFE_CONTENT. Refusals record nothing.

const MiB = 1024 * 1024

type Part = { name: string; value: string | Buffer; filename?: string; type?: string }
function multipart(parts: Part[]): Req {
  const boundary = `----tap${randomBytes(8).toString('hex')}`
  const chunks: Buffer[] = []
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
      ),
    )
    chunks.push(typeof p.value === 'string' ? Buffer.from(p.value) : p.value)
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    method: 'POST',
    url: '/api/v1/media',
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}
const file = (bytes: Buffer, filename = 'image.png', type = 'image/png'): Part => ({
  name: 'file',
  value: bytes,
  filename,
  type,
})
const json = (payload: unknown): Req => ({ method: 'POST', url: '/api/v1/media', payload: payload as object })

const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>',
)
const SVG_PLAIN = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>',
)

// A valid PNG of about `bytes` bytes: a small image with a private ancillary chunk ("raNd") of
// random filler after IHDR, which decoders skip.
const bigPng = (bytes: number) => {
  const small = encodePng(4, 4, new Uint8Array(randomBytes(48)))
  const filler = randomBytes(bytes)
  const chunk = Buffer.alloc(12 + filler.length)
  chunk.writeUInt32BE(filler.length, 0)
  chunk.write('raNd', 4, 'latin1')
  filler.copy(chunk, 8)
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + filler.length)), 8 + filler.length)
  return Buffer.concat([small.subarray(0, 33), chunk, small.subarray(33)])
}

t.test('uploadMedia', async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const refused = async (label: string, req: Req, status: number, code: string) => {
    const events = await w.stateEventCount()
    const res = await w.call(req)
    t.same(envelopeProblems(res, { status, code }), [], `${label}: ${status} ${code} (${res.body.slice(0, 160)})`)
    t.equal(await w.stateEventCount(), events, `${label}: nothing recorded`)
    return res
  }

  await t.test('multipart PNG: 201, the same bytes again: 200', async (t) => {
    const png = pngBytes(42, 8)
    const first = await w.call(multipart([file(png), { name: 'alt', value: 'A tiny test image' }]))
    t.equal(first.statusCode, 201, first.body.slice(0, 300))
    const asset = first.json().data
    const sha = createHash('sha256').update(png).digest('hex')
    t.match(asset, {
      source: 'upload',
      contentType: 'image/png',
      width: 8,
      height: 8,
      byteSize: png.length,
      alt: 'A tiny test image',
    })
    t.equal(asset.url, `http://storefront.test/media/${sha}.png`, 'content-addressed URL')

    const events = await w.eventCount()
    const again = await w.call(multipart([file(png, 'renamed.jpg', 'image/jpeg')]))
    t.equal(again.statusCode, 200, 'the same bytes: 200')
    t.equal(again.json().data.id, asset.id, 'the same asset')
    const viaJson = await w.call(json({ dataBase64: png.toString('base64') }))
    t.equal(viaJson.statusCode, 200, 'the same bytes as dataBase64: 200')
    t.equal(viaJson.json().data.id, asset.id)
    t.equal(await w.eventCount(), events, 'registered once')

    const listed = (await w.setup(w.ids.storeId, { method: 'GET', url: '/api/v1/media?limit=100' })).media
    t.equal(listed.filter((m: any) => m.id === asset.id).length, 1, 'listMedia shows it once')
    const served = await w.app.inject({ method: 'GET', url: `/media/${sha}.png` })
    t.equal(served.statusCode, 200)
    t.equal(served.headers['content-type'], 'image/png')
    t.same(served.rawPayload, png, 'the bytes are served back unchanged')
  })

  await t.test('the type comes from the bytes: SVG and non-images are refused with 415', async (_t) => {
    await refused('multipart SVG', multipart([file(SVG, 'logo.svg', 'image/svg+xml')]), 415, 'UNSUPPORTED_MEDIA_TYPE')
    await refused(
      'multipart SVG named .png',
      multipart([file(SVG_PLAIN, 'logo.png', 'image/png')]),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
    await refused('SVG as dataBase64', json({ dataBase64: SVG.toString('base64') }), 415, 'UNSUPPORTED_MEDIA_TYPE')
    await refused(
      'HTML',
      multipart([file(Buffer.from('<html><script>alert(1)</script></html>'), 'x.png')]),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
    await refused(
      'a PNG signature and nothing else',
      multipart([file(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))]),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
  })

  await t.test('oversize uploads are refused with 413', async (_t) => {
    await refused('multipart over 5 MiB', multipart([file(bigPng(5 * MiB + 64 * 1024))]), 413, 'PAYLOAD_TOO_LARGE')
    await refused(
      'JSON body over the body limit',
      json({ dataBase64: bigPng(6 * MiB).toString('base64') }),
      413,
      'PAYLOAD_TOO_LARGE',
    )
  })

  await t.test('a 3 MiB image is within the documented 5 MiB, by multipart and by dataBase64', async (t) => {
    const png = bigPng(3 * MiB)
    const viaMultipart = await w.call(multipart([file(png)]))
    t.equal(viaMultipart.statusCode, 201, `multipart (${viaMultipart.body.slice(0, 160)})`)
    t.match(viaMultipart.json().data, { contentType: 'image/png', width: 4, height: 4, byteSize: png.length })
    const other = bigPng(3 * MiB)
    const viaJson = await w.call(json({ dataBase64: other.toString('base64') }))
    t.equal(viaJson.statusCode, 201, `dataBase64, documented "at most 5 MiB" (${viaJson.body.slice(0, 160)})`)
  })

  await t.test('malformed uploads: 400', async (_t) => {
    await refused('nothing', json({}), 400, 'VALIDATION_FAILED')
    await refused(
      'two sources',
      json({ url: 'https://cdn.example.com/a.png', dataBase64: pngBytes(1).toString('base64') }),
      400,
      'VALIDATION_FAILED',
    )
    await refused('an empty upload', json({ dataBase64: '' }), 400, 'VALIDATION_FAILED')
    await refused('multipart without a file part', multipart([{ name: 'alt', value: 'x' }]), 400, 'VALIDATION_FAILED')
    await refused('two file parts', multipart([file(pngBytes(2)), file(pngBytes(3))]), 400, 'VALIDATION_FAILED')
    await refused(
      'markup in alt',
      json({ url: 'https://cdn.example.com/alt.png', alt: '<img src=x onerror=alert(1)>' }),
      400,
      'UNSAFE_CONTENT',
    )
    await refused(
      'an unknown field',
      json({ url: 'https://cdn.example.com/u.png', storeId: 'st_demo_lumen' }),
      400,
      'VALIDATION_FAILED',
    )
  })

  await t.test('URL registration: https 201 then 200; unsafe schemes 400 UNSAFE_CONTENT', async (t) => {
    const url = `https://cdn.example.com/banners/${randomBytes(4).toString('hex')}.jpg`
    const first = await w.call(json({ url, alt: 'Banner' }))
    t.equal(first.statusCode, 201, first.body.slice(0, 200))
    t.match(first.json().data, { source: 'url', url, contentType: null, alt: 'Banner' })
    const again = await w.call(json({ url }))
    t.equal(again.statusCode, 200)
    t.equal(again.json().data.id, first.json().data.id)
    for (const unsafe of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:image/png;base64,AAAA',
      'vbscript:msgbox(1)',
      'javascript&colon;alert(1)',
    ]) {
      await refused(`url ${JSON.stringify(unsafe)}`, json({ url: unsafe }), 400, 'UNSAFE_CONTENT')
    }
    for (const notHttps of [
      'http://cdn.example.com/a.png',
      '//cdn.example.com/a.png',
      'ftp://cdn.example.com/a.png',
      '/relative.png',
    ]) {
      const res = await refused(`url ${notHttps}`, json({ url: notHttps }), 400, 'VALIDATION_FAILED')
      t.ok(
        res.json().error.details?.issues?.some((i: any) => i.path === 'url'),
        `${notHttps}: the issue names url`,
      )
    }
  })
})
