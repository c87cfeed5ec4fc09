import { mkdirSync } from 'node:fs'
import t from 'tap'
import { auth } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { STORE_A } from '../support/app.ts'
import { AgentProvider, loopbackListener } from './agent-provider.ts'
import { liveOAuthApp } from './live.ts'
import { merchantFor } from './sign-in.ts'
import { launchChromium } from '../support/chromium.ts'

// The MCP SDK client's own OAuth support against /api/v1/mcp, the merchant's consent given in a
// real Chromium: 401 -> protected-resource metadata -> authorization-server metadata ->
// registration -> authorize (consent page, Allow) -> token -> tools -> refresh after expiry.
const ARTIFACTS = new URL('../../test-artifacts/oauth/', import.meta.url)

t.test(
  'the MCP SDK client connects through OAuth with the consent given in Chromium, then refreshes after expiry',
  async (t) => {
    const app = await liveOAuthApp(t, { OAUTH_ACCESS_TOKEN_TTL_SECONDS: '2' })
    const merchant = await merchantFor(app, STORE_A)

    // The agent's loopback callback, on a random port (Claude Code style).
    const { redirectUri, codes } = await loopbackListener(t)
    const provider = new AgentProvider(redirectUri)

    // 1. Unauthenticated: the SDK follows the 401 to the metadata, registers, and wants a browser.
    const first = new Client({ name: 'oauth-e2e', version: '1.0.0' })
    await t.rejects(
      first.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl), { authProvider: provider })),
      /Unauthorized/,
    )
    t.match(provider.info?.client_id, /^sfc_/, 'registered itself (RFC 7591)')
    const authorizationUrl = provider.authorizationUrl!
    t.equal(`${authorizationUrl.origin}${authorizationUrl.pathname}`, `${app.url}/oauth/authorize`)
    t.equal(
      authorizationUrl.searchParams.get('resource'),
      app.mcpUrl,
      'asks for the MCP endpoint as resource (RFC 8707)',
    )
    t.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256')

    // 2. The merchant signs in on the real sign-in form and answers the consent page, in a real browser.
    const browser = await launchChromium(t)
    if (browser === null) return
    mkdirSync(ARTIFACTS, { recursive: true })
    const problems: string[] = []
    for (const viewport of [
      { name: 'mobile', width: 390, height: 844 },
      { name: 'desktop', width: 1280, height: 900 },
    ]) {
      const context = await browser.newContext({ viewport })
      const page = await context.newPage()
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text())
      })
      await page.goto(authorizationUrl.toString())
      t.equal(new URL(page.url()).pathname, '/dashboard/login', `${viewport.name}: signed out, the sign-in page first`)
      await page.getByLabel('Email').fill(merchant.email)
      await page.getByLabel('Password').fill(merchant.password)
      const [response] = await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname === '/oauth/authorize' && r.request().method() === 'GET'),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ])
      t.equal(response.status(), 200, `${viewport.name}: back on the consent page after signing in`)
      await page.getByRole('heading', { name: /MCP SDK agent/ }).waitFor({ timeout: 5000 })
      t.ok(await page.getByText('unverified', { exact: true }).isVisible(), `${viewport.name}: labelled unverified`)
      t.notOk(
        await page.getByRole('checkbox', { name: /publish a draft theme/i }).isChecked(),
        `${viewport.name}: publishing is not ticked`,
      )
      t.ok(
        await page.getByRole('checkbox', { name: /read store profile/i }).isChecked(),
        `${viewport.name}: store:read is ticked`,
      )
      await page.screenshot({ path: new URL(`consent-${viewport.name}.png`, ARTIFACTS).pathname, fullPage: true })
      if (viewport.name === 'desktop') {
        await Promise.all([page.waitForURL(/\/callback\?/), page.getByRole('button', { name: 'Allow' }).click()])
        t.match(await page.textContent('body'), /Connected/)
      }
      await context.close()
    }
    t.same(problems, [], 'no console errors (CSP allows the page as it is)')
    const returned = codes.at(-1)!
    t.equal(returned.searchParams.get('iss'), app.url, 'iss (RFC 9207)')
    t.ok(returned.searchParams.get('state'))

    // 3. Back in the agent: exchange the code, then work.
    t.equal(
      await auth(provider, { serverUrl: app.mcpUrl, authorizationCode: returned.searchParams.get('code')! }),
      'AUTHORIZED',
    )
    t.match(provider.saved?.access_token, /^sfat_/)
    const client = new Client({ name: 'oauth-e2e', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl), { authProvider: provider }))
    t.teardown(() => client.close())
    const { tools } = await client.listTools()
    t.ok(tools.some((x) => x.name === 'create_theme'))
    const created = (await client.callTool({
      name: 'create_theme',
      arguments: { name: 'Made through OAuth', provider: 'claude' },
    })) as CallToolResult
    t.notOk(created.isError, 'create_theme works with the granted scopes')
    const themeId = (created.structuredContent as { id: string }).id
    // Publishing was not granted: the endpoint answers HTTP 403 with the insufficient_scope
    // challenge; the SDK tries to step up (its refresh cannot widen the grant) and gives up with 403.
    const publish = await client.callTool({ name: 'publish_theme', arguments: { id: themeId } }).then(
      () => null,
      (error: { code?: number }) => error,
    )
    t.equal(publish?.code, 403, 'publishing was not granted: 403 after the SDK tried to step up')
    const published = await app.services.db
      .selectFrom('themes')
      .select('status')
      .where('theme_id', '=', themeId)
      .executeTakeFirstOrThrow()
    t.equal(published.status, 'draft', 'the theme stayed a draft')

    // 4. The access token expires (2 s here); the SDK refreshes with the rotating refresh token.
    const before = provider.saved!.refresh_token
    const refreshesBefore = provider.refreshes
    await new Promise((r) => setTimeout(r, 2500))
    const context = (await client.callTool({ name: 'get_context', arguments: {} })) as CallToolResult
    t.equal((context.structuredContent as { store: { id: string } }).store.id, STORE_A, 'still working after expiry')
    t.ok(provider.refreshes > refreshesBefore, 'the SDK refreshed the expired token')
    t.not(provider.saved!.refresh_token, before, 'the refresh token rotated')
    const activity = await app.services.db
      .selectFrom('developer_activity')
      .select(['summary', 'credential_kind', 'channel', 'tool'])
      .where('store_id', '=', STORE_A)
      .execute()
    t.ok(
      activity.some((a) => a.credential_kind === 'oauth' && a.tool === 'create_theme'),
      'the theme change is attributed to the OAuth grant',
    )
    t.ok(
      activity.some((a) => /Connected MCP SDK agent \(unverified\)/.test(a.summary)),
      'the consent is in the activity view',
    )
  },
)
