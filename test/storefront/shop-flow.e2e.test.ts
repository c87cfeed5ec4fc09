import { mkdirSync } from 'node:fs'
import t from 'tap'
import type { Page, Response } from 'playwright-core'
import { sql } from 'kysely'
import { Browser as DashboardClient, EMAIL_A, passwordOf } from '../dashboard/support.ts'
import { callTool } from '../mcp/support.ts'
import { activeContent, api, draftWithDocument, previewPath, sampleDocument, storeRefs } from '../render/support.ts'
import { testApp } from '../support/app.ts'
import { launchChromium } from '../support/chromium.ts'

// A shopper in Chromium: two products into the cart, a quantity changed, a cash-on-delivery
// checkout as Atlas's configuration asks for it (one field left out first, its message at the
// field), the confirmation. The order is then in the orders API, MCP get_orders and the dashboard;
// the stock went down and the product page says so (the page cache follows the order through the
// change feed). The same flow in a preview places nothing. The confirmation is not reachable by
// order number or id. No page of the flow runs a script. Screenshots of the cart, checkout and
// confirmation at 1280 and 390 px go to test-artifacts/shop/.
//
// Needs Debian's Chromium: apt-get install -y chromium (or CHROMIUM_PATH).

const ARTIFACTS = new URL('../../test-artifacts/shop/', import.meta.url)
const shot = (page: Page, name: string) =>
  page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true })

t.test('cart and cash-on-delivery checkout in Chromium', async (t) => {
  mkdirSync(ARTIFACTS, { recursive: true })
  const live = await testApp(t, { changeFeed: true })
  const { app, services, keyA } = live
  const refs = await storeRefs(app, keyA)
  const single = refs.productRecords.filter((p) => p.variants.length === 1 && p.availableForSale)
  const [first, second] = [single[0]!, single[1]!]
  // The platform sets the first product's stock to 4 (and moves the catalogue version, as it does).
  await sql`update product_variants set inventory_quantity = 4 where variant_id = ${first.variants[0]!.id}`.execute(
    services.db,
  )
  await sql`update stores set catalog_version = catalog_version + 1 where store_id = 'st_demo_atlas'`.execute(
    services.db,
  )
  const draftId = await draftWithDocument(app, keyA, sampleDocument(refs), 'Spring')
  const preview = await previewPath(app, keyA, draftId)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
  const browser = await launchChromium(t)
  if (browser === null) return

  // Every page of the flow: no script may run (CSP script-src 'none', no script element).
  // A page's body is read before the next navigation (flush after each), or the browser drops it.
  const pages: { url: string; csp: string; html: string }[] = []
  let pending: Promise<void>[] = []
  const watch = async (page: Page) => {
    page.on('response', (r: Response) => {
      if (r.request().resourceType() !== 'document' || (r.status() >= 300 && r.status() < 400)) return
      const csp = r.headers()['content-security-policy'] ?? ''
      pending.push(r.text().then((html) => void pages.push({ url: r.url(), csp, html })))
    })
  }
  const flush = async () => {
    const waiting = pending
    pending = []
    await Promise.all(waiting)
  }
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await desktop.newPage()
  await watch(page)
  const ordersBefore = (await api(app, keyA, 'GET', '/api/v1/orders?limit=100')).orders.length

  await t.test('add two products, change a quantity', async (t) => {
    await page.goto(`${origin}/s/atlas/products/${first.id}`)
    await flush()
    t.ok(await page.getByText('Only 4 left').first().isVisible(), 'the product page shows the stock')
    await page.locator('form.buy-form button[type=submit]').first().click()
    await page.waitForURL(/\/s\/atlas\/cart\?added=/)
    await flush()
    t.ok(await page.getByText(`Added to your cart: ${first.title}.`).isVisible())
    await page.goto(`${origin}/s/atlas/products/${second.id}`)
    await flush()
    await page.locator('form.buy-form button[type=submit]').first().click()
    await page.waitForURL(/\/s\/atlas\/cart\?added=/)
    await flush()
    await page.getByLabel('Quantity').first().fill('2')
    await page.getByRole('button', { name: 'Update quantities' }).click()
    await page.waitForURL(/updated=1/)
    await flush()
    t.ok(await page.getByText('Your cart is updated.').isVisible())
    t.ok(await page.getByText('3 items.').isVisible(), 'two of the first, one of the second')
    await page.reload()
    await flush()
    t.equal(await page.getByLabel('Quantity').first().inputValue(), '2', 'the cart survives a reload')
    await shot(page, 'cart-1280')
  })

  let confirmationUrl = ''
  await t.test("check out as Atlas's configuration asks: a missing phone is named at its field", async (t) => {
    await page.getByRole('link', { name: 'Check out' }).click()
    await page.waitForURL(/\/s\/atlas\/checkout$/)
    await flush()
    t.ok(await page.getByText(/Every order is confirmed by a phone call/).isVisible(), 'the confirmation policy')
    t.ok(await page.getByText('Morocco').first().isVisible(), 'the only country, not asked')
    await page.getByLabel('Full name').fill('Salma Idrissi')
    await page.getByLabel('Address', { exact: true }).fill('14 Rue Tarik Ibn Ziad')
    await page.getByLabel('City').fill('Casablanca')
    await page.getByRole('radio', { name: /Standard delivery.*Casablanca & Rabat/ }).check()
    await page.getByLabel('Note for the store').fill('Please call after 18:00.')
    await page.getByRole('button', { name: /Place order/ }).click()
    await page.waitForLoadState('load')
    await flush()
    t.ok(await page.getByRole('alert').isVisible(), 'a summary of the problems')
    t.equal(await page.locator('#f-phone').getAttribute('aria-invalid'), 'true', 'the phone field is marked')
    t.ok(
      await page
        .locator('#f-phone-error')
        .getByText(/Enter a phone number/)
        .isVisible(),
      'its message',
    )
    t.equal(await page.getByLabel('Full name').inputValue(), 'Salma Idrissi', 'what was typed is kept')
    await shot(page, 'checkout-errors-1280')
    await page.getByLabel('Phone number').fill('+212 612 34 56 78')
    await shot(page, 'checkout-1280')
    await page.getByRole('button', { name: /Place order/ }).click()
    await page.waitForURL(/\/s\/atlas\/orders\/[A-Za-z0-9_.-]{50,}$/)
    await flush()
    confirmationUrl = page.url()
    t.ok(await page.getByRole('heading', { level: 1, name: 'Thank you, Salma! Your order is placed.' }).isVisible())
    t.ok(await page.getByText('Order #1021').isVisible(), 'the next number of the store')
    t.ok(await page.getByText('We will call +212 612 34 56 78.').isVisible())
    await shot(page, 'confirmation-1280')
  })

  await t.test('the order is in the orders API, MCP get_orders and the dashboard', async (t) => {
    const orders = (await api(app, keyA, 'GET', '/api/v1/orders?limit=100')).orders
    t.equal(orders.length, ordersBefore + 1)
    const order = orders[0]
    t.match(order, {
      number: 1021,
      status: 'pending',
      paymentMethod: 'cash_on_delivery',
      customerId: null,
      note: 'Please call after 18:00.',
      itemCount: 3,
      shippingAddress: { name: 'Salma Idrissi', phone: '+212 612 34 56 78', city: 'Casablanca', country: 'MA' },
    })
    t.same(
      order.lineItems.map((l: { productId: string; quantity: number }) => [l.productId, l.quantity]),
      [
        [first.id, 2],
        [second.id, 1],
      ],
    )
    const tool = await callTool(live, keyA, 'get_orders', { limit: 1 })
    t.match(tool.structuredContent, { orders: [{ id: order.id, number: 1021, note: 'Please call after 18:00.' }] })
    const merchant = new DashboardClient(app)
    await merchant.signIn(EMAIL_A, await passwordOf(services, EMAIL_A))
    const list = await merchant.get('/dashboard/orders')
    t.match(list.body, /#1021/, 'the Orders page lists it')
    const detail = await merchant.get(`/dashboard/orders/${order.id}`)
    t.match(detail.body, /Please call after 18:00\./, 'its detail shows the note')
    t.match(detail.body, /Salma Idrissi/)
  })

  await t.test('the stock went down and the product page says so', async (t) => {
    const product = (await api(app, keyA, 'GET', `/api/v1/products/${first.id}`)) as {
      variants: { inventoryQuantity: number }[]
    }
    t.equal(product.variants[0]!.inventoryQuantity, 2)
    await page.goto(`${origin}/s/atlas/products/${first.id}`)
    await flush()
    t.ok(await page.getByText('Only 2 left').first().isVisible(), 'the cached page was replaced')
  })

  await t.test('the confirmation is reachable by its link only', async (t) => {
    const order = (await api(app, keyA, 'GET', '/api/v1/orders?limit=1')).orders[0]
    for (const guess of ['1021', '%231021', order.id, order.name]) {
      t.equal((await page.goto(`${origin}/s/atlas/orders/${guess}`))?.status(), 404, `not by ${guess}`)
      await flush()
    }
    t.equal((await page.goto(confirmationUrl))?.status(), 200, 'the link itself')
    await flush()
    t.equal((await page.goto(confirmationUrl.replace('/s/atlas/', '/s/lumen/')))?.status(), 404, 'not in another store')
    await flush()
  })

  await t.test('phone width: cart, checkout and confirmation', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })
    const p = await phone.newPage()
    await watch(p)
    await p.goto(`${origin}/s/atlas/products/${second.id}`)
    await flush()
    await p.locator('form.buy-form button[type=submit]').first().click()
    await p.waitForURL(/cart\?added=/)
    await flush()
    await shot(p, 'cart-390')
    await p.getByRole('link', { name: 'Check out' }).click()
    await p.waitForURL(/checkout$/)
    await flush()
    await shot(p, 'checkout-390')
    await p.goto(confirmationUrl)
    await flush()
    await shot(p, 'confirmation-390')
    await phone.close()
  })

  await t.test("in a preview, the same flow with the draft's design places nothing", async (t) => {
    const before = (await api(app, keyA, 'GET', '/api/v1/orders?limit=100')).orders.length
    const stock = async () =>
      ((await api(app, keyA, 'GET', `/api/v1/products/${second.id}`)) as { variants: { inventoryQuantity: number }[] })
        .variants[0]!.inventoryQuantity
    const stockBefore = await stock()
    await page.goto(`${origin}${preview.path}/products/${second.id}`)
    await flush()
    await page.locator('form.buy-form button[type=submit]').first().click()
    await page.waitForURL(/\/cart\?added=/)
    await flush()
    t.ok(await page.getByText(/^Preview of Spring/).isVisible(), 'the preview banner')
    t.match(await page.locator('body').getAttribute('class'), /preset-modern/, "the draft's design (live is bold)")
    t.ok(await page.getByRole('link', { name: 'Journal' }).first().isVisible(), "the draft's navigation")
    await page.getByRole('link', { name: 'Check out' }).click()
    await page.waitForURL(/\/checkout$/)
    await flush()
    t.ok(await page.getByText(/placing the order here checks it and creates nothing/).isVisible())
    await page.getByLabel('Full name').fill('Salma Idrissi')
    await page.getByLabel('Phone number').fill('+212 612 34 56 78')
    await page.getByLabel('Address', { exact: true }).fill('14 Rue Tarik Ibn Ziad')
    await page.getByLabel('City').fill('Casablanca')
    await page.getByRole('radio', { name: /Express delivery/ }).check()
    await page.getByRole('button', { name: /Place order/ }).click()
    await page.waitForLoadState('load')
    await flush()
    t.ok(await page.getByRole('heading', { level: 1, name: 'Preview: no order was placed' }).isVisible())
    t.ok(await page.getByText(/no order was created and no stock was taken/).isVisible())
    await shot(page, 'preview-placed-1280')
    t.equal((await api(app, keyA, 'GET', '/api/v1/orders?limit=100')).orders.length, before, 'no order')
    t.equal(await stock(), stockBefore, 'no stock taken')
  })

  await t.test('no page of the flow runs a script', async (t) => {
    t.ok(pages.length >= 15, `${pages.length} pages`)
    await flush()
    for (const p of pages) {
      t.match(p.csp, /script-src 'none'/, `${new URL(p.url).pathname}: script-src 'none'`)
      t.same(activeContent(p.html), [], `${new URL(p.url).pathname}: nothing active in the page`)
    }
  })
  await desktop.close()
})
