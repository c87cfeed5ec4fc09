import t from 'tap'
import { Ajv } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { structuredDataSchema } from '../../src/mcp/tool-schemas.ts'
import { toolByName, tools } from '../../src/mcp/tools.ts'
import { bearer, testApp } from '../support/app.ts'
import { callTool, errorOf, rpc } from './support.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void

// Every tool, called with valid arguments against a seeded store (history tools included, on a
// theme with a history), answers structuredContent that conforms to the output schema tools/list
// declares, in both dialects a client may compile it with, and to the full zod data schema of
// its operation (the declared one is top-level only). A refused call conforms too.
t.test('every tool’s structuredContent conforms to its declared output schema', async (t) => {
  const app = await testApp(t)
  const listed = await rpc(
    app,
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { 'mcp-protocol-version': '2025-11-25' },
  )
  const declared = new Map((listed.json().result.tools as Tool[]).map((d) => [d.name, d]))
  const validators = [new Ajv({ strict: false, allErrors: true }), new Ajv2020({ strict: false, allErrors: true })]
  for (const v of validators) addFormats(v)
  const compiled = new Map([...declared].map(([name, d]) => [name, validators.map((v) => v.compile(d.outputSchema!))]))

  const post = async (url: string, payload: unknown = {}) => {
    const res = await app.app.inject({
      method: 'POST',
      url,
      headers: bearer(app.keyA),
      payload: payload as Record<string, unknown>,
    })
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
    return res.json().data
  }
  const get = async (url: string) =>
    (await app.app.inject({ method: 'GET', url, headers: bearer(app.keyA) })).json().data

  // A draft with a history of several commands, pages to change and remove, and real ids.
  const draft = (await post('/api/v1/themes', { name: 'Schemas', provider: 'custom' })).id as string
  const toArchive = (await post('/api/v1/themes', { name: 'To archive', provider: 'custom' })).id as string
  const toPublish = (await post('/api/v1/themes', { name: 'To publish', provider: 'custom' })).id as string
  const pageKeep = (await post(`/api/v1/themes/${draft}/pages`, { slug: 'about', title: 'About' })).id as string
  const pageDrop = (await post(`/api/v1/themes/${draft}/pages`, { slug: 'faq', title: 'FAQ' })).id as string
  await post(`/api/v1/themes/${draft}/batch`, {
    operations: [{ op: 'updateTokens', tokens: { primaryColor: '#223344' } }],
  })
  const productId = (await get('/api/v1/products?limit=1')).products[0].id as string
  const collectionId = (await get('/api/v1/collections?limit=1')).collections[0].id as string
  const orderId = (await get('/api/v1/orders?limit=1')).orders[0].id as string
  const versions = (await get(`/api/v1/themes/${draft}/versions`)).versions as { commandId: string; command: string }[]
  const tokenCommand = versions.find((v) => v.command === 'applyThemeBatch')!.commandId
  const publishVersion = (await get(`/api/v1/themes/${toPublish}`)).version as number

  // In call order: reads and edits first, then the history tools on the edited draft.
  const calls: [string, Record<string, unknown>][] = [
    ['get_store', {}],
    ['get_store_settings', {}],
    ['get_context', {}],
    ['get_products', { limit: 2 }],
    ['get_product', { id: productId }],
    ['get_collections', {}],
    ['get_collection', { id: collectionId }],
    ['get_orders', {}],
    ['get_order', { id: orderId }],
    ['list_customers', {}],
    ['get_checkout', {}],
    ['get_themes', {}],
    ['list_themes', { includeArchived: 'true' }],
    ['get_theme', { id: draft }],
    ['get_theme_schema', {}],
    ['create_theme', { name: 'Made over MCP', provider: 'custom' }],
    ['update_theme', { id: draft, name: 'Schemas renamed', tokens: { font: 'Inter' } }],
    ['duplicate_theme', { id: draft }],
    ['archive_theme', { id: toArchive }],
    [
      'apply_theme_batch',
      {
        id: draft,
        operations: [
          {
            op: 'createSection',
            target: { template: 'home' },
            section: { type: 'featured-product', settings: { productId } },
          },
        ],
      },
    ],
    [
      'apply_theme_batch',
      { id: draft, dryRun: true, operations: [{ op: 'updateTokens', tokens: { secondaryColor: '#ffffff' } }] },
    ],
    ['create_page', { id: draft, slug: 'lookbook', title: 'Lookbook' }],
    ['update_page', { id: draft, pageId: pageKeep, title: 'About us' }],
    ['delete_page', { id: draft, pageId: pageDrop }],
    [
      'create_section',
      { id: draft, target: { template: 'home' }, section: { type: 'rich-text', settings: { body: 'Made by hand.' } } },
    ],
    ['update_section', { id: draft, sectionId: 'home-hero', settings: { heading: 'Hello' } }],
    ['delete_section', { id: draft, sectionId: 'home-about' }],
    ['get_media', {}],
    ['upload_media', { url: 'https://cdn.example.com/banner.png', alt: 'Banner' }],
    ['get_navigation', {}],
    ['update_navigation', { menus: [{ handle: 'footer', items: [{ label: 'About', href: '/pages/about' }] }] }],
    ['preview_theme', { id: draft }],
    ['publish_theme', { id: toPublish, expectedVersion: publishVersion }],
    ['list_theme_versions', { id: draft }],
    ['list_theme_versions', { id: draft, limit: 1 }],
    ['get_theme_version', { id: draft, version: 1 }],
    ['get_theme_version', { id: draft, version: 3 }],
    ['diff_theme', { id: draft }],
    ['diff_theme', { id: draft, from: 1, to: 'draft' }],
    ['diff_theme', { id: draft, from: 'live', to: 1 }],
    ['blame_theme', { id: draft }],
    ['check_theme', { id: draft }],
    ['check_theme', { id: draft, version: 1 }],
    ['revert_theme', { id: draft, commandId: tokenCommand }],
    ['revert_theme', { id: draft, toVersion: 1 }],
  ]
  t.same([...new Set(calls.map(([name]) => name))].sort(), tools.map((x) => x.name).sort(), 'every tool is called')

  for (const [name, args] of calls) {
    const label = `${name} ${JSON.stringify(args).slice(0, 80)}`
    const result = await callTool(app, app.keyA, name, args)
    t.notOk(result.isError, `${label}: succeeds ${result.isError ? JSON.stringify(result.structuredContent) : ''}`)
    for (const validate of compiled.get(name)!)
      t.ok(
        validate(result.structuredContent),
        `${label}: conforms to the declared output schema ${JSON.stringify(validate.errors?.slice(0, 2))}`,
      )
    const full = structuredDataSchema(toolByName.get(name)!.op).safeParse(result.structuredContent)
    t.ok(
      full.success,
      `${label}: conforms to the operation’s full data schema ${full.success ? '' : JSON.stringify(full.error.issues.slice(0, 2))}`,
    )
  }

  // A refused call carries { error } in structuredContent, which every output schema admits
  // (SDK v1 clients validate it even when isError is true).
  for (const tool of tools) {
    const refused = await callTool(app, app.keyA, tool.name, { notAnArgument: 1 })
    t.equal(errorOf(refused).code, 'VALIDATION_FAILED', `${tool.name}: an unknown argument is refused`)
    for (const validate of compiled.get(tool.name)!)
      t.ok(validate(refused.structuredContent), `${tool.name}: the error conforms to the output schema`)
  }
})

t.test('a stale publish tells the agent to diff and publish the version it previewed', async (t) => {
  const app = await testApp(t)
  const created = await callTool(app, app.keyA, 'create_theme', { name: 'Stale', provider: 'custom' })
  const { id, version } = created.structuredContent as { id: string; version: number }
  await callTool(app, app.keyA, 'update_theme', { id, tokens: { primaryColor: '#101010' } })
  const refused = await callTool(app, app.keyA, 'publish_theme', { id, expectedVersion: version })
  const error = errorOf(refused)
  t.equal(error.code, 'VERSION_CONFLICT')
  t.match(error.details?.hint, /diff_theme/)
  t.match(error.details?.hint, /expectedVersion/)
  const declared = new Map(
    ((await rpc(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).json().result.tools as Tool[]).map((d) => [
      d.name,
      d,
    ]),
  )
  const validate = new Ajv2020({ strict: false }).compile(declared.get('publish_theme')!.outputSchema!)
  t.ok(validate(refused.structuredContent), 'the conflict conforms to the output schema')
})
