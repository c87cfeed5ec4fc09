import t from 'tap'
import {
  ARTIFACTS,
  createDraft,
  editorTestApp,
  editorUrl,
  launch,
  merchantPage,
  seriousAxeViolations,
} from './support.ts'

// Issue 36 point 4: the merchant sees the theme checks in the editor. A section with a finding
// carries a badge with words ("1 error") in the outline; selecting it shows the finding with the
// fix a shop owner can make in the editor, never an agent's tool names or document paths; what
// belongs to no section of the page shown is summed up at the top of the outline. After the fix
// is saved the checks of the saved version are read again and the badge goes.

// White and near-black both read below 4.5:1 on this grey: the hero's text (Home page) and the
// product page's button (Product page) fail; the default draft has no other finding.
const GREY = '#777777'
const AGENT_WORDS = /theme\.primaryColor|check_theme|get_products|listProducts|updateTokens|\(theme\.|image\.alt/

declare const document: any

t.test('the theme checks in the editor: a badge on the section, the fix, gone once fixed', async (t) => {
  const browser = await launch(t)
  if (!browser) return
  const env = await editorTestApp(t)
  const themeId = await createDraft(env, 'Checks in the editor')
  const tokens = await env.api('POST', `/api/v1/themes/${themeId}/batch`, {
    operations: [{ op: 'updateTokens', tokens: { primaryColor: GREY } }],
  })
  t.equal(tokens.status, 200, 'the agent’s grey is accepted: checks never refuse a change')

  const { page, watch } = await merchantPage(browser, env, env.merchantA)
  await page.goto(editorUrl(env, themeId))
  const summary = page.getByRole('region', { name: 'Theme checks' })
  await summary.getByText('2 errors in this theme.').waitFor()

  const hero = page.locator('.sections li[data-section-id="home-hero"]')
  await t.test('the hero carries a badge with words; the other sections none', async (t) => {
    t.equal(await hero.locator('.check-badge').innerText(), '1 error', 'the badge says what it is')
    const button = page.getByRole('button', { name: 'Hero: Welcome to our store', exact: true })
    t.equal(
      await button.evaluate((el: any) => document.getElementById(el.getAttribute('aria-describedby'))?.textContent),
      'Theme checks: 1 error',
      'a screen reader hears the badge as the button’s description',
    )
    t.equal(await page.locator('.sections li:not([data-section-id="home-hero"]) .check-badge').count(), 0)
    t.match(await summary.innerText(), /Product page\s*: 1 error/, 'the other page’s error is summed up, by page')
    await summary.getByRole('button', { name: 'Product page' }).click()
    const details = page.locator('.sections li[data-section-id="product-details"] .check-badge')
    t.equal(await details.innerText(), '1 error', 'it opens that page, where its section carries the badge')
    await page.getByLabel('Editing').selectOption({ label: 'Home page' })
    await hero.waitFor()
  })

  await t.test('selecting the section shows the finding and the merchant’s fix', async (t) => {
    await hero.getByRole('button', { name: /^Hero/ }).click()
    const found = page.getByRole('region', { name: 'What the theme checks found here' })
    await found.waitFor()
    const text = await found.innerText()
    t.match(text, 'Text hard to read')
    t.match(text, /How to fix: In “Colours, font and logo”, pick a darker \(or much lighter\) main colour/)
    t.notMatch(text, AGENT_WORDS, 'no agent tool names or document paths')
    await page.screenshot({ path: new URL('editor-checks-1280.png', ARTIFACTS).pathname })

    t.same(
      await seriousAxeViolations(page),
      [],
      'axe: no serious or critical violations with the badge and the findings shown',
    )

    await page.setViewportSize({ width: 390, height: 844 })
    await page.screenshot({ path: new URL('editor-checks-390.png', ARTIFACTS).pathname, fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  await t.test('after the colour is fixed and saved, the badge goes', async (t) => {
    await page.getByRole('button', { name: 'Open Colours, font and logo' }).click()
    const inTokens = page.getByRole('region', { name: 'What the theme checks found in these settings' })
    t.match(await inTokens.innerText(), /In Hero: Welcome to our store, Home page/, 'each place is named')
    await page.getByLabel('Main colour', { exact: true }).fill('#1f2937')
    await page.getByLabel('Main colour', { exact: true }).press('Enter')
    await page
      .getByRole('status')
      .filter({ hasText: /Saved version \d+: changed the theme settings/ })
      .waitFor({ state: 'attached' })
    await summary.getByText('No problems found.').waitFor()
    t.equal(await hero.locator('.check-badge').count(), 0, 'the hero’s badge is gone')
    t.equal(await inTokens.count(), 0, 'nothing left to fix in the colours')
    const saved = await env.api('GET', `/api/v1/themes/${themeId}/checks`)
    t.equal(saved.json.data.summary.error, 0, 'the saved version is what the editor judged')
  })

  t.same(watch.problems, [], 'no console errors, failed requests or CSP violations')
})
