import t from 'tap'
import { SCOPES, type Scope } from '../../src/auth/scopes.ts'
import { tools } from '../../src/mcp/tools.ts'
import { bearer, STORE_A, testApp } from '../support/app.ts'
import { callTool, rpc } from './support.ts'

const challenge = (required: readonly string[]) =>
  `Bearer error="insufficient_scope", scope="${required.join(' ')}", resource_metadata="http://storefront.test/.well-known/oauth-protected-resource/api/v1/mcp"`
let id = 1
const callToolHttp = (
  app: Awaited<ReturnType<typeof testApp>>,
  key: string,
  name: string,
  args: Record<string, unknown>,
) =>
  rpc(
    app,
    { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } },
    { 'mcp-protocol-version': '2025-11-25' },
    key,
  )

// For every tool: each required scope missing -> HTTP 403 INSUFFICIENT_SCOPE naming it, with the
// step-up challenge (MCP authorization, scope challenge handling), nothing done;
// exactly the required scopes -> the call runs (it may still fail, for business reasons only).
t.test('scope matrix over the 38 tools', async (t) => {
  const app = await testApp(t)
  const keys = new Map<string, string>()
  const keyFor = async (scopes: readonly string[]) => {
    const id = [...scopes].sort().join(' ')
    if (!keys.has(id)) keys.set(id, await app.key(STORE_A, scopes as Scope[]))
    return keys.get(id)!
  }
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

  // Fixtures, made over REST: drafts to edit, archive and publish; two pages; real ids.
  const draft = (await post('/api/v1/themes', { name: 'Matrix', provider: 'custom' })).id as string
  const toArchive = (await post('/api/v1/themes', { name: 'To archive', provider: 'custom' })).id as string
  const toPublish = (await post('/api/v1/themes', { name: 'To publish', provider: 'custom' })).id as string
  const pageKeep = (await post(`/api/v1/themes/${draft}/pages`, { slug: 'about', title: 'About' })).id as string
  const pageDrop = (await post(`/api/v1/themes/${draft}/pages`, { slug: 'faq', title: 'FAQ' })).id as string
  const productId = (await get('/api/v1/products?limit=1')).products[0].id as string
  const collectionId = (await get('/api/v1/collections?limit=1')).collections[0].id as string
  const orderId = (await get('/api/v1/orders?limit=1')).orders[0].id as string

  const args: Record<string, Record<string, unknown>> = {
    get_store: {},
    get_store_settings: {},
    get_context: {},
    get_products: { limit: 1 },
    get_product: { id: productId },
    get_collections: {},
    get_collection: { id: collectionId },
    get_orders: {},
    get_order: { id: orderId },
    list_customers: {},
    get_checkout: {},
    get_themes: {},
    list_themes: {},
    get_theme: { id: draft },
    get_theme_schema: {},
    create_theme: { name: 'Made with exact scopes', provider: 'custom' },
    update_theme: { id: draft, name: 'Matrix renamed', tokens: { primaryColor: '#112233' } },
    duplicate_theme: { id: draft },
    archive_theme: { id: toArchive },
    apply_theme_batch: {
      id: draft,
      operations: [
        {
          op: 'createSection',
          target: { template: 'home' },
          section: { type: 'featured-product', settings: { productId } },
        },
      ],
    },
    create_page: { id: draft, slug: 'lookbook', title: 'Lookbook' },
    update_page: { id: draft, pageId: pageKeep, title: 'About us' },
    delete_page: { id: draft, pageId: pageDrop },
    create_section: {
      id: draft,
      target: { template: 'home' },
      section: { type: 'featured-product', settings: { productId } },
    },
    update_section: { id: draft, sectionId: 'home-hero', settings: { heading: 'Hello' } },
    delete_section: { id: draft, sectionId: 'home-about' },
    get_media: {},
    upload_media: { url: 'https://cdn.example.com/banner.png', alt: 'Banner' },
    get_navigation: {},
    update_navigation: { menus: [{ handle: 'footer', items: [{ label: 'About', href: '/pages/about' }] }] },
    preview_theme: { id: draft },
    publish_theme: { id: toPublish },
    list_theme_versions: { id: draft },
    get_theme_version: { id: draft, version: 1 },
    diff_theme: { id: draft, from: 1 },
    blame_theme: { id: draft },
    check_theme: { id: draft },
    revert_theme: { id: draft, toVersion: 1 },
  }
  t.same(Object.keys(args).sort(), tools.map((x) => x.name).sort(), 'arguments for every tool')

  const themeVersion = async () => (await get(`/api/v1/themes/${draft}`)).version as number
  const activity = async () =>
    Number(
      (
        await app.services.db
          .selectFrom('developer_activity')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  for (const tool of tools) {
    const required = [...tool.op.scopes]
    const before = { version: await themeVersion(), activity: await activity() }
    for (const missing of required) {
      const key = await keyFor(required.filter((s) => s !== missing))
      const res = await callToolHttp(app, key, tool.name, args[tool.name]!)
      t.equal(res.statusCode, 403, `${tool.name} without ${missing}: HTTP 403`)
      t.equal(
        res.headers['www-authenticate'],
        challenge(required),
        `${tool.name} without ${missing}: the step-up challenge`,
      )
      const error = res.json().error
      t.equal(error.code, 'INSUFFICIENT_SCOPE', `${tool.name} without ${missing}: INSUFFICIENT_SCOPE`)
      t.equal(error.requestId, res.headers['x-request-id'])
      t.match(error.message, missing, `${tool.name}: the message names ${missing}`)
      t.same(error.details!.missingScopes, [missing])
      t.same(error.details!.requiredScopes, required)
    }
    // A key with every other scope of the service but one required one is refused just the same.
    const allBut = await keyFor(SCOPES.filter((s) => s !== required[0]))
    const res = await callToolHttp(app, allBut, tool.name, args[tool.name]!)
    t.equal(res.statusCode, 403, `${tool.name}: every other scope does not make up for ${required[0]}`)
    t.equal(res.json().error.code, 'INSUFFICIENT_SCOPE')
    t.equal(res.headers['www-authenticate'], challenge(required))
    // The scope is checked once, by invoke, as on REST: a refused attempt at a change is an
    // activity row for the merchant (a refused read is only in the request log).
    const refusals = tool.op.method === 'GET' ? 0 : required.length + 1
    t.same(
      { version: await themeVersion(), activity: await activity() },
      { version: before.version, activity: before.activity + refusals },
      `${tool.name}: refused calls change nothing; ${refusals} refusal rows`,
    )

    const exact = await callTool(app, await keyFor(required), tool.name, args[tool.name]!)
    t.notOk(
      exact.isError,
      `${tool.name} with exactly ${required.join(', ')}: succeeds ${exact.isError ? JSON.stringify(exact.structuredContent) : ''}`,
    )
  }

  t.equal(
    (await get(`/api/v1/themes/${toPublish}`)).status,
    'active',
    'publish_theme with exactly themes:publish published',
  )
  t.equal((await get(`/api/v1/themes/${toArchive}`)).status, 'archived')
})
