import t from 'tap'
import { Ajv } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { toolByName, tools } from '../../src/mcp/tools.ts'
import { bearer, STORE_A, testApp, type TestApp } from '../support/app.ts'
import { callTool, rpc } from './support.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void

// The REST request of a tool call: path parameters into the path, the rest as the query.
function restUrl(name: string, args: Record<string, unknown>): string {
  const op = toolByName.get(name)!.op
  const query = new URLSearchParams()
  let path = op.path
  for (const [k, v] of Object.entries(args)) {
    if (path.includes(`:${k}`)) path = path.replace(`:${k}`, encodeURIComponent(String(v)))
    else query.set(k, String(v))
  }
  const qs = query.toString()
  return qs ? `${path}?${qs}` : path
}

async function rest(app: TestApp, name: string, args: Record<string, unknown>) {
  const res = await app.app.inject({ method: 'GET', url: restUrl(name, args), headers: bearer(app.keyA) })
  if (res.statusCode !== 200) throw new Error(`${restUrl(name, args)}: ${res.statusCode} ${res.body}`)
  return res.json() as { data: Record<string, unknown>; pagination?: Record<string, unknown> }
}

t.test(
  'every read tool returns the REST data (lists: with their pagination) and conforms to its output schema',
  async (t) => {
    const app = await testApp(t)
    const listed = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const definitions = new Map((listed.json().result.tools as Tool[]).map((d) => [d.name, d]))
    // Both dialects: the SDK client's Ajv (draft-07 default) and 2020-12 (MCP's default dialect).
    const validators = [new Ajv({ strict: false, allErrors: true }), new Ajv2020({ strict: false, allErrors: true })]
    for (const v of validators) addFormats(v)
    const compiled = new Map(
      [...definitions].map(([name, d]) => [name, validators.map((v) => v.compile(d.outputSchema!))]),
    )

    const first = async (name: string, key: string) =>
      ((await rest(app, name, {})).data[key] as { id: string }[])[0]!.id
    const productId = await first('get_products', 'products')
    const collectionId = await first('get_collections', 'collections')
    const orderId = await first('get_orders', 'orders')
    const themeId = ((await rest(app, 'list_themes', {})).data.themes as { id: string }[])[0]!.id
    // A second page, to compare cursors too.
    const page1 = await rest(app, 'get_products', { limit: 2 })
    const cursor = page1.pagination!.nextCursor as string
    t.ok(cursor, 'there is a second page of products')

    const cases: [string, Record<string, unknown>][] = [
      ['get_store', {}],
      ['get_store_settings', {}],
      ['get_context', {}],
      ['get_products', {}],
      ['get_products', { limit: 2 }],
      ['get_products', { limit: 2, cursor }],
      ['get_products', { status: 'active', limit: 5 }],
      ['get_products', { collectionId, limit: 3 }],
      ['get_product', { id: productId }],
      ['get_collections', {}],
      ['get_collections', { limit: 1 }],
      ['get_collection', { id: collectionId }],
      ['get_orders', {}],
      ['get_orders', { limit: 3 }],
      ['get_order', { id: orderId }],
      ['list_customers', {}],
      ['list_customers', { limit: 2 }],
      ['get_checkout', {}],
      ['get_themes', {}],
      ['list_themes', {}],
      ['list_themes', { includeArchived: 'true' }],
      ['get_theme', { id: themeId }],
      ['get_theme_schema', {}],
      ['get_media', {}],
      ['get_media', { limit: 1 }],
      ['get_navigation', {}],
      ['list_theme_versions', { id: themeId }],
      ['list_theme_versions', { id: themeId, limit: 1 }],
      ['get_theme_version', { id: themeId, version: 1 }],
      ['diff_theme', { id: themeId }],
      ['diff_theme', { id: themeId, from: 1, to: 'draft' }],
      ['blame_theme', { id: themeId }],
      ['check_theme', { id: themeId }],
      ['check_theme', { id: themeId, version: 1 }],
    ]
    // Every read-only tool is here except preview_theme, which issues a new signed URL each time.
    const readTools = tools
      .filter((x) => x.spec.annotations.readOnlyHint && x.name !== 'preview_theme')
      .map((x) => x.name)
    t.same([...new Set(cases.map(([n]) => n))].sort(), readTools.sort(), 'all read tools are compared')

    for (const [name, args] of cases) {
      const label = `${name} ${JSON.stringify(args)}`
      const result = await callTool(app, app.keyA, name, args)
      t.notOk(result.isError, `${label}: no error`)
      const expected = await rest(app, name, args)
      const paginated = toolByName.get(name)!.op.paginated === true
      t.equal(expected.pagination !== undefined, paginated, `${label}: REST pagination iff the operation is paginated`)
      t.same(
        result.structuredContent,
        paginated ? { ...expected.data, pagination: expected.pagination } : expected.data,
        `${label}: structuredContent equals the REST data`,
      )
      t.same(
        JSON.parse((result.content[0] as { text: string }).text),
        result.structuredContent,
        `${label}: the text block mirrors it`,
      )
      for (const validate of compiled.get(name)!)
        t.ok(
          validate(result.structuredContent),
          `${label}: conforms to the output schema ${JSON.stringify(validate.errors?.slice(0, 2))}`,
        )
    }
    const own = await callTool(app, app.keyA, 'get_context', {})
    t.equal((own.structuredContent as { store: { id: string } }).store.id, STORE_A)

    // Errors conform too (the output schema admits { error }).
    const missing = await callTool(app, app.keyA, 'get_theme', { id: 'thm_nope' })
    t.equal(missing.isError, true)
    for (const validate of compiled.get('get_theme')!)
      t.ok(validate(missing.structuredContent), 'a tool error conforms to the output schema')
  },
)
