import t from 'tap'
import { ARTIFACTS, createDraft, editorTestApp, editorUrl, launch, merchantPage } from './support.ts'

// issue 34 point 11 in Chromium: a link field offers the home page, the theme's pages, collections
// and products by name (searchable) or a typed address, says where its link leads, and flags a
// link to something that does not exist; an image held as an address alone (the logo) shows its
// thumbnail.

t.test('link pickers and image thumbnails', async (t) => {
  const browser = await launch(t)
  if (!browser) return
  const env = await editorTestApp(t)
  const themeId = await createDraft(env, 'Links draft')
  const product = (await env.api('GET', '/api/v1/products?limit=1&status=active')).json.data.products[0] as {
    handle: string
    title: string
  }
  const theme = async () => (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data
  const hero = async () => (await theme()).document.templates.home.find((s: { type: string }) => s.type === 'hero')
  const { page, watch } = await merchantPage(browser, env, env.merchantA, { width: 1280, height: 900 })
  await page.goto(editorUrl(env, themeId))
  await page
    .getByRole('button', { name: /^Hero: /, exact: false })
    .first()
    .click()
  const button = page.getByRole('group', { name: 'Main button' })
  const saved = (v: number) =>
    page
      .getByRole('status')
      .filter({ hasText: `Saved version ${v}` })
      .waitFor({ state: 'attached' })

  // Pick a product by searching its name.
  let version = (await theme()).version as number
  await button.getByRole('button', { name: /^Choose a link/ }).click()
  await button.getByLabel('Search pages, collections and products').fill(product.title.slice(0, 6))
  t.equal(await button.getByRole('button', { name: 'Home page' }).count(), 0, 'only what matches the search is listed')
  await button.getByRole('button', { name: new RegExp(product.title) }).click()
  await saved(++version)
  t.equal((await hero()).settings.primaryButton.href, `/products/${product.handle}`, 'the link leads to the product')
  await button.getByText(`Leads to: Product: ${product.title}`).waitFor()
  t.pass('the field says, by name, where the link leads')

  // The home page is always offered.
  await button.getByRole('button', { name: /^Choose a link/ }).click()
  await button.getByRole('button', { name: /Home page/ }).click()
  await saved(++version)
  t.equal((await hero()).settings.primaryButton.href, '/', 'the link leads home')

  // A typed link to a page the theme does not have is flagged at the field.
  const link = button.getByLabel('Link', { exact: true })
  await link.fill('/pages/no-such-page')
  await link.press('Enter')
  await saved(++version)
  const flag = button.locator('.error', { hasText: 'There is no page “no-such-page” in this theme' })
  await flag.waitFor()
  t.pass('a link to a page that does not exist is flagged')
  t.match(String(await link.getAttribute('aria-describedby')), /-meaning/, 'the flag describes the field')
  await link.fill('/products/not-a-product')
  await link.press('Enter')
  await saved(++version)
  await button.locator('.error', { hasText: 'Your store has no product “not-a-product”' }).waitFor()
  t.pass('a link to a product that does not exist is flagged')
  await link.fill('https://example.com/lookbook')
  await link.press('Enter')
  await saved(++version)
  await button.getByText('Leads to: Another website: https://example.com/lookbook').waitFor()
  t.pass('an outside address is kept as typed')
  await page.screenshot({ path: new URL('editor-link-picker.png', ARTIFACTS).pathname })

  // The logo, an image held as an address: chosen from the library, shown as a thumbnail.
  await page.getByRole('button', { name: 'Colours, font and logo' }).click()
  await page.getByRole('button', { name: 'Logo: choose from library' }).click()
  await page.getByRole('list', { name: 'Media library' }).getByRole('button').first().click()
  await saved(++version)
  const logo = (await theme()).document.theme.logo as string
  t.equal(
    await page.getByRole('img', { name: 'Current logo' }).getAttribute('src'),
    logo,
    'the logo shows as a thumbnail',
  )
  t.same(watch.problems, [], 'no console errors, failed requests or CSP violations')
})
