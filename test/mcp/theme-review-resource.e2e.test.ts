import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import t from 'tap'
import { api } from '../render/support.ts'
import { STORE_A } from '../support/app.ts'
import { liveApp, sdkClient } from './support.ts'

// The review view as MCP serves it (issue 37): the UI resource with its MIME type and policy,
// the linked tools naming it, results carrying the view's data in _meta only (text and
// structured content unchanged for clients without the extension), and tools/list growing by
// less than 1,000 bytes.

const URI = 'ui://storefront/theme-review'
const LINKED = ['preview_theme', 'diff_theme', 'check_theme']

t.test('the theme review UI resource', async (t) => {
  const app = await liveApp(t)
  const client = await sdkClient(t, app.mcpUrl, app.keyA)

  const listed = await client.listResources()
  const entry = listed.resources.find((r) => r.uri === URI)
  t.ok(entry, 'resources/list names the view')
  t.equal(entry?.mimeType, 'text/html;profile=mcp-app', 'with the MCP App MIME type')

  const read = await client.readResource({ uri: URI })
  const content = read.contents[0] as { mimeType: string; text: string; _meta?: { ui?: { csp?: unknown } } }
  t.equal(content.mimeType, 'text/html;profile=mcp-app')
  t.match(content.text, /^<!doctype html>/, 'one HTML document')
  t.notMatch(content.text, /<script[^>]+src=/, 'its script inline, nothing loaded from elsewhere')
  const origin = new URL(app.services.baseUrl).origin
  t.same(
    content._meta?.ui?.csp,
    { connectDomains: [], resourceDomains: [origin], frameDomains: [origin] },
    'frames and loads only from the service; connects nowhere',
  )

  const tools = (await client.listTools()).tools as Tool[]
  for (const name of LINKED) {
    const meta = tools.find((x) => x.name === name)?._meta as Record<string, unknown> | undefined
    t.same(meta, { ui: { resourceUri: URI }, 'ui/resourceUri': URI }, `${name} links the view`)
  }
  t.notOk(
    tools.some((x) => !LINKED.includes(x.name) && x._meta),
    'no other tool carries a view',
  )
  const bytes = Buffer.byteLength(JSON.stringify({ tools }))
  // What the links add: the list without any tool's _meta is the list before the view.
  const before = Buffer.byteLength(JSON.stringify({ tools: tools.map(({ _meta, ...rest }) => rest) }))
  t.ok(bytes - before <= 1000, `tools/list grew by ${bytes - before} bytes (at most 1,000)`)
  t.ok(bytes <= 48_000, `tools/list is ${bytes} bytes (budget 48,000)`)
})

t.test("a linked tool's result: the review in _meta, the rest unchanged", async (t) => {
  const app = await liveApp(t)
  const publisher = await app.key(STORE_A)
  const reader = await app.key(STORE_A, ['themes:read', 'themes:preview'])
  const { id } = (await api(app.app, publisher, 'POST', '/api/v1/themes', { name: 'Spring', provider: 'claude' })) as {
    id: string
  }

  for (const [credential, canPublish] of [
    [publisher, true],
    [reader, false],
  ] as const) {
    const client = await sdkClient(t, app.mcpUrl, credential)
    const result = await client.callTool({ name: 'preview_theme', arguments: { id } })
    const review = (result._meta as Record<string, { canPublish: boolean; themeId: string; changes: unknown[] }>)[
      'storefront/review'
    ]
    t.equal(review?.themeId, id, 'the review names the theme')
    t.equal(review?.canPublish, canPublish, `canPublish is ${canPublish} for this credential`)
    t.ok(Array.isArray(review?.changes), 'with what publishing would change')
    const text = (result.content as { type: string; text: string }[])[0]!.text
    t.same(JSON.parse(text), result.structuredContent, 'the text block is the structured content, as before')
    t.notOk('storefront/review' in (result.structuredContent as object), 'the structured content has no review')
  }
  const plain = await (await sdkClient(t, app.mcpUrl, publisher)).callTool({ name: 'list_themes', arguments: {} })
  t.notOk(plain._meta, 'other tools carry no _meta')
})
