import { mkdirSync } from 'node:fs'
import t from 'tap'
import { settle } from '../support/browser-settle.ts'
import type { Browser, Page } from 'playwright-core'
import { testApp } from '../support/app.ts'
import { draftWithDocument, formatPrice, previewPath, sampleDocument, storeRefs } from './support.ts'
import { launchChromium } from '../support/chromium.ts'

// A real browser on a preview URL: the draft renders, real prices show, and the page runs
// without console errors or Content-Security-Policy violations. Screenshots (desktop and
// mobile) go to test-artifacts/browser/ (gitignored).
//
// Needs Debian's Chromium: apt-get update && apt-get install -y chromium
// (or CHROMIUM_PATH pointing at another Chromium build).

const ARTIFACTS = new URL('../../test-artifacts/browser/', import.meta.url)
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
] as const

type Watch = { problems: string[]; violations: string[] }

// The few browser globals the page callbacks use (the project compiles without the DOM lib).
type Probe = { setAttribute(name: string, value: string): void; remove(): void }
type BrowserGlobals = {
  document: {
    addEventListener(
      type: 'securitypolicyviolation',
      listener: (e: { violatedDirective: string; blockedURI: string }) => void,
    ): void
    createElement(tag: string): Probe
    body: { append(node: Probe): void }
  }
  getComputedStyle(node: unknown): { fontFamily: string }
  scrollTo(x: number, y: number): void
  __reportCspViolation(text: string): void
}

async function watched(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<{ page: Page; watch: Watch }> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 })
  const page = await context.newPage()
  const watch: Watch = { problems: [], violations: [] }
  await page.exposeFunction('__reportCspViolation', (text: string) => watch.violations.push(text))
  // Injected by the DevTools protocol, so the page's own CSP (script-src 'none') does not apply to it.
  await page.addInitScript(() => {
    const w = globalThis as unknown as BrowserGlobals
    w.document.addEventListener('securitypolicyviolation', (e) =>
      w.__reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`),
    )
  })
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      watch.problems.push(`console ${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => watch.problems.push(`page error: ${error.message}`))
  // A request the page cancels itself (net::ERR_ABORTED: a full-page screenshot resizes the
  // viewport, lazy images start, the test navigates on) is no failure of the service; every
  // image's own load is asserted where it matters.
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText !== 'net::ERR_ABORTED')
      watch.problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`)
  })
  page.on('response', (response) => {
    if (response.status() >= 400) watch.problems.push(`HTTP ${response.status()}: ${response.url()}`)
  })
  return { page, watch }
}

t.test('a preview URL in Chromium', async (t) => {
  mkdirSync(ARTIFACTS, { recursive: true })
  const { app, keyA } = await testApp(t)
  const a = await storeRefs(app, keyA)
  const themeId = await draftWithDocument(app, keyA, sampleDocument(a), 'Spring')
  const { path } = await previewPath(app, keyA, themeId)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const origin = `http://127.0.0.1:${port}`
  const browser = await launchChromium(t)
  if (browser === null) return

  const pick = a.productRecords[0]!
  const pickPrice = formatPrice('fr-MA', pick.priceRange!.min.cents, 'MAD')
  const productUrl = `${origin}${path}/products/${pick.handle}`

  for (const viewport of VIEWPORTS) {
    await t.test(`${viewport.name} ${viewport.width}x${viewport.height}`, async (t) => {
      const { page, watch } = await watched(browser, viewport)

      // The listener works: a style attribute added from outside is refused by the CSP.
      await page.goto(`${origin}${path}`)
      await page.evaluate(() => {
        const w = globalThis as unknown as BrowserGlobals
        const probe = w.document.createElement('div')
        probe.setAttribute('style', 'color: red')
        w.document.body.append(probe)
        probe.remove()
      })
      await page.waitForTimeout(100)
      t.ok(
        watch.violations.some((v) => v.startsWith('style-src')),
        'CSP violations are observed (control)',
      )
      watch.violations.length = 0
      watch.problems.length = 0

      const home = await page.goto(`${origin}${path}`, { waitUntil: 'load' })
      t.equal(home?.status(), 200)
      await page.waitForLoadState('networkidle')
      t.ok(
        await page.getByRole('heading', { level: 1, name: 'Spring on the trail' }).isVisible(),
        'the draft’s hero text is visible',
      )
      t.ok(
        await page.getByText(/^Preview of Spring, version \d+ — not live\.$/).isVisible(),
        'the preview banner is visible and names the version it shows',
      )
      const card = page.locator('[data-section-id="home-picks"] article', { hasText: pick.title })
      await card.scrollIntoViewIfNeeded()
      t.ok(await card.getByText(pickPrice).isVisible(), `a real price is visible (${pick.title}: ${pickPrice})`)
      const images = await page.$$eval('img', (imgs) => imgs.map((i) => i.getAttribute('src')))
      t.ok(images.length > 5, `${images.length} images`)
      const fontFamily = await page.evaluate(() => {
        const w = globalThis as unknown as BrowserGlobals
        return w.getComputedStyle(w.document.body).fontFamily
      })
      t.match(fontFamily, /Inter/, 'the theme’s font token applies (stylesheet and hashed inline style loaded)')
      await settle(page)
      const loaded = await page.$$eval('img', (imgs) => imgs.filter((i) => i.complete && i.naturalWidth > 0).length)
      t.equal(loaded, images.length, 'every image loads')
      await page.screenshot({ path: new URL(`home-${viewport.name}.png`, ARTIFACTS).pathname, fullPage: true })

      const product = await page.goto(productUrl, { waitUntil: 'load' })
      t.equal(product?.status(), 200)
      await page.waitForLoadState('networkidle')
      t.ok(await page.getByRole('heading', { level: 1, name: pick.title }).isVisible(), 'the product title')
      const variant = pick.variants.find((v) => v.availableForSale)!
      t.ok(
        await page
          .locator('.product-info .variant-price:visible, .product-info > .product-price', {
            hasText: formatPrice('fr-MA', variant.price.cents, 'MAD'),
          })
          .first()
          .isVisible(),
        'the selected variant’s price is visible',
      )
      await settle(page)
      await page.screenshot({ path: new URL(`product-${viewport.name}.png`, ARTIFACTS).pathname, fullPage: true })

      // Ordering goes to the shop's cart, inside the preview, without any script.
      await page.getByRole('button', { name: 'Order now, pay on delivery' }).click()
      await page.waitForLoadState('load')
      t.match(page.url(), new RegExp(`${path}/cart\\?added=`), 'the order button adds to the cart')
      t.ok(await page.getByRole('heading', { level: 1, name: 'Your cart' }).isVisible())
      await page.getByRole('link', { name: 'Check out' }).click()
      await page.waitForLoadState('load')
      t.ok(await page.getByRole('heading', { level: 1, name: 'Checkout' }).isVisible())
      await page.screenshot({ path: new URL(`checkout-${viewport.name}.png`, ARTIFACTS).pathname, fullPage: true })

      t.same(watch.violations, [], 'no CSP violations')
      t.same(watch.problems, [], 'no console errors, failed requests or error responses')
      await page.context().close()
    })
  }
})
