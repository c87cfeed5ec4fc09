import t from 'tap'
import { bearer, STORE_A, testApp, type TestApp } from '../support/app.ts'
import { applyThemeEdits } from '../../src/commands/theme.ts'
import { callTool } from '../mcp/support.ts'

// Theme history through the API: revert to earlier versions, undo one command, publish exactly
// the previewed version, blame after agent (REST, MCP) and merchant changes.

const api = async (
  app: TestApp,
  method: string,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) => {
  const res = await app.app.inject({
    method: method as 'GET',
    url,
    headers: { ...bearer(app.keyA), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  })
  return { status: res.statusCode, body: res.json() as any, headers: res.headers }
}

// One seeded app for the whole file (each test works on its own new draft): seeding is the slow part.
const app = await testApp(t)

async function newDraft(app: TestApp) {
  const created = await api(app, 'POST', '/api/v1/themes', { name: 'History', provider: 'tap' })
  return created.body.data.id as string
}

t.test('revert to each of 20 earlier versions gives that document as a new version', async (t) => {
  const id = await newDraft(app)
  for (let i = 0; i < 20; i++) {
    const ops: unknown[] = [{ op: 'updateTokens', tokens: { primaryColor: `#0000${(i + 16).toString(16)}` } }]
    if (i % 3 === 0)
      ops.push({
        op: 'createSection',
        target: { template: 'home' },
        index: i % 2,
        section: { type: 'spacer', settings: { height: 10 + i } },
      })
    if (i % 5 === 4) ops.push({ op: 'createPage', page: { slug: `p-${i}`, title: `Page ${i}` } })
    const res = await api(app, 'POST', `/api/v1/themes/${id}/batch`, { operations: ops })
    t.equal(res.status, 200)
  }
  const versions = (await api(app, 'GET', `/api/v1/themes/${id}/versions?limit=100`)).body.data.versions as {
    fromVersion: number
    toVersion: number
  }[]
  const targets = versions.slice(1, 21).map((v) => v.toVersion)
  t.equal(targets.length, 20)
  for (const target of targets) {
    const then = (await api(app, 'GET', `/api/v1/themes/${id}/versions/${target}`)).body.data
    const before = (await api(app, 'GET', `/api/v1/themes/${id}`)).body.data
    const reverted = await api(
      app,
      'POST',
      `/api/v1/themes/${id}/revert`,
      { toVersion: target },
      { 'if-match': `"${before.version}"` },
    )
    t.equal(reverted.status, 200, `revert to ${target}`)
    t.same(reverted.body.data.theme.document, then.document, `document equals version ${target}`)
    t.ok(reverted.body.data.theme.version > before.version, 'as a new version')
    const diff = await api(app, 'GET', `/api/v1/themes/${id}/diff?from=${target}&to=draft`)
    t.same(diff.body.data.summary, [], 'no difference left')
  }
  const list = await api(app, 'GET', `/api/v1/themes/${id}/versions?limit=1`)
  t.equal(list.body.data.versions[0].command, 'revertTheme')
  t.equal(list.body.data.versions[0].channel, 'rest')
  t.match(list.body.data.versions[0].summary, /\S/)
})

t.test('undo one command, with and without overlapping later changes', async (t) => {
  const id = await newDraft(app)
  const a = await api(app, 'POST', `/api/v1/themes/${id}/batch`, {
    operations: [
      {
        op: 'createSection',
        target: { template: 'home' },
        index: 0,
        section: { id: 'gap-a', type: 'spacer', settings: { height: 20 } },
      },
    ],
  })
  t.equal(a.status, 200)
  const cmdA = (await api(app, 'GET', `/api/v1/themes/${id}/versions?limit=1`)).body.data.versions[0].commandId
  await api(app, 'POST', `/api/v1/themes/${id}/batch`, {
    operations: [{ op: 'updateTokens', tokens: { primaryColor: '#123456' } }],
  })
  const cmdB = (await api(app, 'GET', `/api/v1/themes/${id}/versions?limit=1`)).body.data.versions[0].commandId
  await api(app, 'POST', `/api/v1/themes/${id}/batch`, {
    operations: [{ op: 'updateTokens', tokens: { primaryColor: '#654321' } }],
  })

  const undoA = await api(app, 'POST', `/api/v1/themes/${id}/revert`, { commandId: cmdA })
  t.equal(undoA.status, 200, 'no later change touched gap-a')
  t.notOk(JSON.stringify(undoA.body.data.theme.document.templates.home).includes('gap-a'), 'the section is gone')
  t.equal(undoA.body.data.theme.document.theme.primaryColor, '#654321', 'later changes stay')

  const before = (await api(app, 'GET', `/api/v1/themes/${id}`)).body.data
  const undoB = await api(app, 'POST', `/api/v1/themes/${id}/revert`, { commandId: cmdB })
  t.equal(undoB.status, 409)
  t.equal(undoB.body.error.code, 'UNDO_CONFLICT')
  t.same(undoB.body.error.details.conflicts, ['tokens.primaryColor'])
  t.same((await api(app, 'GET', `/api/v1/themes/${id}`)).body.data, before, 'nothing changed')
})

t.test(
  'publish with a stale expected version is refused; with the previewed one it publishes that version',
  async (t) => {
    const id = await newDraft(app)
    await api(app, 'POST', `/api/v1/themes/${id}/batch`, {
      operations: [{ op: 'updateTokens', tokens: { primaryColor: '#222222' } }],
    })
    const preview = await api(app, 'POST', `/api/v1/themes/${id}/preview-token`)
    const previewed = preview.body.data.themeVersion as number
    const diff = await api(app, 'GET', `/api/v1/themes/${id}/diff`)
    t.ok(
      diff.body.data.summary.some((l: string) => l.startsWith('tokens.primaryColor')),
      'diff from live to draft shows the change',
    )
    t.equal(diff.body.data.to.version, previewed)
    // Someone changes the draft after the preview.
    await api(app, 'POST', `/api/v1/themes/${id}/batch`, {
      operations: [{ op: 'updateTokens', tokens: { primaryColor: '#333333' } }],
    })
    const live = (await api(app, 'GET', '/api/v1/themes')).body.data.themes
    const stale = await api(app, 'POST', `/api/v1/themes/${id}/publish`, { expectedVersion: previewed })
    t.equal(stale.status, 409)
    t.equal(stale.body.error.code, 'VERSION_CONFLICT')
    t.same((await api(app, 'GET', '/api/v1/themes')).body.data.themes, live, 'nothing changed')
    const staleHeader = await api(app, 'POST', `/api/v1/themes/${id}/publish`, {}, { 'if-match': `"${previewed}"` })
    t.equal(staleHeader.status, 409, 'If-Match too')
    const current = (await api(app, 'GET', `/api/v1/themes/${id}`)).body.data.version
    const ok = await api(app, 'POST', `/api/v1/themes/${id}/publish`, { expectedVersion: current })
    t.equal(ok.status, 200)
    t.equal(ok.body.data.status, 'active')
    t.equal(ok.body.data.document.theme.primaryColor, '#333333')
    const after = await api(app, 'GET', `/api/v1/themes/${id}/diff?from=live&to=${current}`)
    t.same(after.body.data.summary, [], 'live is exactly that version')
  },
)

t.test('blame names the right actor after REST, MCP and merchant changes', async (t) => {
  const id = await newDraft(app)
  const rest = await api(app, 'POST', `/api/v1/themes/${id}/batch`, {
    operations: [
      {
        op: 'createSection',
        target: { template: 'home' },
        index: 0,
        section: { id: 'by-rest', type: 'spacer', settings: { height: 20 } },
      },
    ],
  })
  t.equal(rest.status, 200)
  const mcp = await callTool(app, app.keyA, 'apply_theme_batch', {
    id,
    operations: [
      {
        op: 'createSection',
        target: { template: 'home' },
        index: 0,
        section: { id: 'by-mcp', type: 'spacer', settings: { height: 30 } },
      },
      { op: 'updateTokens', tokens: { font: 'Lato' } },
    ],
  })
  t.notOk(mcp.isError, JSON.stringify(mcp.structuredContent).slice(0, 200))
  const merchant = await applyThemeEdits(
    app.services.commands,
    {
      storeId: STORE_A,
      actor: { kind: 'merchant', merchantId: 'mer_1', credentialId: null, appId: null },
      channel: 'dashboard',
      operation: 'applyThemeBatch',
    },
    id,
    {
      operations: [
        { op: 'updateSection', sectionId: 'by-rest', settings: { height: 44 } },
        { op: 'updateTokens', tokens: { primaryColor: '#101010' } },
      ] as never,
    },
  )
  t.ok(merchant.ok)
  // REST again on the MCP section's neighbour: by-mcp stays MCP's.
  await api(app, 'POST', `/api/v1/themes/${id}/batch`, {
    operations: [{ op: 'updateTokens', tokens: { secondaryColor: '#202020' } }],
  })
  const blame = await callTool(app, app.keyA, 'blame_theme', { id })
  t.notOk(blame.isError)
  const data = blame.structuredContent as any
  const of = (sid: string) => data.sections.find((s: any) => s.id === sid).last
  t.match(of('by-rest'), { actor: { kind: 'merchant', merchantId: 'mer_1' }, channel: 'dashboard', tool: null })
  t.match(of('by-mcp'), { actor: { kind: 'api_key' }, channel: 'mcp', tool: 'apply_theme_batch' })
  t.match(data.tokens.font, { channel: 'mcp', tool: 'apply_theme_batch' })
  t.match(data.tokens.primaryColor, { actor: { kind: 'merchant' }, channel: 'dashboard' })
  t.match(data.tokens.secondaryColor, { channel: 'rest', actor: { kind: 'api_key' } })
  t.ok(data.tokens.secondaryColor.requestId, 'with the request id')
  // The other history tools answer through MCP too, and another store's key gets a 404 result.
  for (const [tool, args] of [
    ['list_theme_versions', { id }],
    ['get_theme_version', { id, version: 1 }],
    ['diff_theme', { id, from: 1, to: 'draft' }],
  ] as const) {
    const r = await callTool(app, app.keyA, tool, args)
    t.notOk(r.isError, tool)
    const other = await callTool(app, app.keyB, tool, args)
    t.ok(other.isError, `${tool}: another store's key`)
    t.equal((other.structuredContent as any).error.code, 'NOT_FOUND')
  }
  const versions = (await callTool(app, app.keyA, 'list_theme_versions', { id, limit: 2 })).structuredContent as any
  t.equal(versions.versions.length, 2)
  t.ok(versions.pagination.hasMore)
  const next = (
    await callTool(app, app.keyA, 'list_theme_versions', { id, limit: 2, cursor: versions.pagination.nextCursor })
  ).structuredContent as any
  t.ok(next.versions[0].toVersion < versions.versions[1].fromVersion, 'the next page continues older')
})

t.test('a preview page shows the version it renders', async (t) => {
  const id = await newDraft(app)
  const preview = await api(app, 'POST', `/api/v1/themes/${id}/preview-token`)
  const url = new URL(preview.body.data.previewUrl)
  const page = await app.app.inject({ method: 'GET', url: url.pathname })
  t.equal(page.statusCode, 200)
  t.match(page.body, `version ${preview.body.data.themeVersion}</span>`)
})
