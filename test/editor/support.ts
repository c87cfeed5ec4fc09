import axe from 'axe-core'
// An app with the editor on a fresh seeded database, listening on a loopback port, plus a
// watched Chromium page (console errors, failed requests, CSP violations).
import { mkdirSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { loadConfig } from '../../src/config.ts'
import { buildApp } from '../../src/http/app.ts'
import { createApiKey, ensureApp } from '../../src/auth/credentials.ts'
import { startSession } from '../../src/auth/merchant-session.ts'
import { SCOPES } from '../../src/auth/scopes.ts'
import { servicePlugins } from '../../src/plugins.ts'
import { createServices, type Services } from '../../src/services.ts'
import { freshDatabase } from '../support/database.ts'
import { launchChromium } from '../support/chromium.ts'

export const STORE_A = 'st_demo_atlas'
export const STORE_B = 'st_demo_lumen'
export const ARTIFACTS = new URL('../../test-artifacts/editor/', import.meta.url)

type T = { teardown: (fn: () => unknown) => void }

const SESSION_COOKIE = 'sf_session'

export type EditorTestApp = {
  app: FastifyInstance
  services: Services
  origin: string
  agentKey: string
  merchantA: string
  merchantB: string
  /** A real merchant session (the cookie value) for the merchant's first store. */
  signIn: (merchantId: string) => Promise<string>
  api: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; json: any; etag: string | undefined }>
}

export async function editorTestApp(t: T): Promise<EditorTestApp> {
  const { db } = await freshDatabase(t, { seed: 'demo' })
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    BASE_URL: 'http://storefront.test',
    RATE_LIMIT_MAX: '100000',
    SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
  })
  const services = createServices({
    config,
    db,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
  })
  const app = await buildApp(services, servicePlugins())
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const { port } = app.server.address() as { port: number }
  const appId = await ensureApp(db, { storeId: STORE_A, name: 'Claude (test agent)' })
  const agentKey = (await createApiKey(db, { storeId: STORE_A, appId, name: 'agent', scopes: SCOPES })).key
  const merchantOf = async (storeId: string) =>
    (await db.selectFrom('stores').select('merchant_id').where('store_id', '=', storeId).executeTakeFirstOrThrow())
      .merchant_id
  const api: EditorTestApp['api'] = async (method, path, body, headers = {}) => {
    const response = await app.inject({
      method: method as 'GET',
      url: path,
      headers: {
        authorization: `Bearer ${agentKey}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    })
    return { status: response.statusCode, json: response.json(), etag: response.headers.etag as string | undefined }
  }
  const signIn = async (merchantId: string) => {
    const store = await db
      .selectFrom('stores')
      .select('store_id')
      .where('merchant_id', '=', merchantId)
      .orderBy('store_id')
      .executeTakeFirstOrThrow()
    return (await startSession(services, { merchantId, storeId: store.store_id })).token
  }
  return {
    app,
    services,
    origin: `http://127.0.0.1:${port}`,
    agentKey,
    merchantA: await merchantOf(STORE_A),
    merchantB: await merchantOf(STORE_B),
    signIn,
    api,
  }
}

export async function launch(t: T & { fail: (m: string) => void }): Promise<Browser | null> {
  mkdirSync(ARTIFACTS, { recursive: true })
  return launchChromium(t)
}

export type Watch = { problems: string[] }

/** A page signed in as the merchant, recording console errors, page errors, failed requests and CSP violations. */
export async function merchantPage(
  browser: Browser,
  env: EditorTestApp,
  merchantId: string,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page; watch: Watch }> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 })
  await context.addCookies([{ name: SESSION_COOKIE, value: await env.signIn(merchantId), url: env.origin }])
  const page = await context.newPage()
  const watch: Watch = { problems: [] }
  await page.exposeFunction('__reportCspViolation', (text: string) => watch.problems.push(`CSP violation: ${text}`))
  await page.addInitScript(() => {
    const w = globalThis as unknown as {
      document: {
        addEventListener(type: string, l: (e: { violatedDirective: string; blockedURI: string }) => void): void
      }
      __reportCspViolation(text: string): void
    }
    w.document.addEventListener('securitypolicyviolation', (e) =>
      w.__reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`),
    )
  })
  page.on('console', (message) => {
    // Chromium logs every 4xx answer to fetch; refusals (400 issues, 409 conflicts) are expected
    // answers the editor shows, and server faults are caught by the response check below.
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return
    if (message.type() === 'error' || message.type() === 'warning')
      watch.problems.push(`console ${message.type()}: ${message.text()}`)
  })
  page.on('response', (response) => {
    if (response.status() >= 500 || response.status() === 404)
      watch.problems.push(`HTTP ${response.status()}: ${response.url()}`)
  })
  page.on('pageerror', (error) => watch.problems.push(`page error: ${error.message}`))
  page.on('requestfailed', (request) => {
    // A preview reload that replaces the previous one cancels it; that is not a failure.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') watch.problems.push(`request failed: ${request.url()}`)
  })
  return { context, page, watch }
}

export const editorUrl = (env: EditorTestApp, themeId: string) =>
  `${env.origin}/dashboard/themes/editor?themeId=${encodeURIComponent(themeId)}`

export async function createDraft(env: EditorTestApp, name: string): Promise<string> {
  const created = await env.api('POST', '/api/v1/themes', { name, provider: 'claude' })
  if (created.status !== 201) throw new Error(`createTheme: ${created.status} ${JSON.stringify(created.json)}`)
  return created.json.data.id as string
}

/** Selects the first occurrence of `text` inside a contenteditable (a rich text field), as a merchant would with the mouse. */
export async function selectText(field: Locator, text: string): Promise<void> {
  await field.evaluate((el: any, wanted: string) => {
    const doc = el.ownerDocument
    el.focus()
    const walker = doc.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.data.indexOf(wanted)
      if (at < 0) continue
      const range = doc.createRange()
      range.setStart(node, at)
      range.setEnd(node, at + wanted.length)
      const selection = doc.getSelection()
      selection.removeAllRanges()
      selection.addRange(range)
      return
    }
    throw new Error(`no text "${wanted}" in the field`)
  }, text)
}

/** The input's value once it equals `expected` (a re-render after a click may take a moment), or whatever it holds after `ms`. */
export async function settledValue(input: Locator, expected: string, ms = 5000): Promise<string> {
  const until = Date.now() + ms
  let value = await input.inputValue()
  while (value !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    value = await input.inputValue()
  }
  return value
}

// axe-core's serious and critical violations on the editor page (its preview frame left out: the
// storefront's own scans cover it), one line each with the elements they name.
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source)
  const result = (await page.evaluate("axe.run(document, { iframes: false, resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[]
  }
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}
