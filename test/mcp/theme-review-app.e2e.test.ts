import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createServer as netServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Frame, Page } from 'playwright-core'
import t from 'tap'
import { api } from '../render/support.ts'
import { STORE_A, testApp } from '../support/app.ts'
import { launchChromium } from '../support/chromium.ts'

// The merchant's review inside a chat (issue 37): a test host built on the ext-apps package's
// host side (AppBridge, PostMessageTransport) and the MCP SDK client, served from another origin
// than the service's, calls preview_theme on a draft, loads the UI resource into a sandboxed
// frame and hands it the result. The view shows the draft's preview at three widths, what
// publishing changes, and publishes through the bridge only when the credential may.
//
// Needs Debian's Chromium: apt-get install -y chromium (or CHROMIUM_PATH).

// Run inside the browser (page.evaluate): the test's types know no DOM.
declare const window: any
declare const document: any
declare const getComputedStyle: any
type HTMLElement = any

const ARTIFACTS = new URL('../../test-artifacts/theme-review/', import.meta.url)
const HEADING = 'Spring in the High Atlas'

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = netServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })

async function hostServer(t: { teardown: (fn: () => unknown) => void }): Promise<number> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./app-host/host.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  const script = bundle.outputFiles[0]!.text
  const page =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chat</title></head><body style="margin:0;width:640px"><div id="chat"></div><script type="module" src="/host.js"></script></body></html>'
  const server: Server = createServer((request, response) => {
    if (request.url === '/host.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  return (server.address() as { port: number }).port
}

t.test('the review view in a chat host', async (t) => {
  mkdirSync(ARTIFACTS, { recursive: true })
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const { app, key } = await testApp(t, { env: { BASE_URL: origin } })
  await app.listen({ port, host: '127.0.0.1' })
  const hostPort = await hostServer(t)

  const publisher = await key(STORE_A)
  const reader = await key(STORE_A, ['store:read', 'themes:read', 'themes:write', 'themes:preview'])
  // A copy of the live theme with a new hero heading, as an agent starts a redesign.
  const draft = async (heading: string) => {
    const themes = (await api(app, publisher, 'GET', '/api/v1/themes')) as { themes: { id: string; status: string }[] }
    const live = themes.themes.find((x) => x.status === 'active')!
    const theme = (await api(app, publisher, 'POST', `/api/v1/themes/${live.id}/duplicate`, { name: 'Spring' })) as {
      id: string
    }
    await api(app, publisher, 'POST', `/api/v1/themes/${theme.id}/batch`, {
      operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: { heading } }],
    })
    return theme.id
  }

  const browser = await launchChromium(t)
  if (browser === null) return

  // A chat page with the view opened on `tool`'s result; every console error and CSP report kept.
  const openHost = async (credential: string, tool: string, args: Record<string, unknown>) => {
    const context = await browser.newContext({ viewport: { width: 640, height: 1700 } })
    t.teardown(() => context.close())
    const page = await context.newPage()
    const problems: string[] = []
    page.on('console', (m) => {
      // The SDK client's GET for a server stream answers 405 from a stateless server, and a refused
      // call its HTTP status: the host's own traffic, not the view's.
      if (m.type() === 'error' && !m.location().url.endsWith('/api/v1/mcp'))
        problems.push(`console: ${m.text()} at ${m.location().url}`)
    })
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    const mcp = encodeURIComponent(`${origin}/api/v1/mcp`)
    await page.goto(`http://localhost:${hostPort}/#mcp=${mcp}&key=${encodeURIComponent(credential)}`)
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' })
    await page.evaluate(([name, a]) => window.host.open(name as string, a as Record<string, unknown>), [tool, args])
    const view = await viewFrame(page)
    return { page, view, problems }
  }

  await t.test('preview_theme: the draft at three widths, the change, publishing', async (t) => {
    const id = await draft(HEADING)
    const { page, view, problems } = await openHost(publisher, 'preview_theme', { id })
    await view.waitForSelector('.stage iframe')
    const preview = await previewFrame(view)
    await preview.waitForSelector('h1, h2')
    t.match(await preview.textContent('body'), HEADING, "the frame shows the draft's hero heading")
    t.equal(await preview.evaluate(() => window.innerWidth), 1280, 'Desktop lays out at 1,280 CSS px')
    t.notOk(await preview.$('.menu-toggle, button[aria-controls]'), 'the desktop header, no Menu button')
    await page.waitForTimeout(300)
    await page.screenshot({ path: new URL('desktop.png', ARTIFACTS).pathname })

    const widthAfter = async (button: string, width: number) => {
      await view.click(`button[data-width="${button}"]`)
      const frame = await previewFrame(view)
      await frame.waitForFunction((w: number) => window.innerWidth === w, width, { timeout: 5000 }).catch(() => {})
      return frame.evaluate(() => window.innerWidth)
    }
    t.equal(await widthAfter('Phone', 390), 390, 'Phone lays out at 390 CSS px')
    t.equal(await widthAfter('Tablet', 768), 768, 'Tablet at 768')
    const scale = await view.$eval('.stage iframe', (f) => (f as HTMLElement).getBoundingClientRect().width)
    const pane = await view.$eval('.stage', (s) => s.clientWidth)
    t.ok(scale <= pane + 1, `the scaled frame (${scale} px) fits its pane (${pane} px), never clipped`)
    await view.click('button[data-width="Phone"]')
    await page.waitForTimeout(300)
    await page.screenshot({ path: new URL('phone.png', ARTIFACTS).pathname })

    const changes = await view.textContent('.changes')
    t.match(changes, 'What changes when you publish')
    t.match(changes, `Hero › Heading`, 'the changed section and setting by their labels')
    t.match(changes, HEADING, 'with the new value')
    t.notMatch(changes, /home-hero|settings\.|thm_/, 'no raw ids or paths')

    await view.click('button.primary')
    await view.waitForSelector('.notice.ok')
    t.match(await view.textContent('.notice'), 'is now your live store')
    const live = await app.inject({ method: 'GET', url: '/s/atlas' })
    t.match(live.body, HEADING, 'the live storefront shows the published draft')
    t.same(problems, [], 'no console or CSP errors')
  })

  await t.test('a credential without themes:publish gets no publish button and cannot publish', async (t) => {
    const id = await draft('Autumn on the Rif')
    const { page, view, problems } = await openHost(reader, 'preview_theme', { id })
    await view.waitForSelector('.actions button')
    t.notOk(await view.$('text=Publish version'), 'no publish button')
    t.match(await view.textContent('.actions'), 'Open in the editor')
    await view.click('text=I’ll publish it myself')
    await view.waitForSelector('.notice.ok')
    const messages = await page.evaluate(() => window.host.messages)
    t.match(JSON.stringify(messages), '/dashboard/themes/', 'a message to the conversation with the publish page')
    await view.click('text=Open in the editor')
    t.match(await page.evaluate(() => window.host.links), [/\/dashboard\/themes\/editor\?themeId=/])
    const attempt = await page.evaluate(
      (themeId) =>
        window.host.call('publish_theme', { id: themeId, expectedVersion: 2 }).then(
          (r: unknown) => JSON.stringify(r),
          (e: Error) => `refused: ${e.message}`,
        ),
      id,
    )
    t.notMatch(attempt, /"status":"active"/, `no publish call succeeds (${attempt.slice(0, 80)})`)
    t.notMatch((await app.inject({ method: 'GET', url: '/s/atlas' })).body, 'Autumn on the Rif', 'nothing went live')
    await page.screenshot({ path: new URL('no-publish.png', ARTIFACTS).pathname })
    t.same(problems, [], 'no console or CSP errors')
  })

  await t.test('a change after the view opened: the publish fails with the conflict shown', async (t) => {
    const id = await draft('Sahara nights')
    const { view } = await openHost(publisher, 'preview_theme', { id })
    await view.waitForSelector('button.primary')
    await api(app, publisher, 'POST', `/api/v1/themes/${id}/batch`, {
      operations: [{ op: 'updateSection', sectionId: 'home-hero', settings: { heading: 'Changed meanwhile' } }],
    })
    await view.click('button.primary')
    await view.waitForSelector('.notice.error')
    t.match(await view.textContent('.notice'), 'The draft changed after this review opened')
    t.notMatch((await app.inject({ method: 'GET', url: '/s/atlas' })).body, 'Changed meanwhile', 'nothing went live')
  })

  await t.test('diff_theme and check_theme open the same view; it follows the host theme', async (t) => {
    const id = await draft('Trail kitchens')
    const { page, view, problems } = await openHost(publisher, 'check_theme', { id })
    await view.waitForSelector('.checks')
    t.match(await view.textContent('.checks'), 'Checks')
    t.match(await view.textContent('.changes'), 'Trail kitchens')
    const background = () => view.evaluate(() => getComputedStyle(document.body).backgroundColor)
    const light = await background()
    await page.evaluate(() => window.host.setTheme('dark'))
    await view.waitForFunction((before) => getComputedStyle(document.body).backgroundColor !== before, light)
    t.not(await background(), light, 'dark host theme: the view turns dark')
    const diffed = await openHost(publisher, 'diff_theme', { id })
    await diffed.view.waitForSelector('.changes')
    t.match(await diffed.view.textContent('.changes'), 'Trail kitchens')
    t.same([...problems, ...diffed.problems], [], 'no console or CSP errors')
  })
})

async function viewFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe#view')
  const frame = await handle.contentFrame()
  if (!frame) throw new Error('no view frame')
  await frame.waitForSelector('#review header')
  return frame
}

async function previewFrame(view: Frame): Promise<Frame> {
  const handle = await view.waitForSelector('.stage iframe')
  const frame = await handle.contentFrame()
  if (!frame) throw new Error('no preview frame')
  await frame.waitForLoadState('load')
  return frame
}
