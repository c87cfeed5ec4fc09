import t from 'tap'
import { testApp } from '../support/app.ts'
import { EMAIL_A, passwordOf } from './support.ts'
import { launchChromium } from '../support/chromium.ts'

// The Copy button in a real browser (issue 34, point 18): after creating an API key, Copy puts
// exactly the key on the clipboard and says so, under the dashboard's CSP (no violation, no
// console error).

t.test('Copy puts the key shown once on the clipboard', async (t) => {
  const { app, services } = await testApp(t)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const browser = await launchChromium(t)
  if (browser === null) return
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: address })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))

  await page.goto(`${address}/dashboard/login`)
  await page.getByLabel('Email').fill(EMAIL_A)
  await page.getByLabel('Password').fill(await passwordOf(services, EMAIL_A))
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/dashboard\/themes$/)
  await page.goto(`${address}/dashboard/developer`)
  await page.getByRole('link', { name: 'Demo agent app' }).first().click()
  await page.getByLabel('Name', { exact: true }).fill('Clipboard key')
  await page.getByRole('button', { name: 'Create key' }).click()
  const key = (await page.locator('#shown-once').textContent())!
  t.match(key, /^sk_live_/)
  await page.getByRole('button', { name: 'Copy API key created' }).click()
  await page.getByText('Copied.').waitFor()
  t.equal(
    await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()),
    key,
    'the clipboard holds the key',
  )
  t.same(problems, [], 'no console error, no CSP violation')
})
