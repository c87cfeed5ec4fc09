import t from 'tap'
import type { Page } from 'playwright-core'
import { createApiKey, ensureApp } from '../../src/auth/credentials.ts'
import { SCOPES } from '../../src/auth/scopes.ts'
import {
  ARTIFACTS,
  createDraft,
  editorTestApp,
  editorUrl,
  launch,
  merchantPage,
  settledValue,
  STORE_B,
  seriousAxeViolations,
} from './support.ts'

// The editor's rules in Chromium: refused values show the service's message at the field and
// change nothing; a concurrent agent batch is a conflict that names the agent and re-applies on
// top; undo and redo are new batches; non-drafts are read-only; another store's theme is 404;
// the page passes an axe-core scan and renders at desktop and mobile widths.

declare const document: any

t.test('editor rules', async (t) => {
  const browser = await launch(t)
  if (!browser) return
  const env = await editorTestApp(t)
  const themeId = await createDraft(env, 'Rules draft')
  const theme = async () =>
    (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data as { version: number; document: any }
  const hero = async () => (await theme()).document.templates.home.find((s: { id: string }) => s.id === 'home-hero')
  const statusSaved = (page: Page, version: number, label: string) =>
    page
      .getByRole('status')
      .filter({ hasText: `Saved version ${version}: ${label}` })
      .waitFor({ state: 'attached' })

  const { page, watch } = await merchantPage(browser, env, env.merchantA)
  await page.goto(editorUrl(env, themeId))
  await page.getByRole('button', { name: 'Hero: Welcome to our store', exact: true }).click()
  const heading = page.getByLabel('Heading', { exact: true })

  await t.test('an invalid value shows the service’s message at the field and changes nothing', async (t) => {
    const before = await theme()
    await heading.fill('x'.repeat(161))
    await heading.press('Enter')
    const field = page.locator('.field.has-error', { has: heading })
    await field.waitFor()
    t.match(await field.locator('.error').innerText(), /160/, 'the length limit is named at the heading field')
    t.equal(await heading.getAttribute('aria-invalid'), 'true')
    t.equal((await theme()).version, before.version, 'nothing changed')
    await page.getByRole('button', { name: 'Discard unsaved change' }).click()
    t.equal(
      await settledValue(heading, 'Welcome to our store'),
      'Welcome to our store',
      'discarding shows the saved value again',
    )

    const button = page.getByRole('group', { name: 'Main button' })
    const link = button.getByLabel('Link', { exact: true })
    await link.fill('javascript:alert(1)')
    await link.press('Enter')
    const linkField = button.locator('.field.has-error', { has: page.getByLabel('Link', { exact: true }) })
    await linkField.waitFor()
    t.match(await linkField.locator('.error').innerText(), /javascript/i, 'the unsafe URL is refused at the link field')
    t.equal((await theme()).version, before.version, 'nothing changed')
    t.equal((await hero()).settings.primaryButton.href, '/products')
    await page.getByRole('button', { name: 'Discard unsaved change' }).click()
  })

  await t.test('undo and redo are new batches', async (t) => {
    const start = (await theme()).version
    await heading.fill('Undo me')
    await heading.press('Enter')
    await statusSaved(page, start + 1, 'changed Hero')
    t.equal((await hero()).settings.heading, 'Undo me')
    await page.getByRole('button', { name: 'Undo: changed Hero' }).click()
    await statusSaved(page, start + 2, 'undid changed Hero')
    t.equal((await hero()).settings.heading, 'Welcome to our store', 'undo restored the heading')
    t.equal(await heading.inputValue(), 'Welcome to our store')
    await page.getByRole('button', { name: 'Redo: changed Hero' }).click()
    await statusSaved(page, start + 3, 'redid changed Hero')
    t.equal((await hero()).settings.heading, 'Undo me', 'redo applied it again')
    const events = await env.services.db
      .selectFrom('events')
      .select('stream_version')
      .where('stream_id', '=', `theme-${themeId}`)
      .execute()
    t.ok(events.length >= start + 3, 'each step appended events; none were removed')
  })

  await t.test('a conflict with an agent batch names the agent and re-applies on top', async (t) => {
    const current = await theme()
    const agent = await env.api(
      'POST',
      `/api/v1/themes/${themeId}/batch`,
      { operations: [{ op: 'updateSection', sectionId: 'home-about', settings: { heading: 'Written by the agent' } }] },
      { 'if-match': `"${current.version}"` },
    )
    t.equal(agent.status, 200, 'the agent’s batch landed through REST')
    await heading.fill('Merchant heading')
    await heading.press('Enter')
    const alert = page.getByRole('alert').filter({ hasText: 'This theme changed while you were editing' })
    await alert.waitFor()
    t.match(
      await alert.innerText(),
      /Claude \(test agent\), in the API/,
      'the banner says which app changed it and through which door',
    )
    t.match(await alert.innerText(), /Text › Heading: “About us” → “Written by the agent”/, 'and what it changed')
    t.equal((await hero()).settings.heading, 'Undo me', 'the merchant’s change was not saved over the agent’s')
    await page.getByRole('button', { name: 'Re-apply my change' }).click()
    await statusSaved(page, current.version + 2, 'changed Hero')
    const doc = (await theme()).document
    t.equal(
      doc.templates.home.find((s: { id: string }) => s.id === 'home-hero').settings.heading,
      'Merchant heading',
      'the merchant’s change is applied',
    )
    t.equal(
      doc.templates.home.find((s: { id: string }) => s.id === 'home-about').settings.heading,
      'Written by the agent',
      'the agent’s change is kept',
    )
  })

  await t.test('a conflict on the same field says what re-applying would replace', async (t) => {
    const current = await theme()
    const agent = await env.api(
      'POST',
      `/api/v1/themes/${themeId}/batch`,
      { operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: { heading: 'The agent’s hero' } }] },
      { 'if-match': `"${current.version}"` },
    )
    t.equal(agent.status, 200, 'the agent changed the hero heading')
    await heading.fill('The merchant’s hero')
    await heading.press('Enter')
    const alert = page.getByRole('alert').filter({ hasText: 'This theme changed while you were editing' })
    await alert.waitFor()
    t.match(
      await alert.innerText(),
      /Re-applying replaces what changed meanwhile: “heading” of section home-hero/,
      'the overlap is named',
    )
    await alert.screenshot({ path: new URL('conflict-banner.png', ARTIFACTS).pathname })
    t.equal((await hero()).settings.heading, 'The agent’s hero', 'nothing was overwritten yet')
    t.equal(await page.getByRole('button', { name: 'Re-apply my change' }).count(), 0, 'no plain re-apply')
    await page.getByRole('button', { name: 'Replace with my change' }).click()
    await statusSaved(page, current.version + 2, 'changed Hero')
    t.equal((await hero()).settings.heading, 'The merchant’s hero', 'replaced only when the merchant said so')
  })

  await t.test('axe-core finds no serious or critical violations', async (t) => {
    t.same(await seriousAxeViolations(page), [], 'no serious or critical violations')
  })

  await t.test('screenshots at desktop and mobile widths', async () => {
    await page.screenshot({ path: new URL('rules-desktop.png', ARTIFACTS).pathname })
    await page.setViewportSize({ width: 390, height: 844 })
    await page.waitForTimeout(300)
    await page.screenshot({ path: new URL('editor-mobile.png', ARTIFACTS).pathname, fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  await t.test('the live theme opens read-only with one “Edit a copy” button', async (t) => {
    const live = await createDraft(env, 'Live theme')
    t.equal((await env.api('POST', `/api/v1/themes/${live}/publish`, {})).status, 200)
    await page.goto(editorUrl(env, live))
    await page.getByText('This is your live theme').waitFor()
    await page.getByRole('button', { name: 'Hero: Welcome to our store', exact: true }).click()
    t.ok(await page.getByLabel('Heading', { exact: true }).isDisabled(), 'fields are disabled')
    // Nothing that would change the theme is offered, so nothing looks as if it could be pressed.
    for (const name of [
      'Add section',
      'Add section below',
      'Delete section',
      'Undo',
      'Publish…',
      'Image: choose from library',
    ])
      t.equal(await page.getByRole('button', { name, exact: true }).count(), 0, `no “${name}”`)
    t.equal(await page.getByText('Upload image').count(), 0, 'no “Upload image”')
    t.equal(await page.getByRole('link', { name: 'Publish…' }).count(), 0, 'no “Publish…” (it is live)')
    t.equal(await page.locator('.sections .handle').count(), 0, 'no reorder handles')
    t.equal(await page.getByRole('button', { name: 'Edit a copy' }).count(), 1, 'one “Edit a copy” button')
    await page.screenshot({ path: new URL('editor-live-read-only.png', ARTIFACTS).pathname })
    await page.getByRole('button', { name: 'Edit a copy' }).click()
    await page.getByRole('heading', { level: 1, name: /Copy of Live theme/ }).waitFor()
    t.match(page.url(), /themeId=/)
    t.not(new URL(page.url()).searchParams.get('themeId'), live, 'the editor opened the new draft')
    t.ok(await page.getByLabel('Theme outline').isVisible())
  })

  await t.test('another merchant’s theme is 404', async (t) => {
    const appId = await ensureApp(env.services.db, { storeId: STORE_B, name: 'Other agent' })
    const keyB = (await createApiKey(env.services.db, { storeId: STORE_B, appId, name: 'b', scopes: SCOPES })).key
    const foreign = await env.api(
      'POST',
      '/api/v1/themes',
      { name: 'Not yours', provider: 'claude' },
      { authorization: `Bearer ${keyB}` },
    )
    const response = await page.request.get(editorUrl(env, foreign.json.data.id))
    t.equal(response.status(), 404, 'the editor page')
    const api = await page.request.get(`${env.origin}/dashboard/themes/editor/api/themes/${foreign.json.data.id}`)
    t.equal(api.status(), 404, 'the editor’s theme route')
    const token = (await page.locator('#editor').getAttribute('data-csrf-token'))!
    const batch = await page.request.post(
      `${env.origin}/dashboard/themes/editor/api/themes/${foreign.json.data.id}/batch`,
      {
        headers: { 'x-csrf-token': token, 'content-type': 'application/json' },
        data: { operations: [{ op: 'deleteSection', sectionId: 'home-hero' }] },
      },
    )
    t.equal(batch.status(), 404, 'a batch on it')
    const noCsrf = await page.request.post(`${env.origin}/dashboard/themes/editor/api/themes/${themeId}/batch`, {
      headers: { 'content-type': 'application/json' },
      data: { operations: [{ op: 'deleteSection', sectionId: 'home-hero' }] },
    })
    t.equal(noCsrf.status(), 403, 'a change without the CSRF token is refused')
    t.ok(await hero(), 'and changed nothing')
  })

  await t.test(
    'publishing goes through the dashboard’s confirmation, then the theme is live and read-only',
    async (t) => {
      await page.goto(editorUrl(env, themeId))
      await page.getByRole('link', { name: 'Publish…' }).click()
      await page.waitForURL(`**/dashboard/themes/${themeId}/publish`)
      const version = (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.version as number
      t.equal(
        (await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.status,
        'draft',
        'nothing happens before the confirmation',
      )
      await page.getByRole('button', { name: `Publish version ${version}` }).click()
      await page.waitForLoadState()
      t.equal((await env.api('GET', `/api/v1/themes/${themeId}`)).json.data.status, 'active')
      await page.goto(editorUrl(env, themeId))
      await page.getByText('This is your live theme').waitFor()
      const row = await env.services.db
        .selectFrom('developer_activity')
        .selectAll()
        .where('theme_id', '=', themeId)
        .where('action', '=', 'publishTheme')
        .executeTakeFirstOrThrow()
      t.same(
        [row.credential_kind, row.outcome],
        ['merchant', 'applied'],
        'published by the merchant, after the confirmation',
      )
    },
  )

  t.same(watch.problems, [], 'no console errors, failed requests or CSP violations')
})
