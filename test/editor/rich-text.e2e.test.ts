import t from 'tap'
import type { Page } from 'playwright-core'
import { validateRichText } from '../../src/theme/rich-text.ts'
import {
  ARTIFACTS,
  createDraft,
  editorTestApp,
  editorUrl,
  launch,
  merchantPage,
  selectText,
  seriousAxeViolations,
} from './support.ts'

// Rich text fields in Chromium: a toolbar editor that offers only what the documented subset
// allows (getThemeSchema's rules.richText) and can only hand over that subset. Pasted HTML with
// scripts, styles, images with handlers and javascript: links is reduced before it touches the
// page and before it is saved; what is saved passes the service's own validator; the page keeps
// its strict CSP (no inline script or style) with no violation while editing.

declare const document: any
declare const window: any
declare const DataTransfer: any
declare const ClipboardEvent: any
declare const getComputedStyle: any

/** A paste into the focused rich text box, as the browser delivers it from the clipboard. */
async function paste(page: Page, html: string, text = '') {
  await page.evaluate(
    ([html, text]) => {
      const data = new DataTransfer()
      if (html) data.setData('text/html', html)
      if (text) data.setData('text/plain', text)
      document.activeElement.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      )
    },
    [html, text],
  )
}

t.test('rich text: a toolbar editor limited to the safe subset', async (t) => {
  const browser = await launch(t)
  if (!browser) return
  const env = await editorTestApp(t)
  const themeId = await createDraft(env, 'Rich text draft')
  const about = async () =>
    (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.document.templates.home.find(
      (s: { id: string }) => s.id === 'home-about',
    )
  // A section with blocks and a menu with sub-links, as an agent would have drafted them.
  const start = (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.version as number
  const drafted = await env.api(
    'POST',
    `/api/v1/themes/${themeId}/batch`,
    {
      operations: [
        {
          op: 'createSection',
          target: { template: 'home' },
          index: 1,
          section: {
            id: 'faq-1',
            type: 'faq',
            settings: {},
            blocks: [
              {
                id: 'q1',
                type: 'question',
                settings: { question: 'How fast do you ship?', answer: '<p>Within three days.</p>' },
              },
              {
                id: 'q2',
                type: 'question',
                settings: { question: 'Can I return a tent?', answer: '<p>Within 30 days.</p>' },
              },
            ],
          },
        },
        {
          op: 'setNavigation',
          navigation: [
            { label: 'Home', href: '/' },
            {
              label: 'Shop',
              href: '/products',
              children: [
                { label: 'Tents', href: '/products?q=tent' },
                { label: 'Packs', href: '/products?q=pack' },
              ],
            },
          ],
        },
      ],
    },
    { 'if-match': `"${start}"` },
  )
  t.equal(drafted.status, 200, 'the agent’s draft landed')
  let version = (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.version as number
  const saved = async (label: string) => {
    version += 1
    await page
      .getByRole('status')
      .filter({ hasText: `Saved version ${version}: ${label}` })
      .waitFor({ state: 'attached' })
  }
  const { page, watch } = await merchantPage(browser, env, env.merchantA)
  const response = await page.goto(editorUrl(env, themeId))

  await t.test('the page keeps its strict CSP', async (t) => {
    const csp = response!.headers()['content-security-policy'] ?? ''
    t.match(csp, /script-src 'self'(;|$)/, 'scripts only from the service')
    t.match(csp, /style-src 'self'(;|$)/, 'styles only from the service')
    t.notMatch(csp, /unsafe-inline|unsafe-eval/, 'no unsafe-inline, no unsafe-eval')
  })

  await page.getByRole('button', { name: 'Text: About us', exact: true }).click()
  const body = page.getByLabel('Text', { exact: true })

  await t.test('the toolbar offers what the subset allows, on a contenteditable box', async (t) => {
    t.equal(await body.getAttribute('contenteditable'), 'true')
    t.equal(await body.getAttribute('role'), 'textbox')
    const toolbar = page.getByRole('toolbar', { name: 'Text formatting' })
    t.same(
      await toolbar
        .getByRole('button')
        .evaluateAll((els) => els.map((e: any) => e.querySelector('.visually-hidden').textContent)),
      ['Bold', 'Italic', 'Link', 'Bulleted list', 'Numbered list', 'Paragraph', 'Heading', 'Subheading'],
    )
    const tags = (await env.api('GET', '/api/v1/themes/schema')).json.data.rules.richText.tags as string[]
    for (const needed of ['strong', 'em', 'a', 'ul', 'ol', 'li', 'p', 'h2', 'h3'])
      t.ok(tags.includes(needed), `<${needed}> is in the documented subset`)
  })

  await t.test('formatting with the toolbar saves the subset', async (t) => {
    await body.fill('Tents for every trail')
    await selectText(body, 'every')
    await page.getByRole('button', { name: 'Bold', exact: true }).click()
    t.equal(
      await page.getByRole('button', { name: 'Bold', exact: true }).getAttribute('aria-pressed'),
      'true',
      'Bold shows as pressed on bold text',
    )
    await selectText(body, 'Tents')
    await page.getByRole('button', { name: 'Italic', exact: true }).click()
    await selectText(body, 'trail')
    await page.getByRole('button', { name: 'Link', exact: true }).click()
    const address = page.getByLabel('Link address')
    await address.fill('javascript:alert(1)')
    await address.press('Enter')
    t.match(
      await page.locator('.rich-link .error').innerText(),
      /https:\/\//,
      'an unsafe link address is refused in the toolbar',
    )
    await address.fill('/pages/trails')
    await page.getByRole('button', { name: 'Apply link' }).click()
    await body.press('End')
    await body.press('Enter')
    await page.keyboard.type('Poles')
    await page.getByRole('button', { name: 'Bulleted list', exact: true }).click()
    await page.keyboard.press('Enter')
    await page.keyboard.type('Pegs')
    await body.blur()
    await saved('changed Text')
    const html = (await about()).settings.body as string
    t.equal(
      html,
      '<p><em>Tents</em> for <strong>every</strong> <a href="/pages/trails">trail</a></p><ul><li>Poles</li><li>Pegs</li></ul>',
    )
    t.same(validateRichText(html, 'body'), [], 'the saved value passes the service’s rich text rules')
  })

  await t.test(
    'pasted HTML is reduced to the subset: no script, style, image handler or javascript: link',
    async (t) => {
      const hostile =
        '<meta charset="utf-8"><style>body { display: none }</style><script>window.__pwned = "script"</script>' +
        '<h1 style="color:red" class="title" onclick="window.__pwned = \'click\'">Big news</h1>' +
        '<p>Safe <b>bold</b> and <i>italic</i><img src="x" onerror="window.__pwned = \'img\'"></p>' +
        '<p><a href="javascript:window.__pwned = \'link\'">bad link</a> <a href="https://example.com/tents" onclick="x()" target="_blank" style="color:red">good link</a> <a href="//evil.example/">protocol-relative</a></p>' +
        '<div><span style="font-weight:700">loose</span> words</div>' +
        '<iframe src="https://example.com"></iframe><svg><script>window.__pwned = "svg"</script></svg>' +
        '<table><tr><td>cell</td></tr></table><!-- comment -->'
      await body.click()
      await body.press('ControlOrMeta+a')
      await paste(page, hostile, 'plain fallback')
      t.notMatch(
        await body.innerHTML(),
        /<(img|script|style|iframe|svg|meta|table)|on\w+=|style=|class=|javascript:/i,
        'nothing unsafe ever reaches the page',
      )
      await body.blur()
      await saved('changed Text')
      const html = (await about()).settings.body as string
      t.equal(
        html,
        '<h2>Big news</h2><p>Safe <strong>bold</strong> and <em>italic</em></p><p>bad link <a href="https://example.com/tents">good link</a> protocol-relative</p><p>loose words</p><p>cell</p>',
        'reduced to the subset',
      )
      t.same(validateRichText(html, 'body'), [], 'the saved value passes the service’s rich text rules')
      t.equal(await page.evaluate(() => window.__pwned), undefined, 'no pasted code ran')
      t.equal(await page.evaluate(() => getComputedStyle(document.body).display), 'block', 'no pasted style applied')
    },
  )

  await t.test('plain text pastes as paragraphs', async (t) => {
    await body.click()
    await body.press('ControlOrMeta+a')
    await paste(page, '', 'First line\n\nSecond <b>line</b>')
    await body.blur()
    await saved('changed Text')
    t.equal(
      (await about()).settings.body,
      '<p>First line</p><p>Second &lt;b&gt;line&lt;/b&gt;</p>',
      'markup in plain text stays text',
    )
  })

  await t.test('the service stays the authority: unsafe HTML sent past the editor is refused', async (t) => {
    const before = version
    const token = (await page.locator('#editor').getAttribute('data-csrf-token'))!
    const refused = await page.request.post(`${env.origin}/dashboard/themes/editor/api/themes/${themeId}/batch`, {
      headers: { 'x-csrf-token': token, 'content-type': 'application/json' },
      data: {
        operations: [
          {
            op: 'updateSection',
            sectionId: 'home-about',
            settings: { body: '<p>x<img src=x onerror=alert(1)><script>alert(1)</script></p>' },
          },
        ],
      },
    })
    t.equal(refused.status(), 400)
    t.equal((await refused.json()).error.code, 'UNSAFE_CONTENT')
    t.equal((await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.version, before, 'nothing changed')
  })

  await t.test(
    'axe-core: the rich text field, a block list and the sub-link editor have no serious or critical violations',
    async (t) => {
      const scan = () => seriousAxeViolations(page)
      await page.getByRole('button', { name: 'Link', exact: true }).click()
      await page.getByLabel('Link address').waitFor()
      t.same(await scan(), [], 'rich text with its link form open')
      await page.getByRole('button', { name: 'Link', exact: true }).click()
      await page.getByRole('button', { name: /^FAQ/ }).click()
      await page.locator('.blocks .select', { hasText: 'Question 1' }).click()
      await page.getByRole('group', { name: 'Question 1 settings' }).waitFor()
      t.same(await scan(), [], 'a block list with a block open')
      await page.getByRole('button', { name: 'Navigation' }).click()
      await page.getByRole('group', { name: 'Sub-link 2.1', exact: true }).waitFor()
      t.same(await scan(), [], 'navigation with sub-links')
      await page.getByRole('button', { name: 'Text: About us', exact: true }).click()
    },
  )

  await t.test('screenshots of the rich text toolbar', async () => {
    await body.click()
    await page
      .locator('.rich-text')
      .first()
      .screenshot({ path: new URL('rich-text-toolbar.png', ARTIFACTS).pathname })
  })

  t.same(watch.problems, [], 'no console errors, failed requests or CSP violations')
})
