import t from 'tap'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { STORE_A } from '../support/app.ts'
import { liveApp, sdkClient } from './support.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

const TOOL_NAMES = [
  'get_store',
  'get_store_settings',
  'get_context',
  'get_products',
  'get_product',
  'get_collections',
  'get_collection',
  'get_orders',
  'get_order',
  'list_customers',
  'get_checkout',
  'get_themes',
  'list_themes',
  'get_theme',
  'get_theme_schema',
  'create_theme',
  'update_theme',
  'duplicate_theme',
  'archive_theme',
  'apply_theme_batch',
  'create_page',
  'update_page',
  'delete_page',
  'create_section',
  'update_section',
  'delete_section',
  'get_media',
  'upload_media',
  'get_navigation',
  'update_navigation',
  'preview_theme',
  'publish_theme',
  'list_theme_versions',
  'get_theme_version',
  'diff_theme',
  'blame_theme',
  'check_theme',
  'revert_theme',
]

const data = <T = Record<string, any>>(r: unknown) => (r as CallToolResult).structuredContent as T

t.test('the official SDK client lists 38 tools with valid schemas and runs the whole theme workflow', async (t) => {
  const app = await liveApp(t)
  const agentKey = await app.key(STORE_A, [
    'store:read',
    'products:read',
    'collections:read',
    'settings:read',
    'themes:read',
    'themes:create',
    'themes:write',
    'themes:preview',
    'pages:read',
    'pages:write',
    'media:read',
    'media:write',
    'navigation:read',
    'navigation:write',
  ])
  const client = await sdkClient(t, app.mcpUrl, agentKey)

  t.equal(client.getServerVersion()?.name, 'storefront-theme-service')
  t.ok(client.getServerCapabilities()?.tools, 'tools capability')
  t.ok(client.getServerCapabilities()?.resources, 'resources capability')
  t.match(client.getInstructions(), /get_context/)

  const { tools } = await client.listTools()
  t.same(tools.map((x) => x.name).sort(), [...TOOL_NAMES].sort(), 'exactly the 38 tools')
  t.equal(tools.length, 38)
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  for (const tool of tools) {
    t.equal(tool.inputSchema.type, 'object', `${tool.name} input is an object`)
    t.equal(tool.outputSchema?.type, 'object', `${tool.name} output is an object`)
    t.ok(ajv.validateSchema(tool.inputSchema), `${tool.name} inputSchema is valid JSON Schema 2020-12`)
    t.ok(ajv.validateSchema(tool.outputSchema!), `${tool.name} outputSchema is valid JSON Schema 2020-12`)
    t.doesNotThrow(() => ajv.compile(tool.inputSchema), `${tool.name} inputSchema compiles`)
    t.doesNotThrow(() => ajv.compile(tool.outputSchema!), `${tool.name} outputSchema compiles`)
    t.ok(tool.description && tool.description.length > 20, `${tool.name} has a description`)
    t.ok(tool.title, `${tool.name} has a title`)
    t.type(tool.annotations?.readOnlyHint, 'boolean', `${tool.name} says whether it is read-only`)
  }
  const byName = new Map(tools.map((x) => [x.name, x]))
  for (const name of ['publish_theme', 'archive_theme', 'delete_page', 'delete_section'])
    t.equal(byName.get(name)!.annotations?.destructiveHint, true, `${name} is destructive`)
  for (const name of ['get_theme', 'get_context', 'preview_theme', 'get_products'])
    t.equal(byName.get(name)!.annotations?.readOnlyHint, true, `${name} is read-only`)

  // The workflow, through tools only.
  const context = data(await client.callTool({ name: 'get_context', arguments: {} }))
  t.equal(context.store.id, STORE_A)
  t.equal(context.currentDraftId, null)
  t.equal(context.workflow.next[1].action, 'createTheme')
  const schema = data(await client.callTool({ name: 'get_theme_schema', arguments: {} }))
  t.ok(Object.keys(schema).length > 0, 'the theme schema')
  const created = await client.callTool({ name: 'create_theme', arguments: { name: 'Spring', provider: 'claude' } })
  t.notOk(created.isError, 'create_theme succeeds')
  const theme = data(created)
  t.equal(theme.status, 'draft')
  const products = data(await client.callTool({ name: 'get_products', arguments: { limit: 2 } }))
  t.equal(products.products.length, 2)
  t.equal(products.pagination.limit, 2)
  const productId = products.products[0].id as string

  const batch = await client.callTool({
    name: 'apply_theme_batch',
    arguments: {
      id: theme.id,
      operations: [
        {
          op: 'createSection',
          target: { template: 'home' },
          index: 0,
          section: { type: 'featured-product', settings: { productId } },
        },
      ],
    },
  })
  t.notOk(batch.isError, 'the batch applies')
  t.equal(data(batch).theme.document.templates.home[0].settings.productId, productId)
  t.equal(data(batch).applied, 1)

  const invented = await client.callTool({
    name: 'apply_theme_batch',
    arguments: {
      id: theme.id,
      operations: [
        {
          op: 'createSection',
          target: { template: 'home' },
          section: { type: 'featured-product', settings: { productId: 'prod_invented' } },
        },
      ],
    },
  })
  t.equal(invented.isError, true, 'an invented product id is a tool error')
  const invError = data(invented).error
  t.equal(invError.code, 'INVALID_PRODUCT_REFERENCE')
  t.match(invError.details.hint, /get_products/)
  t.same(
    JSON.parse(((invented as CallToolResult).content as { type: string; text: string }[])[0]!.text),
    data(invented),
    'the text block mirrors structuredContent',
  )

  const preview = await client.callTool({ name: 'preview_theme', arguments: { id: theme.id } })
  t.notOk(preview.isError)
  t.match(data(preview).previewUrl, /^http:\/\/storefront\.test\/preview\//)

  // No publishing without themes:publish: HTTP 403 with the step-up challenge, which the SDK
  // client (without an OAuth provider to step up with) reports as an HTTP error.
  await t.rejects(
    client.callTool({ name: 'publish_theme', arguments: { id: theme.id } }),
    { code: 403, message: /INSUFFICIENT_SCOPE.*themes:publish/ },
    'no publishing without themes:publish',
  )
  t.equal(
    data(await client.callTool({ name: 'get_theme', arguments: { id: theme.id } })).status,
    'draft',
    'still a draft',
  )

  const publisher = await sdkClient(t, app.mcpUrl, await app.key(STORE_A, ['themes:read', 'themes:publish']))
  const published = await publisher.callTool({ name: 'publish_theme', arguments: { id: theme.id } })
  t.notOk(published.isError, 'publish_theme succeeds with the scope')
  t.equal(data(published).status, 'active')

  const after = data(await client.callTool({ name: 'get_theme', arguments: { id: theme.id } }))
  t.equal(after.status, 'active', 'get_theme shows the theme live')
  t.equal(after.document.templates.home[0].settings.productId, productId)

  // Resources through the SDK client.
  const { resources } = await client.listResources()
  const uris = resources.map((r) => r.uri)
  t.ok(uris.includes('storefront://context'))
  t.ok(uris.includes('storefront://schema'))
  t.ok(uris.includes(`storefront://themes/${theme.id}`))
  const read = await client.readResource({ uri: `storefront://themes/${theme.id}` })
  t.equal(JSON.parse((read.contents[0] as { text: string }).text).status, 'active')
  const templates = await client.listResourceTemplates()
  t.equal(templates.resourceTemplates[0]!.uriTemplate, 'storefront://themes/{id}')
  await client.ping()
})
