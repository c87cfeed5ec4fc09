import t from 'tap'
import { bearer, STORE_A, STORE_B, testApp } from '../support/app.ts'
import { callTool, errorOf } from './support.ts'

t.test('another store’s ids are NOT_FOUND tool errors and nothing changes', async (t) => {
  const app = await testApp(t)
  const get = async (key: string, url: string) =>
    (await app.app.inject({ method: 'GET', url, headers: bearer(key) })).json().data
  const created = await app.app.inject({
    method: 'POST',
    url: '/api/v1/themes',
    headers: bearer(app.keyA),
    payload: { name: 'Store A draft', provider: 'custom' },
  })
  const themeA = created.json().data.id as string
  const pageA = (
    await app.app.inject({
      method: 'POST',
      url: `/api/v1/themes/${themeA}/pages`,
      headers: bearer(app.keyA),
      payload: { slug: 'about', title: 'About' },
    })
  ).json().data.id as string
  const activeA = ((await get(app.keyA, '/api/v1/themes')).themes as { id: string; status: string }[]).find(
    (x) => x.status === 'active',
  )?.id
  const productA = (await get(app.keyA, '/api/v1/products?limit=1')).products[0].id as string
  const collectionA = (await get(app.keyA, '/api/v1/collections?limit=1')).collections[0].id as string
  const orderA = (await get(app.keyA, '/api/v1/orders?limit=1')).orders[0].id as string
  const snapshot = async () => ({
    theme: await get(app.keyA, `/api/v1/themes/${themeA}`),
    themes: await get(app.keyA, '/api/v1/themes?includeArchived=true'),
    activityA: (
      await app.services.db.selectFrom('developer_activity').selectAll().where('store_id', '=', STORE_A).execute()
    ).length,
    // Store B's own activity: the refused calls are not audited there either (a missing resource may not be theirs).
    activityB: (
      await app.services.db.selectFrom('developer_activity').selectAll().where('store_id', '=', STORE_B).execute()
    ).length,
  })
  const before = await snapshot()

  const attempts: [string, Record<string, unknown>][] = [
    ['get_theme', { id: themeA }],
    ['update_theme', { id: themeA, name: 'Hijacked' }],
    ['duplicate_theme', { id: themeA }],
    ['archive_theme', { id: themeA }],
    ['apply_theme_batch', { id: themeA, operations: [{ op: 'deleteSection', sectionId: 'home-hero' }] }],
    ['create_page', { id: themeA, slug: 'evil', title: 'Evil' }],
    ['update_page', { id: themeA, pageId: pageA, title: 'Evil' }],
    ['delete_page', { id: themeA, pageId: pageA }],
    ['create_section', { id: themeA, target: { template: 'home' }, section: { type: 'spacer', settings: {} } }],
    ['update_section', { id: themeA, sectionId: 'home-hero', settings: { heading: 'Evil' } }],
    ['delete_section', { id: themeA, sectionId: 'home-hero' }],
    ['preview_theme', { id: themeA }],
    ['publish_theme', { id: themeA }],
    ['get_product', { id: productA }],
    ['get_collection', { id: collectionA }],
    ['get_order', { id: orderA }],
  ]
  if (activeA) attempts.push(['get_theme', { id: activeA }], ['duplicate_theme', { id: activeA }])
  for (const [name, args] of attempts) {
    const result = await callTool(app, app.keyB, name, args)
    t.equal(result.isError, true, `${name} from store B: a tool error`)
    t.equal(errorOf(result).code, 'NOT_FOUND', `${name} from store B: NOT_FOUND`)
    t.notMatch(JSON.stringify(result), /Store A draft|Hijacked/, `${name}: nothing of store A leaks`)
  }
  t.same(await snapshot(), before, 'store A is unchanged; no new activity in either store')
  const themesB = (await get(app.keyB, '/api/v1/themes?includeArchived=true')).themes as { name: string }[]
  t.notOk(
    themesB.some((x) => /Store A draft|Copy of/.test(x.name)),
    'no copy was made in store B',
  )
})

t.test('audit entries written through MCP carry channel mcp and the tool name', async (t) => {
  const app = await testApp(t)
  const key = app.keyA
  const created = await callTool(app, key, 'create_theme', { name: 'Audited', provider: 'claude' })
  const id = (created.structuredContent as { id: string }).id
  const productId = (
    (await callTool(app, key, 'get_products', { limit: 1 })).structuredContent as { products: { id: string }[] }
  ).products[0]!.id
  await callTool(app, key, 'apply_theme_batch', {
    id,
    operations: [
      {
        op: 'createSection',
        target: { template: 'home' },
        section: { type: 'featured-product', settings: { productId } },
      },
    ],
  })
  const refused = await callTool(app, key, 'apply_theme_batch', {
    id,
    operations: [
      {
        op: 'createSection',
        target: { template: 'home' },
        section: { type: 'featured-product', settings: { productId: 'prod_invented' } },
      },
    ],
  })
  t.equal(errorOf(refused).code, 'INVALID_PRODUCT_REFERENCE')
  await callTool(app, key, 'create_page', { id, slug: 'about', title: 'About' })
  await callTool(app, key, 'update_theme', { id, tokens: { primaryColor: '#123456' } })
  await callTool(app, key, 'preview_theme', { id })
  await callTool(app, key, 'update_navigation', {
    menus: [{ handle: 'footer', items: [{ label: 'About', href: '/pages/about' }] }],
  })
  await callTool(app, key, 'publish_theme', { id })
  const rest = await app.app.inject({
    method: 'POST',
    url: `/api/v1/themes/${id}/duplicate`,
    headers: bearer(key),
    payload: {},
  })
  t.equal(rest.statusCode, 201)

  const rows = await app.services.db
    .selectFrom('developer_activity')
    .select(['action', 'outcome', 'channel', 'tool', 'theme_id', 'error_code', 'request_id'])
    .where('store_id', '=', STORE_A)
    .orderBy('first_position')
    .execute()
  const mcp = rows.filter((r) => r.channel === 'mcp')
  t.same(
    mcp.map((r) => [r.tool, r.action, r.outcome]),
    [
      ['create_theme', 'createTheme', 'applied'],
      ['apply_theme_batch', 'applyThemeBatch', 'applied'],
      ['apply_theme_batch', 'applyThemeBatch', 'rejected'],
      ['create_page', 'createThemePage', 'applied'],
      ['update_theme', 'updateTheme', 'applied'],
      ['preview_theme', 'createThemePreviewToken', 'applied'],
      ['update_navigation', 'updateNavigation', 'applied'],
      ['publish_theme', 'publishTheme', 'applied'],
    ],
    'one row per MCP command, marked with its tool',
  )
  t.equal(mcp.find((r) => r.outcome === 'rejected')!.error_code, 'INVALID_PRODUCT_REFERENCE')
  t.ok(
    mcp.every((r) => typeof r.request_id === 'string' && r.request_id.length > 0),
    'with the request id',
  )
  const restRow = rows.find((r) => r.action === 'duplicateTheme')!
  t.equal(restRow.channel, 'rest')
  t.equal(restRow.tool, null)
  t.notOk(
    rows.some((r) => r.channel === 'mcp' && r.tool === null),
    'no MCP row without its tool',
  )
})
