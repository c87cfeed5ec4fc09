import t from 'tap'
import type { Frame, Page } from 'playwright-core'
import { ARTIFACTS, createDraft, editorTestApp, editorUrl, launch, merchantPage, STORE_A } from './support.ts'

// The main path of issue 11 in a real Chromium: a merchant opens an agent's draft, adds a hero
// and a product grid of two real products, edits, reorders by drag and by keyboard, changes the
// primary colour, sees each change in the preview, reloads and finds everything saved; the
// activity view records each change with channel editor.

// Browser-side callbacks (the project compiles without the DOM library).
declare const document: any

/** Waits until the preview shows the latest version and returns its frame. */
async function preview(page: Page, version: number): Promise<Frame> {
  // The frame's own document, not just its src attribute: the previous page may still be showing.
  await page.waitForFunction((v) => {
    const frame = document.querySelector('iframe[title="Storefront preview"]')
    const doc = frame?.contentDocument
    return (
      frame?.contentWindow?.location.search === `?v=${v}` &&
      doc?.readyState === 'complete' &&
      doc.querySelector('main') !== null
    )
  }, version)
  const handle = await page.waitForSelector('iframe[title="Storefront preview"]')
  return (await handle.contentFrame())!
}

// The sections' titles in outline order (a section's theme-check badges arrive after the page,
// beside the title: not part of it).
const outlineNames = (page: Page) => page.locator('.sections .select > span:first-child').allInnerTexts()

t.test('a merchant edits an agent draft in the editor', async (t) => {
  const browser = await launch(t)
  if (!browser) return
  const env = await editorTestApp(t)
  const themeId = await createDraft(env, 'Spring draft')
  const products = (await env.api('GET', '/api/v1/products?limit=20&status=active')).json.data.products as {
    id: string
    title: string
  }[]
  const [first, second] = products
  const { page, watch } = await merchantPage(browser, env, env.merchantA)
  let version = (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.version as number
  const versionNow = async () => (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.version as number
  // Each change is one batch, one new version; the status line names it.
  const saved = async (page: Page, label: string) => {
    version += 1
    const expected = `Saved version ${version}: ${label}`
    try {
      await page.getByRole('status').filter({ hasText: expected }).waitFor({ state: 'attached' })
    } catch (error) {
      // Say what the editor and the service show instead (this wait has timed out under CI load).
      const shown = await page.getByRole('status').allInnerTexts()
      throw new Error(
        `waited for "${expected}"; the status says ${JSON.stringify(shown)}, the service is at version ${await versionNow()}`,
        { cause: error },
      )
    }
  }

  await page.goto(editorUrl(env, themeId))
  await page.getByRole('heading', { level: 1, name: /Spring draft/ }).waitFor()
  t.same(
    await outlineNames(page),
    ['Hero: Welcome to our store', 'Product grid: New arrivals', 'Text: About us'],
    'the outline lists the home sections',
  )

  // Add a hero.
  await page.getByRole('button', { name: 'Add section', exact: true }).click()
  await page.getByRole('button', { name: 'Hero', exact: true }).click()
  await saved(page, 'added Hero')
  // Added at once, at the end (nothing was selected), and open for editing in place.
  await page.locator('.settings h2', { hasText: /^Hero(: Heading)?$/ }).waitFor()
  await page.getByLabel('Heading', { exact: true }).fill('Spring on the trail')
  await page.getByLabel('Heading', { exact: true }).press('Enter')
  await saved(page, 'changed Hero')
  let frame = await preview(page, await versionNow())
  t.ok(await frame.getByText('Spring on the trail').first().isVisible(), 'the new hero shows in the preview')

  // Add a product grid and pick two real products.
  await page.getByRole('button', { name: 'Add section', exact: true }).click()
  await page.getByRole('button', { name: 'Product grid', exact: true }).click()
  await saved(page, 'added Product grid')
  await page.getByLabel('Products to show').selectOption('manual')
  await page.locator('.field.has-error', { hasText: 'productIds (at least one) is required' }).waitFor()
  t.pass('choosing manual without products shows the service’s message at the product field')
  const search = page.getByPlaceholder('Search products')
  await search.fill(first!.title.slice(0, 6))
  await page.getByRole('button', { name: `Add ${first!.title}` }).click()
  await saved(page, 'changed Product grid')
  await search.fill(second!.title.slice(0, 6))
  await page.getByRole('button', { name: `Add ${second!.title}` }).click()
  await saved(page, 'changed Product grid')
  frame = await preview(page, await versionNow())
  const grid = (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.document.templates.home.find(
    (s: { type: string; settings: { source: string } }) => s.type === 'product-grid' && s.settings.source === 'manual',
  )
  t.same(grid.settings.productIds, [first!.id, second!.id], 'the grid holds the two chosen products')
  for (const p of [first!, second!])
    t.ok(
      await frame.locator(`[data-section-id="${grid.id}"]`).getByText(p.title).first().isVisible(),
      `the preview grid shows ${p.title}`,
    )

  // Edit the heading of the new hero.
  await page.getByRole('button', { name: 'Hero: Spring on the trail', exact: true }).click()
  // The product grid's form also has a Heading: fill it only once the hero's form is shown.
  await page.getByRole('heading', { level: 2, name: 'Hero: Spring on the trail' }).waitFor()
  await page.getByLabel('Heading', { exact: true }).fill('Summer on the trail')
  await page.getByLabel('Heading', { exact: true }).press('Enter')
  await saved(page, 'changed Hero')
  frame = await preview(page, await versionNow())
  t.ok(await frame.getByText('Summer on the trail').first().isVisible(), 'the edited heading shows in the preview')

  await page.screenshot({ path: new URL('editor-desktop.png', ARTIFACTS).pathname })

  // Reorder by drag: the new grid (last) above the first section.
  const before = await outlineNames(page)
  const handles = page.locator('.sections .handle')
  const from = (await handles.nth(before.length - 1).boundingBox())!
  const to = (await handles.nth(0).boundingBox())!
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
  await page.mouse.down()
  for (let i = 1; i <= 12; i++)
    await page.mouse.move(from.x + from.width / 2, from.y + ((to.y - 4 - from.y) * i) / 12, { steps: 2 })
  await page.mouse.up()
  await saved(page, 'moved a section')
  const dragged = await outlineNames(page)
  t.equal(dragged[0], before.at(-1), `dragging moved "${before.at(-1)}" to the top`)
  frame = await preview(page, await versionNow())
  const order = async (f: Frame) =>
    f.locator('main [data-section-id]').evaluateAll((els) => els.map((e: any) => e.dataset.sectionId))
  const doc = async () => (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.document
  t.same(
    await order(frame),
    (await doc()).templates.home.map((s: { id: string }) => s.id),
    'the preview shows the new order',
  )

  // Reorder by keyboard: the top section one down.
  await handles.nth(0).focus()
  await page.keyboard.press('ArrowDown')
  await saved(page, 'moved a section')
  const keyed = await outlineNames(page)
  t.same(keyed.slice(0, 2), [dragged[1], dragged[0]], 'Arrow Down on the handle moved the section one place down')
  t.equal(
    await page.evaluate(() => document.activeElement?.className),
    'handle',
    'focus stays on the moved section’s handle',
  )
  frame = await preview(page, await versionNow())
  t.same(
    await order(frame),
    (await doc()).templates.home.map((s: { id: string }) => s.id),
    'the preview follows',
  )

  // Change the primary colour.
  await page.getByRole('button', { name: 'Colours, font and logo' }).click()
  await page.getByLabel('Main colour', { exact: true }).fill('#b91c1c')
  await page.getByLabel('Main colour', { exact: true }).press('Enter')
  await saved(page, 'changed the theme settings')
  frame = await preview(page, await versionNow())
  t.match(await frame.content(), /#b91c1c/i, 'the preview uses the new primary colour')

  // Select a section by clicking it in the preview.
  const richText = (await doc()).templates.home.find((s: { type: string }) => s.type === 'rich-text')
  await frame.locator(`[data-section-id="${richText.id}"]`).click()
  await page.getByRole('heading', { level: 2, name: 'Text: About us' }).waitFor()
  t.pass('clicking a section in the preview selects it')

  // Reload: everything persisted.
  const expected = await outlineNames(page)
  await page.reload()
  await page.getByRole('heading', { level: 1, name: /Spring draft/ }).waitFor()
  t.same(await outlineNames(page), expected, 'after a reload the outline is the same')
  const final = await doc()
  t.equal(final.theme.primaryColor, '#b91c1c')
  t.ok(
    final.templates.home.some((s: { settings: { heading?: string } }) => s.settings.heading === 'Summer on the trail'),
  )

  // The activity view lists the merchant's changes with channel editor.
  const rows = await env.services.db
    .selectFrom('developer_activity')
    .selectAll()
    .where('theme_id', '=', themeId)
    .where('store_id', '=', STORE_A)
    .orderBy('first_position')
    .execute()
  const editorRows = rows.filter((r) => r.channel === 'editor')
  t.ok(editorRows.length >= 7, `${editorRows.length} editor changes in the activity view`)
  t.ok(
    editorRows.every((r) => r.credential_kind === 'merchant' && r.credential_id === env.merchantA),
    'each recorded with the merchant as actor',
  )
  t.ok(
    editorRows.some((r) => r.outcome === 'rejected'),
    'the refused change (manual without products) is recorded as rejected',
  )

  t.same(watch.problems, [], 'no console errors, failed requests or CSP violations')
})
