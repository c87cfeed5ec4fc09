import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import sharp from 'sharp'
import t from 'tap'
import { createMediaDerivatives } from '../../src/operations/media-derivatives.ts'
import { testApp } from '../support/app.ts'
import { byTag, elements, parse } from './support.ts'

// Images and delivery (issue 35 C, D): every image of every demo page has a width, a height and a
// srcset, and media-library images come as AVIF and WebP (with the original's format as the
// <img> fallback); copies are made on their first request, once, and served from store after; the
// stylesheet is sent brotli- or gzip-compressed as the client asks.

type Candidate = { url: string; width: number }
const candidates = (srcset: string): Candidate[] =>
  srcset.split(',').map((c) => {
    const [url, descriptor] = c.trim().split(/\s+/)
    return { url: url!, width: Number(descriptor?.replace(/w$/, '')) }
  })

t.test('images and delivery', async (t) => {
  const { app, services } = await testApp(t)
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers })
  const made = async () => {
    const res = await get('/metrics')
    const line = res.body.split('\n').find((l) => l.startsWith('sfts_media_derivatives_total{source="made"}'))
    return line === undefined ? 0 : Number(line.split(' ').at(-1))
  }

  await t.test('every <img> of every demo page has width, height and a srcset', async (t) => {
    let images = 0
    let pictures = 0
    for (const slug of ['atlas', 'lumen']) {
      const sitemap = await get(`/s/${slug}/sitemap.xml`)
      const pages = [...sitemap.body.matchAll(/<loc>http:\/\/storefront\.test([^<]+)<\/loc>/g)].map((m) => m[1]!)
      t.ok(pages.length > 20, `${slug}: ${pages.length} pages from its sitemap`)
      for (const path of [...pages, `/s/${slug}/blog/sample`]) {
        const res = await get(path)
        t.equal(res.statusCode, 200, path)
        const doc = parse(res.body)
        for (const img of byTag(doc, 'img')) {
          images++
          const { width, height, srcset, sizes, src } = img.attribs
          const where = `${path}: ${src}`
          if (!(Number(width) > 0 && Number(height) > 0 && srcset && sizes))
            t.fail(`${where} lacks width, height or srcset`)
          const parent = img.parent as { name?: string; children: unknown[] } | null
          if (src?.startsWith('/media/')) {
            t.equal(parent?.name, 'picture', `${where} is in a <picture>`)
            const types = elements(parent as never, (e) => e.name === 'source').map((s) => s.attribs.type)
            if (types.join() !== 'image/avif,image/webp') t.fail(`${where}: sources ${types.join()}`)
            pictures++
          }
        }
        const lead = elements(doc, (e) => e.name === 'img' && e.attribs.fetchpriority === 'high')
        t.ok(lead.length <= 1, `${path}: at most one lead image`)
        for (const img of byTag(doc, 'img'))
          if (img.attribs.fetchpriority !== 'high' && img.attribs.loading !== 'lazy')
            t.fail(`${path}: ${img.attribs.src} not lazy`)
        const preloads = elements(doc, (e) => e.name === 'link' && e.attribs.rel === 'preload')
        t.equal(preloads.length, lead.length, `${path}: the lead image is preloaded`)
      }
    }
    t.ok(images > 100 && pictures === images, `${images} images, all media-library pictures`)
  })

  const home = parse((await get('/s/atlas')).body)
  const hero = elements(home, (e) => e.name === 'img' && e.attribs.fetchpriority === 'high')[0]!
  const sources = elements(hero.parent as never, (e) => e.name === 'source')
  const avif = candidates(sources.find((s) => s.attribs.type === 'image/avif')!.attribs.srcset!)
  const webp = candidates(sources.find((s) => s.attribs.type === 'image/webp')!.attribs.srcset!)

  await t.test('AVIF and WebP copies, at the width their srcset says', async (t) => {
    const preload = elements(home, (e) => e.name === 'link' && e.attribs.rel === 'preload')[0]!
    t.equal(preload.attribs.type, 'image/avif')
    t.equal(preload.attribs.imagesrcset, sources[0]!.attribs.srcset, 'the preload names the AVIF srcset')
    for (const [list, type, format] of [
      [avif, 'image/avif', 'heif'],
      [webp, 'image/webp', 'webp'],
    ] as const) {
      const pick = list[1]!
      const res = await get(pick.url)
      t.equal(res.statusCode, 200, pick.url)
      t.equal(res.headers['content-type'], type)
      t.match(res.headers['cache-control'], /immutable/)
      const meta = await sharp(res.rawPayload).metadata()
      t.equal(meta.format, format, `${type} bytes`)
      t.equal(meta.width, pick.width, `${pick.width} pixels wide`)
    }
    const fallback = candidates(hero.attribs.srcset!)[0]!
    const png = await get(fallback.url)
    t.equal(png.headers['content-type'], 'image/png', 'the <img> srcset is in the original’s format')
    t.equal((await get(hero.attribs.src!)).statusCode, 200, 'the original still resolves at its address')
  })

  await t.test('a copy is made once: concurrent first requests and later ones do no image work', async (t) => {
    const url = avif.at(-1)!.url
    const before = await made()
    const first = await Promise.all(Array.from({ length: 5 }, () => get(url)))
    t.same(
      first.map((r) => r.statusCode),
      [200, 200, 200, 200, 200],
    )
    t.ok(
      first.every((r) => r.rawPayload.equals(first[0]!.rawPayload)),
      'the same bytes for all',
    )
    t.equal((await made()) - before, 1, 'five concurrent first requests: made once')
    const again = await get(url)
    t.ok(again.rawPayload.equals(first[0]!.rawPayload))
    t.equal((await made()) - before, 1, 'a second request does no image work')

    // Another instance (its own memory) finds it in the database.
    const other = createMediaDerivatives(services.db)
    const [, sha, width] = /\/media\/([0-9a-f]{64})-(\d+)w\.avif$/.exec(url)!
    const stored = await other.get({ sha256: sha!, width: Number(width), format: 'avif' })
    t.ok(stored.ok && Buffer.from(stored.bytes).equals(first[0]!.rawPayload), 'another instance reads the stored copy')
    t.equal((await made()) - before, 1, 'and makes nothing')

    // Two instances asked at once for a copy neither has: one makes it, the other waits for it.
    const fresh = { sha256: sha!, width: avif[0]!.width, format: 'webp' as const }
    const [x, y] = await Promise.all([
      createMediaDerivatives(services.db).get(fresh),
      createMediaDerivatives(services.db).get(fresh),
    ])
    t.ok(x.ok && y.ok && Buffer.from(x.bytes).equals(Buffer.from(y.bytes)), 'both get the copy')
    t.equal((await made()) - before, 2, 'made once across instances')
  })

  await t.test('only listed widths and formats exist', async (t) => {
    const sha = /\/media\/([0-9a-f]{64})/.exec(avif[0]!.url)![1]
    for (const file of [
      `${sha}-161w.avif`,
      `${sha}-5000w.avif`,
      `${sha}-320w.jpg`,
      `${sha}-320w.gif`,
      `${'0'.repeat(64)}-320w.avif`,
    ]) {
      const res = await get(`/media/${file}`)
      t.equal(res.statusCode, 404, file)
    }
  })

  await t.test('the stylesheet is sent brotli- or gzip-compressed, as asked', async (t) => {
    const href = elements(home, (e) => e.name === 'link' && e.attribs.rel === 'stylesheet')[0]!.attribs.href!
    const plain = await get(href)
    t.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: plain')
    const br = await get(href, { 'accept-encoding': 'gzip, deflate, br' })
    t.equal(br.headers['content-encoding'], 'br')
    t.equal(br.headers.vary, 'accept-encoding')
    t.ok(
      br.rawPayload.length < plain.rawPayload.length / 3,
      `${br.rawPayload.length} bytes for ${plain.rawPayload.length}`,
    )
    t.same(brotliDecompressSync(br.rawPayload), plain.rawPayload, 'the same stylesheet')
    const gz = await get(href, { 'accept-encoding': 'br;q=0, gzip' })
    t.equal(gz.headers['content-encoding'], 'gzip', 'br refused with q=0: gzip')
    t.same(gunzipSync(gz.rawPayload), plain.rawPayload)
    const favicon = elements(home, (e) => e.name === 'link' && e.attribs.rel === 'icon')[0]!.attribs.href!
    t.equal((await get(favicon, { 'accept-encoding': 'br' })).headers['content-encoding'], 'br', 'the favicon too')
  })
})
