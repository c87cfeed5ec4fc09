import { mkdirSync, readFileSync } from 'node:fs'
import type { Test } from 'tap'
import { DEFAULT_AGENT_SCOPES } from '../../src/auth/scopes.ts'
import { STORE_A, testApp } from '../support/app.ts'
import { authorized, registeredClient } from '../oauth/support.ts'
import { activeThemeIds, EMAIL_A, liveThemeId, passwordOf } from './support.ts'
import { launchChromium } from '../support/chromium.ts'

// The merchant walkthrough in a real browser, at one width: sign in, create an app and see its
// secret once, add a redirect URI, create a key and use it, find the agent's refused attempt by
// filter, preview a draft, see its history, compare two versions side by side and revert, publish
// the version shown, roll back, revoke a connected app, open the account page. Every page: no
// console errors, no CSP violations, and an axe-core scan with no serious or critical violation.
// Screenshots go to test-artifacts/dashboard/ (gitignored). walkthrough-desktop and
// walkthrough-mobile run it at 1280 and 390 px, each on its own database and browser, so the two
// run side by side (as one file of both widths it took 270 to 322 s on the loaded CI machine).
const ARTIFACTS = new URL('../../test-artifacts/dashboard/', import.meta.url)
const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')

export async function merchantWalkthrough(
  t: Test,
  viewport: { name: 'desktop' | 'mobile'; width: number; height: number },
): Promise<void> {
  const testing = await testApp(t)
  const { app, services } = testing
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const password = await passwordOf(services, EMAIL_A)
  mkdirSync(ARTIFACTS, { recursive: true })
  const browser = await launchChromium(t)
  if (browser === null) return

  // An assistant the merchant approved through OAuth, listed under Connected apps.
  const assistant = await registeredClient(testing, { name: `Assistant ${viewport.name}` })
  const grant = await authorized(testing, assistant, { scopes: ['store:read', 'themes:read'] })
  await services.db
    .updateTable('oauth_grants')
    .set({ client_name: `Assistant ${viewport.name}` })
    .where('grant_id', '=', grant.grantId)
    .execute()
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  const problems: string[] = []
  await page.exposeFunction('__csp', (text: string) => problems.push(`CSP: ${text}`))
  await page.addInitScript(() => {
    const w = globalThis as unknown as {
      document: {
        addEventListener(t: string, l: (e: { violatedDirective: string; blockedURI: string }) => void): void
      }
      __csp(s: string): void
    }
    w.document.addEventListener('securitypolicyviolation', (e) => w.__csp(`${e.violatedDirective} ${e.blockedURI}`))
  })
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))

  const check = async (name: string) => {
    await page.screenshot({ path: new URL(`${name}-${viewport.name}.png`, ARTIFACTS).pathname, fullPage: true })
    await page.evaluate(AXE)
    const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
      violations: { id: string; impact: string; nodes: unknown[] }[]
    }
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`)
    t.same(bad, [], `${name} (${viewport.name}): axe serious/critical`)
  }

  await page.goto(`${address}/dashboard/developer`)
  t.match(page.url(), /\/dashboard\/login\?next=%2Fdashboard%2Fdeveloper$/)
  await check('login')
  await page.getByLabel('Email').fill(EMAIL_A)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  t.match(page.url(), /\/dashboard\/developer$/)
  await check('developer')
  await page.getByRole('button', { name: `Revoke Assistant ${viewport.name}` }).click()
  await page.getByText('Disconnected.').waitFor()
  t.ok(
    (
      await services.db
        .selectFrom('oauth_grants')
        .select('revoked_at')
        .where('grant_id', '=', grant.grantId)
        .executeTakeFirstOrThrow()
    ).revoked_at,
    'revoked from the dashboard',
  )

  await page.getByLabel('Name', { exact: true }).fill(`Claude connector ${viewport.name}`)
  await page.getByText('https://claude.ai/api/mcp/auth_callback').click()
  await page.getByRole('button', { name: 'Create app' }).click()
  const secret = await page.locator('code.secret').textContent()
  t.match(secret, /^sfcs_/)
  await check('app-created')
  await page.goto(`${address}/dashboard/developer`)
  await page.getByRole('link', { name: `Claude connector ${viewport.name}` }).click()
  t.equal(await page.locator('code.secret').count(), 0, 'the secret is not shown again')

  await page.getByLabel('Redirect URIs').fill('https://claude.ai/api/mcp/auth_callback\nhttp://127.0.0.1/callback')
  await page.getByRole('button', { name: 'Save redirect URIs' }).click()
  await page.getByText('Redirect URIs saved.').waitFor()

  await page.getByLabel('Name', { exact: true }).fill('Agent key')
  await page.getByRole('button', { name: 'Create key' }).click()
  const key = (await page.locator('code.secret').textContent())!
  t.match(key, /^sk_live_/)
  await check('key-created')

  // The agent uses the key: a draft, then an invalid batch that is refused and audited.
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${address}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    return { status: res.status, json: (await res.json()) as { data: { id: string } } }
  }
  const draft = await api('POST', '/api/v1/themes', { name: `Autumn ${viewport.name}`, provider: 'claude' })
  t.equal(draft.status, 201)
  const liveId = await liveThemeId(services, STORE_A)
  const refused = await api('DELETE', `/api/v1/themes/${liveId}`)
  t.equal(refused.status, 409, 'archiving the live theme is refused')
  t.same(DEFAULT_AGENT_SCOPES.includes('themes:publish' as never), false)

  await page.getByRole('link', { name: 'Activity' }).click()
  await page.getByLabel('Outcome').selectOption('refused')
  await page.getByRole('button', { name: 'Filter' }).click()
  t.match(page.url(), /outcome=refused/)
  const headline = page.locator('.headline', { hasText: 'Refused: ' }).first()
  t.ok(await headline.isVisible(), 'the refused attempt is listed')
  t.notMatch(await headline.textContent(), 'THEME_IS_ACTIVE', 'in words: its error code only in the details')
  await check('activity')

  // Two agent changes, so the draft has a history.
  t.equal(
    (
      await api('POST', `/api/v1/themes/${draft.json.data.id}/batch`, {
        operations: [{ op: 'updateTokens', tokens: { primaryColor: '#7c2d12' } }],
      })
    ).status,
    200,
  )
  t.equal(
    (
      await api('POST', `/api/v1/themes/${draft.json.data.id}/batch`, {
        operations: [
          {
            op: 'createSection',
            target: { template: 'home' },
            index: 1,
            section: { id: 'autumn-gap', type: 'spacer', settings: { height: 32 } },
          },
        ],
      })
    ).status,
    200,
  )

  await page.getByRole('link', { name: 'Themes' }).click()
  await check('themes')
  await page.getByRole('link', { name: `History of Autumn ${viewport.name}` }).click()
  await page.getByRole('heading', { name: `History of “Autumn ${viewport.name}”` }).waitFor()
  await check('versions')
  await page.getByRole('link', { name: 'Compare version 1 with now' }).click()
  await page.locator('.preview-viewport iframe').first().waitFor()
  await page.waitForLoadState('load')
  await check('compare')
  await page.getByRole('button', { name: 'Revert draft to version 1' }).click()
  await page.getByText('Reverted.').waitFor()
  await page.goto(`${address}/dashboard/themes/${draft.json.data.id}/compare?from=2&to=3`)
  await page.waitForLoadState('load')
  await check('compare-section')
  await page.goto(`${address}/dashboard/themes/${draft.json.data.id}/preview`)
  await page.getByText('Preview of').first().waitFor()
  await page.screenshot({ path: new URL(`preview-${viewport.name}.png`, ARTIFACTS).pathname })
  await page.goto(`${address}/dashboard/themes/editor?themeId=${draft.json.data.id}`)
  await check('editor')
  await page.goto(`${address}/dashboard/themes/${draft.json.data.id}/publish`)
  await check('publish-confirm')
  await page.getByRole('button', { name: /^Publish version \d+$/ }).click()
  await page.getByText('Published.').waitFor()
  t.same(await activeThemeIds(services, STORE_A), [draft.json.data.id])
  await page.getByRole('link', { name: /Roll back to/ }).click()
  await check('rollback-confirm')
  await page.getByRole('button', { name: /Roll back to “.+” version \d+/ }).click()
  await page.getByText('Rolled back.').waitFor()
  t.not((await activeThemeIds(services, STORE_A))[0], draft.json.data.id)

  // The account page (issue 34, point 19), reached from the e-mail address in the header.
  await page.getByRole('link', { name: `Account: ${EMAIL_A}` }).click()
  await page.getByRole('heading', { name: 'Your account' }).waitFor()
  await check('account')
  await page.getByRole('button', { name: 'Sign out' }).click()
  t.match(page.url(), /\/dashboard\/login$/)
  t.same(problems, [], `${viewport.name}: no console errors or CSP violations`)
  await context.close()
}
