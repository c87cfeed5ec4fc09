import t from 'tap'
import type { Page } from 'playwright-core'
import { createDraft, editorTestApp, editorUrl, launch, merchantPage, selectText, settledValue } from './support.ts'

// Pages, navigation (with sub-links), blocks and images in Chromium: each change is one batch
// the service accepts, and a refused one (a reserved slug, an unsafe sub-link) shows the
// service's message at the field. Blocks are reordered like sections: by dragging their handle
// and by Arrow Up / Arrow Down on it.

declare const document: any

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

t.test('pages, navigation, blocks and images', async (t) => {
  const browser = await launch(t)
  if (!browser) return
  const env = await editorTestApp(t)
  const themeId = await createDraft(env, 'Content draft')
  const doc = async () => (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.document
  let version = (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.version as number
  const saved = async (page: Page, label: string) => {
    version += 1
    await page
      .getByRole('status')
      .filter({ hasText: `Saved version ${version}: ${label}` })
      .waitFor({ state: 'attached' })
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
    t.same(
      (await doc()).pages.map((p: { slug: string; title: string; status: string }) => [p.slug, p.title, p.status]),
      [['about-us', 'About us', 'draft']],
    )
    const pageId = (await doc()).pages[0].id as string
    await page.locator(`#page-${pageId}-status`).selectOption('published')
    await saved(page, 'changed a page')
    t.equal((await doc()).pages[0].status, 'published')
    await page.getByRole('button', { name: 'Edit sections' }).click()
    t.equal(await page.getByLabel('Editing').inputValue(), `page:${pageId}`, 'the outline shows the page')
    await page.getByRole('button', { name: 'Add section', exact: true }).click()
    // Picking the type adds the section at once; it is then edited in place.
    await page.getByRole('button', { name: 'Text', exact: true }).click()
    await saved(page, 'added Text')
    const body = page.getByLabel('Text', { exact: true })
    await body.fill('We make tents.')
    await selectText(body, 'tents')
    await page.getByRole('button', { name: 'Bold', exact: true }).click()
    await body.blur()
    await saved(page, 'changed Text')
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

  await t.test('navigation sub-links: add, rename, link, reorder, delete', async (t) => {
    const n = (await doc()).navigation.length as number
    const last = page.getByRole('group', { name: `Link ${n}`, exact: true })
    await last.getByRole('button', { name: `Add sub-link to link ${n}` }).click()
    await saved(page, 'changed the navigation')
    await last.getByRole('button', { name: `Add sub-link to link ${n}` }).click()
    await saved(page, 'changed the navigation')
    const child = (j: number) => page.getByRole('group', { name: `Sub-link ${n}.${j}`, exact: true })
    await child(1).getByLabel('Text').fill('Our story')
    await child(1).getByLabel('Text').press('Enter')
    await saved(page, 'changed the navigation')
    await child(2).getByLabel('Text').fill('Contact')
    await child(2).getByLabel('Text').press('Enter')
    await saved(page, 'changed the navigation')
    await child(2).getByLabel('Address').fill('/pages/contact')
    await child(2).getByLabel('Address').press('Enter')
    await saved(page, 'changed the navigation')
    t.same(
      (await doc()).navigation.at(-1),
      {
        label: 'About',
        href: '/pages/about-us',
        children: [
          { label: 'Our story', href: '/' },
          { label: 'Contact', href: '/pages/contact' },
        ],
      },
      'two sub-links, renamed and linked',
    )

    await child(2)
      .getByRole('button', { name: `Move sub-link ${n}.2 up` })
      .click()
    await saved(page, 'changed the navigation')
    t.same(
      (await doc()).navigation.at(-1).children.map((c: { label: string }) => c.label),
      ['Contact', 'Our story'],
      'reordered',
    )

    // An unsafe address is refused by the service; its message shows at that sub-link's field.
    const before = (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.version
    const bad = child(2).getByLabel('Address')
    await bad.fill('javascript:alert(1)')
    await bad.press('Enter')
    const field = child(2).locator('.field.has-error', { has: page.getByLabel('Address') })
    await field.waitFor()
    t.match(await field.locator('.error').innerText(), /javascript/i, 'the message is at the sub-link’s address')
    t.equal(await bad.getAttribute('aria-invalid'), 'true')
    t.equal((await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.version, before, 'nothing changed')
    await page.getByRole('button', { name: 'Discard unsaved change' }).click()
    t.equal(await settledValue(child(2).getByLabel('Address'), '/'), '/', 'discarding shows the saved address again')

    await child(1)
      .getByRole('button', { name: `Delete sub-link ${n}.1` })
      .click()
    await saved(page, 'changed the navigation')
    t.same((await doc()).navigation.at(-1).children, [{ label: 'Our story', href: '/' }], 'deleted')
    await child(1)
      .getByRole('button', { name: `Delete sub-link ${n}.1` })
      .click()
    await saved(page, 'changed the navigation')
    t.same(
      (await doc()).navigation.at(-1),
      { label: 'About', href: '/pages/about-us' },
      'the last sub-link gone, the entry has no children key',
    )
    t.equal(
      await child(1)
        .getByRole('button', { name: /Add sub-link/ })
        .count(),
      0,
      'a sub-link cannot have sub-links (two levels, as the schema says)',
    )
  })

  await t.test('blocks: add, select, duplicate, reorder by keyboard and by drag, delete', async (t) => {
    await page.getByLabel('Editing').selectOption('template:home')
    await page.getByRole('button', { name: 'Add section', exact: true }).click()
    await page.getByRole('button', { name: 'FAQ', exact: true }).click()
    await saved(page, 'added FAQ')
    const faq = async () =>
      (await doc()).templates.home.find((s: { type: string }) => s.type === 'faq') as {
        blocks: { id: string; settings: { question: string; answer?: string } }[]
      }
    await page.getByRole('button', { name: 'Add block' }).click()
    await saved(page, 'added a block in FAQ')
    // The new block is selected: its settings are open.
    const settings = (i: number) => page.getByRole('group', { name: `Question ${i} settings` })
    const answer = settings(1).getByLabel('Answer', { exact: true })
    await answer.fill('Within three days.')
    await answer.blur()
    await saved(page, 'changed FAQ')
    t.same((await faq()).blocks[0]!.settings, { question: 'Question', answer: '<p>Within three days.</p>' })
    await settings(1).getByLabel('Question', { exact: true }).fill('How fast do you ship?')
    await settings(1).getByLabel('Question', { exact: true }).press('Enter')
    await saved(page, 'changed FAQ')

    await page.getByRole('button', { name: 'Duplicate Question 1' }).click()
    await saved(page, 'duplicated a block in FAQ')
    await settings(2).waitFor()
    t.pass('the copy is selected')
    await settings(2).getByLabel('Question', { exact: true }).fill('Can I return a tent?')
    await settings(2).getByLabel('Question', { exact: true }).press('Enter')
    await saved(page, 'changed FAQ')
    await page.getByRole('button', { name: 'Add block' }).click()
    await saved(page, 'added a block in FAQ')
    await settings(3).getByLabel('Question', { exact: true }).fill('Do you ship abroad?')
    await settings(3).getByLabel('Question', { exact: true }).press('Enter')
    await saved(page, 'changed FAQ')
    const questions = async () => (await faq()).blocks.map((b) => b.settings.question)
    t.same(await questions(), ['How fast do you ship?', 'Can I return a tent?', 'Do you ship abroad?'])

    // Selecting a block in the list opens its settings (and only its).
    await page.locator('.blocks .select', { hasText: 'Question 1' }).click()
    await settings(1).waitFor()
    t.equal(await page.locator('.block-settings').count(), 1, 'one block’s settings at a time')

    // Every reorder is exactly one applyThemeBatch: an updateSection with the blocks in their new order.
    const batches: any[] = []
    const onRequest = (request: { url(): string; method(): string; postDataJSON(): any }) => {
      if (request.method() === 'POST' && request.url().endsWith('/batch')) batches.push(request.postDataJSON())
    }
    page.on('request', onRequest)
    const handles = page.locator('.blocks .handle')
    t.equal(await handles.count(), 3, 'each block has a drag handle')
    await handles.nth(1).focus()
    await page.keyboard.press('ArrowUp')
    await saved(page, 'moved a block in FAQ')
    t.same(
      await questions(),
      ['Can I return a tent?', 'How fast do you ship?', 'Do you ship abroad?'],
      'Arrow Up on the handle moved the block one place up',
    )
    t.equal(
      await page.evaluate(() => document.activeElement?.dataset?.handle),
      (await faq()).blocks[0]!.id,
      'focus stays on the moved block’s handle',
    )
    t.equal(batches.length, 1, 'one batch')
    t.same(
      batches[0].operations.map((o: { op: string }) => o.op),
      ['updateSection'],
      'of one updateSection',
    )
    await page.keyboard.press('ArrowDown')
    await saved(page, 'moved a block in FAQ')
    t.same(
      await questions(),
      ['How fast do you ship?', 'Can I return a tent?', 'Do you ship abroad?'],
      'Arrow Down moved it back',
    )

    // Drag the last block's handle above the first.
    const from = (await handles.nth(2).boundingBox())!
    const to = (await handles.nth(0).boundingBox())!
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
    await page.mouse.down()
    for (let i = 1; i <= 12; i++)
      await page.mouse.move(from.x + from.width / 2, from.y + ((to.y - 4 - from.y) * i) / 12, { steps: 2 })
    await page.mouse.up()
    await saved(page, 'moved a block in FAQ')
    t.same(
      await questions(),
      ['Do you ship abroad?', 'How fast do you ship?', 'Can I return a tent?'],
      'dragging moved the last block to the top',
    )
    t.equal(batches.length, 3, 'each move was one batch')
    page.off('request', onRequest)
    t.same(
      (await faq()).blocks.find((b) => b.settings.question === 'How fast do you ship?')!.settings.answer,
      '<p>Within three days.</p>',
      'blocks keep their settings when moved',
    )

    await page.locator('.blocks .select', { hasText: 'Question 3' }).click()
    await page.getByRole('button', { name: 'Delete Question 3' }).click()
    await saved(page, 'deleted a block in FAQ')
    t.same(await questions(), ['Do you ship abroad?', 'How fast do you ship?'], 'deleted')

    await page.getByRole('button', { name: 'Undo: deleted a block in faq' }).click()
    await saved(page, 'undid deleted a block in FAQ')
    t.same(
      await questions(),
      ['Do you ship abroad?', 'How fast do you ship?', 'Can I return a tent?'],
      'undo brings the block back',
    )
  })

  await t.test('an image uploaded through the media operation', async (t) => {
    await page.getByRole('button', { name: 'Hero: Welcome to our store', exact: true }).click()
    await page
      .getByRole('group', { name: 'Image' })
      .locator('input[type=file]')
      .setInputFiles({ name: 'tent.png', mimeType: 'image/png', buffer: PNG })
    await saved(page, 'changed Hero')
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
