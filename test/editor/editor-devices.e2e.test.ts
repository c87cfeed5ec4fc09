import t from 'tap'
import type { Page } from 'playwright-core'
import { ARTIFACTS, createDraft, editorTestApp, editorUrl, launch, merchantPage } from './support.ts'

// issue 34 point 8: each device button lays the storefront out at that device's width in CSS
// pixels (Desktop 1,280, Tablet 768, Mobile 390), scaled down to fit the preview pane, never
// clipped; and the editor itself never scrolls sideways, at 1280 or at 390 px.

declare const document: any
declare const window: any

type Frame = { innerWidth: number; menuShown: boolean; box: Box; stage: Box }
type Box = { left: number; right: number; top: number; width: number }

async function frameFacts(page: Page): Promise<Frame> {
  await page.waitForFunction(() => {
    const doc = document.querySelector('iframe[title="Storefront preview"]')?.contentDocument
    return doc?.readyState === 'complete' && doc.querySelector('main') !== null
  })
  return page.evaluate(() => {
    const frame = document.querySelector('iframe[title="Storefront preview"]')
    const win = frame.contentWindow
    const summary = [...frame.contentDocument.querySelectorAll('summary')].find((s: any) => /Menu/.test(s.textContent))
    const box = (el: any) => {
      const r = el.getBoundingClientRect()
      return { left: r.left, right: r.right, top: r.top, width: r.width }
    }
    return {
      innerWidth: win.innerWidth,
      // The phone header's "Menu" button: laid out (not display: none) only below the desktop breakpoint.
      menuShown: !!summary && summary.getClientRects().length > 0 && win.getComputedStyle(summary).display !== 'none',
      box: box(frame),
      stage: box(document.querySelector('.stage')),
    }
  })
}

const choose = (page: Page, device: string) => page.getByRole('button', { name: device, exact: true }).click()
const scrollWidth = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }))

t.test('the editor’s device preview and its width', async (t) => {
  const browser = await launch(t)
  if (!browser) return
  const env = await editorTestApp(t)

  t.test('device preview at a 1280×800 window: desktop, tablet and mobile widths, scaled and whole', async (t) => {
    const themeId = await createDraft(env, 'Device check')
    const { page, watch } = await merchantPage(browser, env, env.merchantA, { width: 1280, height: 800 })
    await page.goto(editorUrl(env, themeId))
    await page.getByRole('heading', { level: 1, name: /Device check/ }).waitFor()

    const expected = { Desktop: 1280, Tablet: 768, Mobile: 390 } as const
    for (const [device, width] of Object.entries(expected)) {
      await choose(page, device)
      await page.waitForFunction(
        (w) => document.querySelector('iframe[title="Storefront preview"]')?.contentWindow?.innerWidth === w,
        width,
      )
      const facts = await frameFacts(page)
      t.equal(facts.innerWidth, width, `${device}: the page is laid out ${width} CSS px wide`)
      if (device === 'Desktop') t.notOk(facts.menuShown, 'Desktop shows the desktop header (no "Menu" button)')
      else t.ok(facts.menuShown, `${device} shows the phone header's "Menu" button`)
      t.ok(facts.box.left >= facts.stage.left - 0.5, `${device}: the frame's left edge is inside the pane`)
      t.ok(facts.box.right <= facts.stage.right + 0.5, `${device}: the frame's right edge is inside the pane`)
      t.ok(facts.box.width <= width + 0.5, `${device}: never scaled up`)
      const sw = await scrollWidth(page)
      t.ok(sw.scroll <= sw.viewport, `${device}: the editor does not scroll sideways (${sw.scroll} ≤ ${sw.viewport})`)
      await page.screenshot({ path: new URL(`editor-1280-${device.toLowerCase()}.png`, ARTIFACTS).pathname })
    }
    t.same(watch.problems, [], 'no console errors, failed requests or CSP violations')
  })

  t.test('at 390 px the editor does not scroll sideways in any device mode', async (t) => {
    const themeId = await createDraft(env, 'Phone check')
    const { page, watch } = await merchantPage(browser, env, env.merchantA, { width: 390, height: 844 })
    await page.goto(editorUrl(env, themeId))
    await page.getByRole('heading', { level: 1, name: /Phone check/ }).waitFor()
    for (const device of ['Desktop', 'Tablet', 'Mobile']) {
      await choose(page, device)
      const facts = await frameFacts(page)
      t.ok(facts.box.right <= facts.stage.right + 0.5, `${device}: the frame fits the pane`)
      const sw = await scrollWidth(page)
      t.ok(sw.scroll <= sw.viewport, `${device}: no sideways scrolling (${sw.scroll} ≤ ${sw.viewport})`)
      await page.screenshot({
        path: new URL(`editor-390-${device.toLowerCase()}.png`, ARTIFACTS).pathname,
        fullPage: true,
      })
    }
    // A section's settings, as a merchant edits them on a phone.
    await page.locator('.sections .select').first().click()
    await page.getByRole('heading', { level: 2 }).first().waitFor()
    const sw = await scrollWidth(page)
    t.ok(sw.scroll <= sw.viewport, `a section's settings: no sideways scrolling (${sw.scroll} ≤ ${sw.viewport})`)
    t.same(watch.problems, [], 'no console errors, failed requests or CSP violations')
  })
})
