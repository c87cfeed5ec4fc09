import t from 'tap'
import type { Frame, Page } from 'playwright-core'
import { ARTIFACTS, createDraft, editorTestApp, editorUrl, launch, merchantPage } from './support.ts'

// issue 34 points 9 and 10 in Chromium: a merchant adds a section between two others and sees it
// in the preview in that place before any other click, edits it in place, and never loses typed
// text: leaving a form that holds unsaved text (a click in the preview or the outline, closing
// the tab) asks first.

declare const document: any

async function preview(page: Page, version: number): Promise<Frame> {
  await page.waitForFunction((v) => {
    const frame = document.querySelector('iframe[title="Storefront preview"]')
    const doc = frame?.contentDocument
    return (
      frame?.contentWindow?.location.search === `?v=${v}` &&
      doc?.readyState === 'complete' &&
      doc.querySelector('main') !== null
    )
  }, version)
  return (await (await page.waitForSelector('iframe[title="Storefront preview"]')).contentFrame())!
}
const order = (f: Frame) =>
  f.locator('main [data-section-id]').evaluateAll((els) => els.map((e: any) => e.dataset.sectionId as string))

t.test('add a section between two others, then keep typed text', async (t) => {
  const browser = await launch(t)
  if (!browser) return
  const env = await editorTestApp(t)
  const themeId = await createDraft(env, 'Between draft')
  const doc = async () => (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data
  const { page, watch } = await merchantPage(browser, env, env.merchantA, { width: 1280, height: 800 })
  await page.goto(editorUrl(env, themeId))
  await page.getByRole('heading', { level: 1, name: /Between draft/ }).waitFor()
  const before = (await doc()).document.templates.home as { id: string; type: string }[]
  t.ok(before.length >= 2, 'the starting home page has sections to add between')

  // Choose the place: below the first section, that is between the first and the second.
  await page.locator('.sections .select').first().click()
  await page.getByRole('button', { name: 'Add section below' }).click()
  t.match(
    await page.getByLabel('Where').locator('option:checked').innerText(),
    /^Between Hero: .* and Product grid: /,
    'the place chosen is between the first two sections',
  )
  const version = (await doc()).version as number
  await page.getByRole('button', { name: 'Image banner', exact: true }).click()

  // Nothing else is clicked: the preview shows the new section in that place.
  const frame = await preview(page, version + 1)
  const after = (await doc()).document.templates.home as { id: string; type: string; settings: any }[]
  t.equal(after.length, before.length + 1, 'one section was added')
  t.equal(after[1]!.type, 'image-banner', 'as the second section')
  t.same([after[0]!.id, after[2]!.id], [before[0]!.id, before[1]!.id], 'between the sections it was put between')
  t.same(
    await order(frame),
    after.map((s) => s.id),
    'the preview shows it in that place',
  )
  t.ok(after[1]!.settings.image?.url, 'it starts with a picture of the store, so it is not empty')
  t.equal(after[1]!.settings.height, 'medium', 'and with the renderer’s defaults (src/theme/section-defaults.ts)')
  // Edited in place: its settings are open.
  await page.getByRole('heading', { level: 2, name: /^Image banner/ }).waitFor()
  t.equal(
    await page.locator('.sections li.selected .select').innerText(),
    'Image banner',
    'the new section is selected in the outline',
  )
  await page.screenshot({ path: new URL('editor-added-between.png', ARTIFACTS).pathname })

  // Typed text, not yet saved (no Enter, the field still has the focus), then a click in the preview.
  const heading = page.getByLabel('Heading', { exact: true })
  await heading.fill('Autumn colours')
  await frame.locator(`[data-section-id="${before[0]!.id}"]`).click()
  const question = page.getByRole('alertdialog').filter({ hasText: 'is not saved yet' })
  await question.waitFor()
  t.match(await question.innerText(), /“Heading”/, 'the question names the field')
  await page.screenshot({ path: new URL('editor-unsaved-question.png', ARTIFACTS).pathname })
  await page.getByRole('button', { name: 'Keep editing' }).click()
  t.equal(await heading.inputValue(), 'Autumn colours', 'Keep editing: the text is still there')
  t.match(await page.locator('.settings h2').first().innerText(), /^Image banner/, 'and the same section is open')

  // The outline asks too; this time the text is saved.
  await page.locator('.sections .select').first().click()
  await question.waitFor()
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await page.getByRole('heading', { level: 2, name: /^Hero/ }).waitFor()
  await page
    .getByRole('status')
    .filter({ hasText: `Saved version ${version + 2}` })
    .waitFor({ state: 'attached' })
  t.equal(
    (await doc()).document.templates.home[1].settings.heading,
    'Autumn colours',
    'Save and continue saved the text',
  )

  // Closing the tab with unsaved text: the browser asks.
  await page.getByLabel('Heading', { exact: true }).fill('Not kept')
  let asked = ''
  page.on('dialog', async (dialog) => {
    asked = dialog.type()
    await dialog.dismiss()
  })
  await page.close({ runBeforeUnload: true })
  await new Promise((resolve) => setTimeout(resolve, 500))
  t.equal(asked, 'beforeunload', 'leaving the editor with unsaved text asks first')
  t.same(watch.problems, [], 'no console errors, failed requests or CSP violations')
})
