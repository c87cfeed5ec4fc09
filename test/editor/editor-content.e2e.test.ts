import t from 'tap'
import type { Page } from 'playwright-core'
import { createDraft, editorTestApp, editorUrl, launch, merchantPage } from './support.ts'

// Pages, navigation, blocks and images in Chromium: each change is a batch the service accepts,
// and a refused one (a reserved slug) shows the service's message at the field.

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

t.test('pages, navigation, blocks and images', async (t) => {
  const browser = await launch(t)
  if (!browser) return
  const env = await editorTestApp(t)
  const themeId = await createDraft(env, 'Content draft')
  const doc = async () => (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.document
  let version = (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.version as number
  const saved = async (page: Page, label: string) => {
    version += 1
    await page.getByRole('status').filter({ hasText: `Saved version ${version}: ${label}` }).waitFor({ state: 'attached' })
  }
  const { page, watch } = await merchantPage(browser, env, env.merchantA)
  await page.goto(editorUrl(env, themeId))

  await t.test('custom pages', async (t) => {
    await page.getByRole('button', { name: 'Custom pages' }).click()
    await page.getByLabel('Title', { exact: true }).fill('Checkout')
    await page.getByLabel('Address: /pages/…', { exact: true }).fill('checkout')
    await page.getByRole('button', { name: 'Create page' }).click()
    await page.locator('.has-error', { hasText: 'reserved' }).waitFor()
    t.pass('a reserved slug is refused at the address field')
    await page.getByLabel('Title', { exact: true }).fill('About us')
    await page.getByLabel('Address: /pages/…', { exact: true }).fill('about-us')
    await page.getByRole('button', { name: 'Create page' }).click()
    await saved(page, 'created page about-us')
    t.same((await doc()).pages.map((p: { slug: string; title: string; status: string }) => [p.slug, p.title, p.status]), [['about-us', 'About us', 'draft']])
    const pageId = (await doc()).pages[0].id as string
    await page.locator(`#page-${pageId}-status`).selectOption('published')
    await saved(page, 'changed a page')
    t.equal((await doc()).pages[0].status, 'published')
    await page.getByRole('button', { name: 'Edit sections' }).click()
    t.equal(await page.getByLabel('Editing').inputValue(), `page:${pageId}`, 'the outline shows the page')
    await page.getByRole('button', { name: 'Add section' }).click()
    await page.getByRole('button', { name: 'Rich text', exact: true }).click()
    await page.getByLabel('Body', { exact: true }).fill('<p>We make <strong>tents</strong>.</p>')
    await page.getByLabel('Body', { exact: true }).blur()
    await page.getByRole('button', { name: 'Add to page' }).click()
    await saved(page, 'added rich-text')
    t.equal((await doc()).pages[0].layout[0].settings.body, '<p>We make <strong>tents</strong>.</p>')
    const frame = (await (await page.waitForSelector('iframe[title="Storefront preview"]')).contentFrame())!
    await frame.getByText('tents').first().waitFor()
    t.pass('the page preview shows the new section')
  })

  await t.test('navigation', async (t) => {
    await page.getByRole('button', { name: 'Navigation' }).click()
    await page.getByRole('button', { name: 'Add link' }).click()
    await saved(page, 'changed the navigation')
    const text = page.getByLabel('Text').last()
    await text.fill('About')
    await text.press('Enter')
    await saved(page, 'changed the navigation')
    const address = page.getByLabel('Address').last()
    await address.fill('/pages/about-us')
    await address.press('Enter')
    await saved(page, 'changed the navigation')
    t.same((await doc()).navigation.at(-1), { label: 'About', href: '/pages/about-us' })
  })

  await t.test('blocks', async (t) => {
    await page.getByLabel('Editing').selectOption('template:home')
    await page.getByRole('button', { name: 'Add section' }).click()
    await page.getByRole('button', { name: 'Faq', exact: true }).click()
    await page.getByRole('button', { name: 'Add to page' }).click()
    await saved(page, 'added faq')
    await page.getByRole('button', { name: 'Add block' }).click()
    await saved(page, 'changed faq')
    await page.getByText('Question 1').click()
    const answer = page.getByLabel('Answer', { exact: true })
    await answer.fill('<p>Within three days.</p>')
    await answer.blur()
    await saved(page, 'changed faq')
    const faq = (await doc()).templates.home.find((s: { type: string }) => s.type === 'faq')
    t.equal(faq.blocks.length, 1)
    t.same(faq.blocks[0].settings, { question: 'Question', answer: '<p>Within three days.</p>' })
    await page.getByRole('button', { name: 'Duplicate Question 1' }).click()
    await saved(page, 'changed faq')
    await page.getByText('Question 2').click()
    await page.getByRole('button', { name: 'Move Question 2 up' }).click()
    await saved(page, 'changed faq')
    const after = (await doc()).templates.home.find((s: { type: string }) => s.type === 'faq')
    t.equal(after.blocks.length, 2, 'duplicated')
    t.same(after.blocks.map((b: { id: string }) => b.id), [after.blocks[0].id, faq.blocks[0].id], 'and moved above the original')
  })

  await t.test('an image uploaded through the media operation', async (t) => {
    await page.getByRole('button', { name: 'Hero: Welcome to our store', exact: true }).click()
    await page.getByRole('group', { name: 'Image' }).locator('input[type=file]').setInputFiles({ name: 'tent.png', mimeType: 'image/png', buffer: PNG })
    await saved(page, 'changed hero')
    const hero = (await doc()).templates.home.find((s: { id: string }) => s.id === 'home-hero')
    t.match(hero.settings.image.url, /^\/media\/[0-9a-f]{64}\.png$/, 'the hero uses the uploaded asset')
    t.equal(hero.settings.image.alt, 'tent')
    t.ok(await page.getByRole('group', { name: 'Image' }).locator('img.thumb').isVisible(), 'its thumbnail shows')
  })

  await t.test('the logo from the media library', async (t) => {
    await page.getByRole('button', { name: 'Colours, font and logo' }).click()
    await page.getByRole('button', { name: 'Logo: choose from library' }).click()
    await page.getByRole('list', { name: 'Media library' }).getByRole('button').first().click()
    await saved(page, 'changed the theme settings')
    t.match((await doc()).theme.logo, /^\/media\/[0-9a-f]{64}\.png$/)
  })

  t.same(watch.problems, [], 'no console errors, failed requests or CSP violations')
})
