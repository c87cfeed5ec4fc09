import t from 'tap'
import { DEFAULT_AGENT_SCOPES, type Scope } from '../../src/auth/scopes.ts'
import { makeWorld, type World } from './support/world.ts'

// The intended agent workflow over REST, as an agent following workflow.next would run it:
// context -> schema -> create draft -> batch -> preview -> publish (refused without
// themes:publish, done with it) -> the published draft is live and the former live theme private.
// workflow.next must change with each state and with the credential's scopes.

const AGENT: readonly Scope[] = DEFAULT_AGENT_SCOPES
const PUBLISHER: readonly Scope[] = [...DEFAULT_AGENT_SCOPES, 'themes:publish']

const context = async (w: World, scopes: readonly Scope[]) => {
  const res = await w.call({ method: 'GET', url: '/api/v1/context' }, { scopes })
  if (res.statusCode !== 200) throw new Error(`context: ${res.statusCode} ${res.body}`)
  return res.json().data
}
const actions = (ctx: any) => ctx.workflow.next.map((s: any) => s.action)

t.test('an agent drafts, designs, previews; publishing needs themes:publish', async (t) => {
  // The seeded store has its live Starter theme only; the world's own test draft is archived so
  // that the agent starts from "no draft".
  const w = await makeWorld(t, { plugins: false })
  await w.setup(w.ids.storeId, { method: 'DELETE', url: `/api/v1/themes/${w.ids.draftId}` })
  const starter = w.ids.activeThemeId

  // 1. No draft: read the schema, create a theme (or duplicate the live one).
  const c1 = await context(w, AGENT)
  t.equal(c1.workflow.stage, 'design')
  t.same(
    actions(c1),
    ['getThemeSchema', 'createTheme', 'duplicateTheme'],
    'no draft: schema, then createTheme (or duplicate the live theme)',
  )
  t.equal(c1.workflow.next[2].themeId, starter, 'duplicate points at the live theme')
  t.equal(c1.currentDraftId, null)
  t.equal(c1.activeThemeId, starter)
  t.ok(c1.products.items.length > 0, 'real product ids to reference')
  t.equal(c1.schema.operationId, 'getThemeSchema')
  t.same(c1.grantedScopes, [...AGENT].sort())
  const withoutCreate = await context(
    w,
    AGENT.filter((s) => s !== 'themes:create'),
  )
  t.same(actions(withoutCreate), ['askMerchantForScope'], 'no draft and no themes:create: ask the merchant')
  t.equal(withoutCreate.workflow.stage, 'blocked')

  const schema = await w.call({ method: 'GET', url: '/api/v1/themes/schema' }, { scopes: AGENT })
  t.equal(schema.statusCode, 200)
  const types = schema.json().data.sections.map((s: any) => s.type)
  for (const type of ['hero', 'product-grid', 'rich-text']) t.ok(types.includes(type), `the schema lists ${type}`)
  t.equal(schema.json().data.limits.operationsPerBatch, 100)

  // 2. Create the draft: untouched, so the next step is a batch.
  const created = await w.call(
    { method: 'POST', url: '/api/v1/themes', payload: { name: 'Spring collection', provider: 'claude' } },
    { scopes: AGENT },
  )
  t.equal(created.statusCode, 201)
  const draft = created.json().data
  t.equal(draft.status, 'draft')
  t.equal(draft.version, 1)
  const c2 = await context(w, AGENT)
  t.equal(c2.currentDraftId, draft.id)
  t.same(actions(c2), ['applyThemeBatch'], 'untouched draft: applyThemeBatch')
  t.equal(c2.workflow.next[0].themeId, draft.id)
  t.equal(c2.workflow.stage, 'design')
  t.equal(c2.activeThemeId, starter, 'creating a draft publishes nothing')

  // 3. One batch with real ids.
  const productId = c2.products.items[0].id
  const collectionId = (await w.setup(w.ids.storeId, { method: 'GET', url: '/api/v1/collections?limit=1' }))
    .collections[0].id
  const batch = await w.call(
    {
      method: 'POST',
      url: `/api/v1/themes/${draft.id}/batch`,
      payload: {
        operations: [
          { op: 'updateTokens', tokens: { primaryColor: '#245640', font: 'Poppins' } }, // dark enough for the hero's white text (checks)
          {
            op: 'createSection',
            target: { template: 'home' },
            index: 0,
            section: { type: 'featured-product', settings: { productId } },
          },
          {
            op: 'createSection',
            target: { template: 'home' },
            section: { type: 'product-grid', settings: { source: 'collection', collectionId, limit: 8 } },
          },
          {
            op: 'createPage',
            page: {
              slug: 'about',
              title: 'About us',
              status: 'published',
              layout: [{ type: 'rich-text', settings: { body: '<p>Hello</p>' } }],
            },
          },
        ],
      },
    },
    { scopes: AGENT },
  )
  t.equal(batch.statusCode, 200, batch.body.slice(0, 300))
  const designed = batch.json().data.theme
  t.equal(batch.json().data.applied, 4)
  t.ok(designed.version > 1, 'the version grew')
  t.equal(designed.document.templates.home[0].settings.productId, productId)
  t.notMatch(JSON.stringify(designed.document), /"price"|"inventory"|"stock"/, 'no commerce data copied into the theme')
  const c3 = await context(w, AGENT)
  t.same(actions(c3), ['createThemePreviewToken', 'applyThemeBatch'], 'changed draft: preview it (or refine)')
  t.equal(c3.workflow.stage, 'preview')
  const noPreview = await context(
    w,
    AGENT.filter((s) => s !== 'themes:preview'),
  )
  t.same(actions(noPreview), ['askMerchantForScope'], 'changed draft without themes:preview: ask the merchant')

  // 4. Preview.
  const preview = await w.call({ method: 'POST', url: `/api/v1/themes/${draft.id}/preview-token` }, { scopes: AGENT })
  t.equal(preview.statusCode, 201)
  t.match(preview.json().data, {
    themeId: draft.id,
    themeVersion: designed.version,
    previewUrl: /^http:\/\/storefront\.test\/preview\/[\w-]+\.[\w-]+\.[\w-]+$/,
  })
  const expires = Date.parse(preview.json().data.expiresAt) - Date.now()
  t.ok(expires > 14 * 60_000 && expires <= 15 * 60_000 + 5000, 'the preview URL lives 15 minutes')
  const c4 = await context(w, AGENT)
  t.equal(c4.workflow.stage, 'publish')
  t.same(
    actions(c4),
    ['askMerchantToPublish', 'applyThemeBatch'],
    'previewed, without themes:publish: ask the merchant to publish',
  )
  t.match(c4.workflow.next[0].reason, /dashboard\/themes\/editor\?themeId=/, 'with the editor link')
  const c4p = await context(w, PUBLISHER)
  t.same(actions(c4p), ['publishTheme', 'applyThemeBatch'], 'previewed, with themes:publish: publishTheme')
  t.equal(c4p.workflow.next[0].themeId, draft.id)

  // 5. Publish: refused without the scope, nothing changes; done with it.
  const before = await w.themeRows(w.ids.storeId)
  const refused = await w.call({ method: 'POST', url: `/api/v1/themes/${draft.id}/publish` }, { scopes: AGENT })
  t.equal(refused.statusCode, 403)
  t.equal(refused.json().error.code, 'INSUFFICIENT_SCOPE')
  t.same(refused.json().error.details.requiredScopes, ['themes:publish'])
  t.same(await w.themeRows(w.ids.storeId), before, 'a refused publish changes nothing')

  const etag = (await w.call({ method: 'GET', url: `/api/v1/themes/${draft.id}` }, { scopes: PUBLISHER })).headers.etag
  t.equal(etag, `"${designed.version}"`, 'a preview does not change the version')
  const published = await w.call(
    { method: 'POST', url: `/api/v1/themes/${draft.id}/publish`, headers: { 'if-match': String(etag) } },
    { scopes: PUBLISHER },
  )
  t.equal(published.statusCode, 200, published.body.slice(0, 300))
  t.equal(published.json().data.status, 'active')
  t.ok(published.json().data.publishedAt)

  // 6. The live theme is the published one; the former live theme is private.
  const themes = (await w.setup(w.ids.storeId, { method: 'GET', url: '/api/v1/themes' })).themes
  t.same(
    themes.filter((x: any) => x.status === 'active').map((x: any) => x.id),
    [draft.id],
    'exactly one active theme: the published draft',
  )
  t.equal(themes.find((x: any) => x.id === starter).status, 'private', 'the former live theme is private')
  const c5 = await context(w, AGENT)
  t.equal(c5.activeThemeId, draft.id)
  t.equal(c5.currentDraftId, null)
  t.same(actions(c5), ['getThemeSchema', 'createTheme', 'duplicateTheme'], 'no draft left: start again')
  t.equal(c5.workflow.next[2].themeId, draft.id)

  // A published theme is not editable; re-publishing the former live one is the rollback.
  const edit = await w.call(
    { method: 'PATCH', url: `/api/v1/themes/${draft.id}`, payload: { name: 'Live edit' } },
    { scopes: AGENT },
  )
  t.equal(edit.statusCode, 409)
  t.equal(edit.json().error.code, 'THEME_NOT_EDITABLE')
  const rollback = await w.call({ method: 'POST', url: `/api/v1/themes/${starter}/publish` }, { scopes: PUBLISHER })
  t.equal(rollback.statusCode, 200)
  const after = (await w.setup(w.ids.storeId, { method: 'GET', url: '/api/v1/themes' })).themes
  t.same(
    after.filter((x: any) => x.status === 'active').map((x: any) => x.id),
    [starter],
    'rolled back',
  )
  t.equal(after.find((x: any) => x.id === draft.id).status, 'private')

  // Every mutation and the preview were recorded.
  const types2 = (
    await w.services.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `theme-${draft.id}`)
      .orderBy('global_position')
      .execute()
  ).map((e) => e.type)
  t.ok(
    types2.includes('ThemeCreated') &&
      types2.includes('ThemePreviewIssued') &&
      types2.includes('ThemePublished') &&
      types2.includes('ThemeUnpublished'),
    `recorded: ${types2.join(', ')}`,
  )
})
