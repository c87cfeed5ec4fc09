import { mkdirSync } from 'node:fs'
import t from 'tap'
import type { Page } from 'playwright-core'
import { auth } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { AgentProvider, loopbackListener } from '../oauth/agent-provider.ts'
import { startService } from './started-service.ts'
import { launchChromium } from '../support/chromium.ts'

// A merchant's first hour, end to end against the service exactly as `npm start` runs it: read the
// sign-in and an API key from the start banner, sign in, create an app, connect an MCP agent
// through OAuth (consent in the browser), let it draft, touch the draft up in the visual editor,
// check the activity view, publish, and see it on the live storefront.
const SHOTS = process.env.WALKTHROUGH_SHOTS ?? '/work/shots/walkthrough/'

const AGENT_NOTE = 'Walkthrough week: free trail maps with every order'
const AGENT_HEADING = 'Packed by people who hike'
const EDITOR_HEADING = 'Atlas Outfitters, tested on Toubkal'

// Browser-side callbacks (the project compiles without the DOM library).
declare const document: any
declare const window: any

const data = <T>(r: unknown) => (r as CallToolResult).structuredContent as T

t.test('fresh start: banner, sign-in, app, MCP over OAuth, editor, activity, publish, live storefront', async (t) => {
  mkdirSync(SHOTS, { recursive: true })
  let step = 0
  const started = Date.now()
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: `${SHOTS}${String(++step).padStart(2, '0')}-${name}.png`, fullPage: true })
    t.comment(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }

  // 0. The start banner: where the service is, the demo merchant's sign-in, an API key.
  const service = await startService(t)
  t.comment(`started: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const store = service.storefronts.find((s) => s.storeId === 'st_demo_atlas')
  const merchant = service.merchants.find((m) => m.store === 'Atlas Outfitters')
  const key = service.keys.find((k) => k.store === 'Atlas Outfitters' && k.name === 'default scopes')
  t.ok(store && merchant && key, 'the banner names the storefront, the merchant sign-in and an API key')
  if (!store || !merchant || !key) return t.comment(service.output())
  t.match(merchant.email, /@/)
  const rest = async (path: string) =>
    (
      await fetch(`${service.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key.key}` } })
    ).json() as Promise<{ data: Record<string, any> }>
  const before = (await rest('/context')).data
  t.equal(before.store.name, 'Atlas Outfitters', 'the banner’s API key works')
  t.equal(before.currentDraftId, null, 'a fresh store has no draft yet')

  const browser = await launchChromium(t)
  if (browser === null) return
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  page.setDefaultTimeout(10_000)
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
  page.on('response', (r) => {
    if (r.status() >= 500) problems.push(`HTTP ${r.status()} ${r.url()}`)
  })

  // 1. Sign in with the banner's email and password.
  await page.goto(`${service.url}/dashboard`)
  t.equal(new URL(page.url()).pathname, '/dashboard/login', 'signed out: the sign-in page')
  await page.getByLabel('Email').fill(merchant.email)
  await page.getByLabel('Password').fill(merchant.password)
  await Promise.all([
    page.waitForURL((u) => !u.pathname.startsWith('/dashboard/login')),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ])
  t.ok(await page.getByText('Atlas Outfitters').first().isVisible(), 'signed in to Atlas Outfitters')
  await shot(page, 'signed-in')

  // 2. Create an app for the agent: public (a desktop client, PKCE only), loopback redirect.
  const callback = await loopbackListener(t)
  await page.goto(`${service.url}/dashboard/developer`)
  await page.getByLabel('Name').fill('Trail agent')
  await page.getByRole('radio', { name: /Public/ }).check()
  await page.getByLabel(/^Redirect URIs/).fill(callback.redirectUri)
  await page.getByRole('button', { name: 'Create app' }).click()
  await page.getByRole('heading', { level: 1, name: 'Trail agent' }).waitFor()
  t.ok(await page.getByText('App created.').isVisible(), 'the dashboard confirms the new app')
  const clientId = (await page.locator('#client-id').innerText()).trim()
  t.match(clientId, /^\S{8,}$/, 'the app shows its client ID')
  await shot(page, 'app-created')

  // 3. The agent (MCP SDK client with its OAuth provider) uses that client ID; the merchant consents in the browser.
  const provider = new AgentProvider(callback.redirectUri, { name: 'Trail agent', info: { client_id: clientId } })
  const mcpUrl = new URL(`${service.url}/api/v1/mcp`)
  await t.rejects(
    new Client({ name: 'trail-agent', version: '1.0.0' }).connect(
      new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }),
    ),
    /Unauthorized/,
    'unauthenticated, the agent is sent to the authorization page',
  )
  t.ok(provider.authorizationUrl, 'the agent has an authorization URL to open')
  await page.goto(provider.authorizationUrl!.toString())
  await page.getByRole('heading', { name: /Trail agent/ }).waitFor()
  t.notOk(
    await page.getByText('unverified', { exact: true }).isVisible(),
    'an app of this store is not labelled unverified',
  )
  t.notOk(
    await page.getByRole('checkbox', { name: /publish a draft theme/i }).isChecked(),
    'publishing stays with the merchant',
  )
  await shot(page, 'consent')
  await Promise.all([page.waitForURL(/\/callback\?/), page.getByRole('button', { name: 'Allow' }).click()])
  t.match(await page.textContent('body'), /Connected/, 'the agent’s callback received the answer')
  const code = callback.codes.at(-1)?.searchParams.get('code')
  t.ok(code, 'an authorization code came back')
  t.equal(await auth(provider, { serverUrl: mcpUrl, authorizationCode: code! }), 'AUTHORIZED')
  const agent = new Client({ name: 'trail-agent', version: '1.0.0' })
  await agent.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))
  t.teardown(() => agent.close())

  // 4. The agent reads the store, drafts from the live theme and applies one batch.
  const ctx = data<{ store: { name: string }; activeThemeId: string; currentDraftId: string | null }>(
    await agent.callTool({ name: 'get_context', arguments: {} }),
  )
  t.equal(ctx.store.name, 'Atlas Outfitters', 'get_context: the store comes from the grant')
  const draft = data<{ id: string; status: string; name: string }>(
    await agent.callTool({ name: 'duplicate_theme', arguments: { id: ctx.activeThemeId } }),
  )
  t.equal(draft.status, 'draft')
  const batch = (await agent.callTool({
    name: 'apply_theme_batch',
    arguments: {
      id: draft.id,
      operations: [
        { op: 'updateSection', sectionId: 'home-announcement', settings: { text: AGENT_NOTE } },
        {
          op: 'createSection',
          target: { template: 'home' },
          index: 2,
          section: {
            type: 'rich-text',
            settings: { heading: AGENT_HEADING, body: '<p>Every pack is loaded and walked before it ships.</p>' },
          },
        },
      ],
    },
  })) as CallToolResult
  t.notOk(batch.isError, 'apply_theme_batch applies')
  t.equal(data<{ applied: number }>(batch).applied, 2, 'both operations in one batch')
  await page.goto(store.url)
  t.notOk(await page.getByText(AGENT_NOTE).isVisible(), 'the draft is not live: the storefront is unchanged')

  // 5. The merchant opens the draft in the visual editor and changes the hero heading.
  await page.goto(`${service.url}/dashboard/themes/editor?themeId=${encodeURIComponent(draft.id)}`)
  await page.getByRole('heading', { level: 1, name: new RegExp(draft.name) }).waitFor()
  t.ok(
    await page.getByRole('button', { name: `Text: ${AGENT_HEADING}`, exact: true }).isVisible(),
    'the editor outline shows the agent’s new section',
  )
  await page.getByRole('button', { name: 'Hero: Atlas Outfitters', exact: true }).click()
  await page.getByLabel('Heading', { exact: true }).fill(EDITOR_HEADING)
  await page.getByLabel('Heading', { exact: true }).press('Enter')
  await page
    .getByRole('status')
    .filter({ hasText: /Saved version \d+: changed Hero/ })
    .waitFor({ state: 'attached' })
  t.pass('the editor saved the change')
  await page.frameLocator('iframe[title="Storefront preview"]').getByText(EDITOR_HEADING).first().waitFor()
  t.pass('the preview shows the new heading')
  await shot(page, 'editor')

  // 6. The activity view lists the agent's change (app, MCP tool) and the merchant's (editor).
  await page.goto(`${service.url}/dashboard/developer/activity`)
  const rows = page.locator('tbody tr')
  const agentRow = rows.filter({ hasText: 'apply_theme_batch' }).first()
  t.match(
    await agentRow.innerText(),
    /Trail agent[\s\S]*via MCP[\s\S]*Announcement bar › Text[\s\S]*Applied/,
    'the agent’s batch, by the app, through MCP, in the editor’s words',
  )
  const editorRow = rows.filter({ hasText: 'via the editor' }).first()
  t.match(
    await editorRow.innerText(),
    /^[\s\S]*You[\s\S]*Hero › Heading[\s\S]*Applied/,
    'the editor change, by the merchant, on the draft',
  )
  t.match(await editorRow.innerText(), draft.name, 'named by the theme’s name')
  t.ok(await rows.filter({ hasText: /Connected Trail agent/ }).count(), 'the consent itself is listed')
  await shot(page, 'activity')

  // 7. Publish from the dashboard, after the confirmation page.
  await page.goto(`${service.url}/dashboard/themes`)
  await page
    .getByRole('row', { name: new RegExp(draft.id) })
    .getByRole('link', { name: 'Publish…' })
    .click()
  await page.getByRole('heading', { level: 1, name: `Publish “${draft.name}”?` }).waitFor()
  await shot(page, 'publish-confirm')
  await Promise.all([
    page.waitForURL(/done=published/),
    page.getByRole('button', { name: /^Publish (now|version \d+)$/ }).click(),
  ])
  t.ok(
    await page.getByText('Published. The theme is now live on your storefront.').isVisible(),
    'the dashboard confirms',
  )
  t.match(
    await page.getByRole('row', { name: new RegExp(draft.id) }).innerText(),
    /Live/,
    'the draft is now the live theme',
  )
  await shot(page, 'published')
  t.equal((await rest('/context')).data.activeThemeId, draft.id, 'the API agrees: the draft is live')

  // 8. The live storefront, as a visitor sees it (no session).
  const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const live = await visitor.newPage()
  await live.goto(store.url)
  t.ok(await live.getByText(AGENT_NOTE).first().isVisible(), 'the agent’s announcement is live')
  t.ok(await live.getByRole('heading', { name: AGENT_HEADING }).isVisible(), 'the agent’s new section is live')
  t.ok(await live.getByRole('heading', { name: EDITOR_HEADING }).isVisible(), 'the editor’s heading is live')
  // Scrolled through once, as a visitor would, so lazy images load; none may be broken.
  await live.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y)
      await new Promise((r) => setTimeout(r, 50))
    }
    window.scrollTo(0, 0)
  })
  await live.waitForLoadState('networkidle')
  const broken = await live
    .locator('img')
    .evaluateAll((imgs) =>
      imgs.filter((i: any) => !i.complete || i.naturalWidth === 0).map((i: any) => i.currentSrc || i.src),
    )
  t.same(broken, [], 'every image on the live home page loads')
  await shot(live, 'storefront')
  await live.setViewportSize({ width: 390, height: 844 })
  await live.goto(store.url)
  await live.evaluate(() => window.scrollTo(0, 0))
  t.ok(await live.getByRole('heading', { name: EDITOR_HEADING }).isVisible(), 'on a phone too')
  await live.screenshot({ path: `${SHOTS}${String(step).padStart(2, '0')}-storefront-mobile.png` })
  t.same(problems, [], 'no page errors and no server errors along the way')
})
