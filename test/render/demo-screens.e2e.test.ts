import { mkdirSync } from 'node:fs'
import t from 'tap'
import { settle } from '../support/browser-settle.ts'
import { testApp } from '../support/app.ts'
import { storeRefs } from './support.ts'
import { launchChromium } from '../support/chromium.ts'

// The two demo storefronts in a real browser, as a newcomer first sees them: home, a
// collection, a product and the About page, at desktop and mobile widths. Every image loads,
// nothing errors, no Content-Security-Policy violation. Screenshots go to
// test-artifacts/demo/ (gitignored) for a person to look at.

const ARTIFACTS = new URL('../../test-artifacts/demo/', import.meta.url)
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
] as const

t.test('the demo storefronts in Chromium', async (t) => {
  mkdirSync(ARTIFACTS, { recursive: true })
  const { app, keyA, keyB } = await testApp(t)
  const refs = { atlas: await storeRefs(app, keyA), lumen: await storeRefs(app, keyB) }
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const origin = `http://127.0.0.1:${port}`
  const browser = await launchChromium(t)
  if (browser === null) return

  for (const slug of ['atlas', 'lumen'] as const) {
    const product = refs[slug].productRecords.find((p) => p.images.length > 1)!
    const pages = {
      home: '',
      collection: `/collections/${refs[slug].collectionRecords[0]!.handle}`,
      product: `/products/${product.handle}`,
      about: '/pages/about',
    }
    for (const viewport of VIEWPORTS) {
      await t.test(`${slug} ${viewport.name}`, async (t) => {
        const context = await browser.newContext({ viewport, deviceScaleFactor: 1 })
        const page = await context.newPage()
        const problems: string[] = []
        page.on(
          'console',
          (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`console ${m.type()}: ${m.text()}`),
        )
        page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
        // Requests the page cancels itself (net::ERR_ABORTED, lazy images when it moves on) are
        // no failure; each image's load is asserted below.
        page.on(
          'requestfailed',
          (r) =>
            r.failure()?.errorText !== 'net::ERR_ABORTED' &&
            problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`),
        )
        page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`))
        for (const [name, path] of Object.entries(pages)) {
          const res = await page.goto(`${origin}/s/${slug}${path}`, { waitUntil: 'load' })
          t.equal(res?.status(), 200, `${name} answers 200`)
          await settle(page)
          const [total, loaded] = await page.$$eval('img', (imgs) => [
            imgs.length,
            imgs.filter((i) => i.complete && i.naturalWidth > 0).length,
          ])
          t.equal(loaded, total, `${name}: all ${total} images load`)
          const overflow = await page.evaluate(() => {
            const d = (
              globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
            ).document.documentElement
            return d.scrollWidth - d.clientWidth
          })
          t.ok(overflow <= 0, `${name}: no horizontal scrolling (${overflow}px)`)
          await page.screenshot({
            path: new URL(`${slug}-${name}-${viewport.name}.png`, ARTIFACTS).pathname,
            fullPage: true,
          })
        }
        t.same(problems, [], 'no console errors, failed requests or error responses')
        await context.close()
      })
    }
  }
})
