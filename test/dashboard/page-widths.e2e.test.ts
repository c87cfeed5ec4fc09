import { mkdirSync } from 'node:fs'
import t from 'tap'
import type { Page } from 'playwright-core'
import { bearer, STORE_A, testApp } from '../support/app.ts'
import { EMAIL_A, liveThemeId, passwordOf } from './support.ts'
import { launchChromium } from '../support/chromium.ts'

// No dashboard page scrolls sideways (issue 34, point 16): every page the dashboard serves, at
// 390 and 1280 px, has document.documentElement.scrollWidth ≤ the viewport's width, with the data
// that makes pages wide (long names, a secret shown once, a compared draft with changes). The page
// list is checked against the app's own GET routes, so a new page must be added here. With
// SCREENSHOTS=1 each page is saved to test-artifacts/page-widths/ for a look as a shop owner.
const ARTIFACTS = new URL('../../test-artifacts/page-widths/', import.meta.url)
const SHOTS = process.env.SCREENSHOTS === '1'

// Routes that are not pages a merchant reads: assets, the editor's JSON API, a CSV download, the
// catch-all 404 (visited below as "not-found"), redirects.
const NOT_PAGES = [
  /^\/dashboard\/assets\//,
  /^\/dashboard\/themes\/editor\/(assets|api)\//,
  /\*$/,
  /^\/dashboard\/developer\/activity\.csv$/,
  /^\/dashboard$/,
  /^\/dashboard\/developer\/apps$/,
]

// The GET routes under /dashboard, from Fastify's route tree (one line per node, nested by indent).
function dashboardRoutes(tree: string): string[] {
  const out: string[] = []
  const stack: { depth: number; path: string }[] = []
  for (const line of tree.split('\n')) {
    const m = /^([\s│]*)[├└]── (\S+) \(([A-Z, ]+)\)/.exec(line)
    if (!m) continue
    const depth = m[1]!.length
    while (stack.length && stack[stack.length - 1]!.depth >= depth) stack.pop()
    const path = `${stack[stack.length - 1]?.path ?? ''}${m[2]}`
    stack.push({ depth, path })
    if (m[3]!.includes('GET') && path.startsWith('/dashboard')) out.push(path)
  }
  return out
}

t.test('no dashboard page scrolls sideways at 390 or 1280 px', async (t) => {
  const testing = await testApp(t)
  const { app, services, keyA } = testing
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const password = await passwordOf(services, EMAIL_A)
  if (SHOTS) mkdirSync(ARTIFACTS, { recursive: true })

  const api = async (method: string, url: string, payload?: object) =>
    (await app.inject({ method: method as 'GET', url, headers: bearer(keyA), ...(payload ? { payload } : {}) })).json()
  // A draft with a long name, a new section and a changed colour: history, compare and publish have rows and badges.
  const draft = (
    await api('POST', '/api/v1/themes', {
      name: 'Autumn collection launch with a rather long theme name',
      provider: 'claude',
    })
  ).data.id as string
  await api('POST', `/api/v1/themes/${draft}/batch`, {
    operations: [
      { op: 'updateTokens', tokens: { primaryColor: '#7c2d12' } },
      {
        op: 'createSection',
        target: { template: 'home' },
        index: 0,
        section: {
          id: 'autumn-note',
          type: 'rich-text',
          settings: { heading: 'Autumn is here', body: '<p>New coats.</p>' },
        },
      },
    ],
  })
  const liveId = await liveThemeId(services, STORE_A)
  const appRow = await services.db
    .selectFrom('apps')
    .select('app_id')
    .where('store_id', '=', STORE_A)
    .executeTakeFirstOrThrow()
  const order = await services.db
    .selectFrom('orders')
    .select('order_id')
    .where('store_id', '=', STORE_A)
    .executeTakeFirstOrThrow()

  // Each page route with a URL that shows it filled in.
  const pages: Record<string, string[]> = {
    '/dashboard/login': ['/dashboard/login'],
    '/dashboard/themes': ['/dashboard/themes'],
    '/dashboard/themes/rollback': ['/dashboard/themes/rollback'],
    '/dashboard/themes/editor': [`/dashboard/themes/editor?themeId=${draft}`],
    '/dashboard/themes/:id/publish': [`/dashboard/themes/${draft}/publish`, `/dashboard/themes/${liveId}/publish`],
    '/dashboard/themes/:id/preview': [`/dashboard/themes/${draft}/preview`],
    '/dashboard/themes/:id/versions': [`/dashboard/themes/${draft}/versions`],
    '/dashboard/themes/:id/versions/:version/preview': [`/dashboard/themes/${draft}/versions/1/preview`],
    '/dashboard/themes/:id/compare': [
      `/dashboard/themes/${draft}/compare?from=1&to=draft`,
      `/dashboard/themes/${draft}/compare`,
    ],
    '/dashboard/developer': ['/dashboard/developer'],
    '/dashboard/developer/apps/:id': [`/dashboard/developer/apps/${appRow.app_id}`],
    '/dashboard/developer/activity': ['/dashboard/developer/activity'],
    '/dashboard/account': ['/dashboard/account'],
    '/dashboard/orders': ['/dashboard/orders'],
    '/dashboard/orders/:id': [`/dashboard/orders/${order.order_id}`],
    'not-found': ['/dashboard/no-such-page'],
  }
  const routes = dashboardRoutes(app.printRoutes({ method: 'GET', commonPrefix: false })).filter(
    (r) => !NOT_PAGES.some((p) => p.test(r)),
  )
  t.same(
    routes.filter((r) => !(r in pages)),
    [],
    'every dashboard page route is visited',
  )

  const browser = await launchChromium(t)
  if (browser === null) return

  // The page's width; when it is too wide, the outermost elements that stick out; and boxes that
  // scroll sideways inside the page (a table whose buttons are cut off at the card's edge).
  const measure = (page: Page) =>
    page.evaluate(() => {
      const d = (globalThis as any).document
      const w = (globalThis as any).innerWidth as number
      const name = (el: any) =>
        `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`
      const wide: string[] = []
      const cut: string[] = []
      for (const el of d.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect()
        if (r.right > w + 1 && !(el.parentElement && el.parentElement.getBoundingClientRect().right > w + 1))
          wide.push(`${name(el)} (${Math.round(r.right)} px)`)
        const overflow = (globalThis as any).getComputedStyle(el).overflowX
        if ((overflow === 'auto' || overflow === 'scroll') && el.scrollWidth > el.clientWidth + 1)
          cut.push(`${name(el)} (${el.scrollWidth} px in ${el.clientWidth})`)
      }
      return {
        scrollWidth: d.documentElement.scrollWidth as number,
        width: w,
        wide: wide.slice(0, 5),
        cut: cut.slice(0, 5),
      }
    })

  // Each page is loaded once and measured at both widths: the viewport changes, the page lays out again.
  const WIDTHS = [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]
  const context = await browser.newContext({ viewport: WIDTHS[0]! })
  // Images do not change a page's width (the layout sizes them); without SCREENSHOTS they are not fetched.
  if (!SHOTS) await context.route('**/*', (r) => (r.request().resourceType() === 'image' ? r.abort() : r.continue()))
  const page = await context.newPage()
  const visit = async (name: string, url: string | null) => {
    if (url) await page.goto(`${address}${url}`, { waitUntil: 'load' })
    for (const viewport of WIDTHS) {
      await page.setViewportSize(viewport)
      const m = await measure(page)
      if (SHOTS)
        await page.screenshot({ path: new URL(`${name}-${viewport.width}.png`, ARTIFACTS).pathname, fullPage: true })
      t.ok(m.scrollWidth <= m.width, `${name} at ${viewport.width} px: ${m.scrollWidth} ≤ ${m.width}`, {
        wide: m.wide,
      })
      t.same(m.cut, [], `${name} at ${viewport.width} px: nothing scrolls sideways inside the page`)
    }
  }
  await visit('login', '/dashboard/login')
  await page.getByLabel('Email').fill(EMAIL_A)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/dashboard\/themes$/)
  for (const [route, urls] of Object.entries(pages)) {
    if (route === '/dashboard/login') continue
    for (const [i, url] of urls.entries())
      await visit(`${route.replace(/^\/dashboard\/?/, '').replace(/[/:]+/g, '-') || 'home'}${i ? `-${i}` : ''}`, url)
  }
  // A secret shown once (a new confidential app's): the longest word a page shows.
  await page.goto(`${address}/dashboard/developer`)
  await page.getByLabel('Name', { exact: true }).fill('Connector with a rather long name')
  await page.getByRole('button', { name: 'Create app' }).click()
  await page.locator('code.secret').waitFor()
  await visit('secret-shown', null)
  await context.close()
})
