import { mkdirSync } from 'node:fs'
import t from 'tap'
import type { Page } from 'playwright-core'
import { DEFAULT_AGENT_SCOPES } from '../../src/auth/scopes.ts'
import { callTool } from '../mcp/support.ts'
import { authorized, exchange, registeredClient } from '../oauth/support.ts'
import { bearer, STORE_A, testApp } from '../support/app.ts'
import { EMAIL_A, passwordOf } from './support.ts'
import { launchChromium } from '../support/chromium.ts'

// Issue 34 A, read as the merchant: a scripted agent session (a batch, a refused unsafe batch,
// a preview link, a refused publish, a change by a self-registered OAuth client, an undo, then
// the merchant's publish and rollback), then the activity view in Chromium at 1280 and 390 px.
// Every headline names its theme by name and shows no operation id or theme id; the opened
// refused row lists each problem at its field; the OAuth client is named, "unverified"; the
// editor's Activity link shows only its theme's rows; nothing scrolls sideways. Screenshots go
// to test-artifacts/activity/ (gitignored; the ones in docs/screenshots/ were taken from them).
const ARTIFACTS = new URL('../../test-artifacts/activity/', import.meta.url)
const OPERATION_IDS =
  /applyThemeBatch|createThemePreviewToken|publishTheme|revertTheme|duplicateTheme|updateTheme|thm_|cmd_|req-/

t.test('the activity view after an agent session', async (t) => {
  const testing = await testApp(t)
  const { app, services } = testing
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const agentKey = await testing.key(STORE_A, DEFAULT_AGENT_SCOPES)
  const rest = async (method: 'GET' | 'POST', url: string, payload?: unknown, key = agentKey) => {
    const res = await app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) })
    return { status: res.statusCode, body: res.json() as { data: Record<string, unknown>; error?: { code: string } } }
  }

  // The agent copies the live theme and works on the copy.
  const themes = (await rest('GET', '/api/v1/themes')).body.data.themes as {
    id: string
    status: string
    name: string
  }[]
  const live = themes.find((x) => x.status === 'active')!
  const copy = await rest('POST', `/api/v1/themes/${live.id}/duplicate`, { name: 'Spring refresh' })
  t.equal(copy.status, 201)
  const draft = copy.body.data as { id: string; name: string }
  const batch = await rest('POST', `/api/v1/themes/${draft.id}/batch`, {
    operations: [
      { op: 'updateSection', sectionId: 'home-hero', settings: { heading: 'Ready for spring' } },
      { op: 'updateTokens', tokens: { primaryColor: '#aa3300' } },
    ],
  })
  t.equal(batch.status, 200, 'the batch applies')
  const unsafe = await rest('POST', `/api/v1/themes/${draft.id}/batch`, {
    operations: [
      {
        op: 'updateSection',
        sectionId: 'home-hero',
        settings: { primaryButton: { label: 'Go', href: 'javascript:alert(1)' } },
      },
      { op: 'updateSection', sectionId: 'home-about', settings: { body: '<p>Hi</p><script>alert(1)</script>' } },
    ],
  })
  t.equal(unsafe.body.error?.code, 'UNSAFE_CONTENT', 'the unsafe batch is refused')
  t.equal((await rest('POST', `/api/v1/themes/${draft.id}/preview-token`)).status, 201, 'a preview link')
  const publish = await rest('POST', `/api/v1/themes/${draft.id}/publish`, {})
  t.equal(publish.status, 403, 'publishing is refused: the agent may not publish')

  // A self-registered OAuth client changes the heading through MCP.
  const client = await registeredClient(testing, { name: 'Helper bot' })
  const grant = await authorized(testing, client, { scopes: ['store:read', 'themes:read', 'themes:write'] })
  await services.db
    .updateTable('oauth_grants')
    .set({ client_name: 'Helper bot' })
    .where('grant_id', '=', grant.grantId)
    .execute()
  const tokens = await exchange(testing, client, grant)
  const viaMcp = await callTool(testing, tokens.access_token, 'apply_theme_batch', {
    id: draft.id,
    operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: { subheading: 'Trails are open' } }],
  })
  t.notOk(viaMcp.isError, 'the OAuth client’s batch applies')

  // The agent undoes the OAuth client's change (the latest command).
  const versions = (await rest('GET', `/api/v1/themes/${draft.id}/versions`)).body.data.versions as {
    commandId: string
  }[]
  const undo = await rest('POST', `/api/v1/themes/${draft.id}/revert`, { commandId: versions[0]!.commandId })
  t.equal(undo.status, 200, 'the undo applies')

  const password = await passwordOf(services, EMAIL_A)
  mkdirSync(ARTIFACTS, { recursive: true })
  const browser = await launchChromium(t)
  if (browser === null) return

  const signIn = async (page: Page) => {
    await page.goto(`${address}/dashboard/login`)
    await page.getByLabel('Email').fill(EMAIL_A)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/dashboard\//)
  }
  const noSidewaysScroll = async (page: Page, what: string) => {
    const { scroll, width } = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, width: window.innerWidth })',
    )) as { scroll: number; width: number }
    t.ok(scroll <= width, `${what}: scrollWidth ${scroll} ≤ ${width}`)
  }

  // The merchant publishes the draft and rolls back to the former live theme.
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await desktop.newPage()
  await signIn(page)
  await page.goto(`${address}/dashboard/themes/${draft.id}/publish`)
  await page.getByRole('button', { name: /^Publish/ }).click()
  await page.waitForURL(/done=published/)
  await page.goto(`${address}/dashboard/themes/rollback`)
  await page.getByRole('button', { name: /^Roll back to/ }).click()
  await page.waitForURL(/done=rolledback/)

  for (const viewport of [
    { name: '1280', width: 1280, height: 800 },
    { name: '390', width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport)
    await page.goto(`${address}/dashboard/developer/activity`)
    const rows = page.locator('table.activity > tbody > tr')
    const headlines = await page.locator('table.activity .headline').allInnerTexts()
    t.ok(headlines.length >= 9, `${viewport.name}: ${headlines.length} rows`)
    for (const h of headlines) t.notMatch(h, OPERATION_IDS, `${viewport.name}: no ids in “${h}”`)
    const themeRows = await page
      .locator('table.activity .headline')
      .filter({ has: page.locator('.theme-name') })
      .count()
    t.ok(themeRows >= 9, 'the theme rows name their theme')
    t.ok(
      headlines.some((h) => h.includes('Spring refresh · Hero › Heading: “') && h.includes('→ “Ready for spring”')),
      'the batch: the theme, the section and the setting by name, old → new',
    )
    t.ok(
      headlines.some((h) => /Theme style › Main colour: #[0-9a-f]{6} → #aa3300/.test(h)),
      'a colour, old → new',
    )
    t.ok(
      headlines.some((h) => h.startsWith(`Spring refresh · Copied from “${live.name}”`)),
      'the copy says so',
    )
    t.ok(
      headlines.some((h) => /Spring refresh · Shared a preview link of version \d+, valid 15 minutes/.test(h)),
      'the preview link, with its validity',
    )
    t.ok(
      headlines.some((h) => h.includes('Spring refresh · Refused: Publish, the app is not allowed')),
      'the refused publish, under its theme',
    )
    t.ok(
      headlines.some((h) => h.includes('Spring refresh · Undid a change: Hero › Subheading: “Gear')),
      'the undo says what it took back',
    )
    t.ok(
      headlines.some((h) => h.startsWith(`${live.name} · Rolled back to this theme`)),
      'the rollback says so',
    )

    const oauthRow = rows.filter({ hasText: 'Trails are open' }).filter({ hasNotText: 'Undid' })
    t.match(
      await oauthRow.locator('td[data-label="Who"]').innerText(),
      /^Helper bot unverified\s+via MCP$/,
      'the self-registered client by its name, unverified',
    )

    const refused = rows.filter({ hasText: 'Refused: Edit' }).first()
    await refused.locator('summary').click()
    const problems = await refused.locator('ul.problems li').allInnerTexts()
    t.ok(
      problems.some((p) => p.startsWith('Main button › Link:')),
      `the link problem at its field: ${problems.join(' | ')}`,
    )
    t.ok(
      problems.some((p) => p.startsWith('Text:')),
      'the rich-text problem at its field',
    )
    await noSidewaysScroll(page, `activity at ${viewport.name}, a row opened`)
    await page.screenshot({ path: new URL(`activity-${viewport.name}.png`, ARTIFACTS).pathname, fullPage: true })
    await page.screenshot({ path: new URL(`activity-${viewport.name}-top.png`, ARTIFACTS).pathname })
  }

  // The editor's Activity link filters to its theme.
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`${address}/dashboard/themes/editor?themeId=${encodeURIComponent(draft.id)}`)
  await page.getByRole('link', { name: 'Activity', exact: true }).last().click()
  await page.waitForURL(/\/dashboard\/developer\/activity\?theme=/)
  const names = await page.locator('table.activity .headline .theme-name').allInnerTexts()
  t.ok(names.length >= 7, `${names.length} rows of the theme`)
  t.same([...new Set(names)], ['Spring refresh'], 'only the theme’s rows')
  t.equal(await page.locator('#f-theme').inputValue(), draft.id, 'the filter shows the theme')

  // One outcome vocabulary: the URL says refused, as the label and the CSV.
  await page.goto(`${address}/dashboard/developer/activity?outcome=refused`)
  const outcomes = await page.locator('table.activity td[data-label="Outcome"]').allInnerTexts()
  t.ok(outcomes.length >= 2 && outcomes.every((o) => o === 'Refused'), 'outcome=refused lists refusals')
  const csv = await (await desktop.request.get(`${address}/dashboard/developer/activity.csv?outcome=refused`)).text()
  t.match(csv, /"refused"/, 'the CSV says refused')
  t.match(csv, /"Helper bot \(unverified\)"|"Test app"/, 'the CSV names the app')
  t.notMatch(csv, /"rejected"/)
})
