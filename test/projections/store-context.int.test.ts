import t, { type Test } from 'tap'
import { sql } from 'kysely'
import type { Caller } from '../../src/auth/caller.ts'
import { getContextOperation } from '../../src/operations/context-operation.ts'
import { projectionNamed } from '../../src/projections/index.ts'
import { rebuildProjection } from '../../src/projections/rebuild.ts'
import { getStore, listCollections, listProducts, listProductsFromTables } from '../../src/queries/commerce/index.ts'
import { bumpCatalogVersion } from '../../src/queries/commerce/catalog-read-models.ts'
import { currentDraft, workflowNext } from '../../src/queries/context/workflow.ts'
import { listThemes, themeSummary } from '../../src/queries/themes/theme-queries.ts'
import type { Services } from '../../src/services.ts'
import { LIMITS } from '../../src/theme/document.ts'
import { agent, testServices } from '../support/services.ts'
import {
  applyThemeEdits,
  archiveTheme,
  createTheme,
  duplicateTheme,
  publishTheme,
  recordPreviewIssued,
  updateTheme,
  revertTheme,
} from '../../src/commands/theme.ts'

// getContext is served in one statement from the themes projection (the headers) and the
// store_context read model (the catalogue's first page copied at stores.catalog_version). The reference is the query it
// replaced, assembled from the live tables on every call: they must agree after every kind of
// theme command, after a catalogue change signalled by a version bump, and after a rebuild.

const STORE = 'st_demo_atlas'
const OTHER = 'st_demo_lumen'
const ALL_SCOPES = new Set([
  'store:read',
  'products:read',
  'themes:read',
  'themes:write',
  'themes:create',
  'themes:preview',
  'themes:publish',
])

const caller = (storeId: string, scopes: ReadonlySet<string> = ALL_SCOPES): Caller => ({
  storeId,
  scopes,
  actor: { kind: 'api_key', credentialId: 'key_test', appId: 'app_test' },
  channel: 'rest',
  requestId: 'req_test',
})

// The getContext of before the read model, verbatim.
async function oldContext(s: Services, c: Caller) {
  const [store, products, collections, themes] = await Promise.all([
    getStore(s.read, c.storeId),
    listProductsFromTables(s.read, c.storeId, { limit: 20 }),
    listCollections(s.read, c.storeId, { limit: 20 }),
    listThemes(s.read, c.storeId),
  ])
  if (!store) return null
  const summaries = themes.map((th) => themeSummary(th, s.baseUrl))
  const draft = currentDraft(summaries)
  return {
    store,
    branding: store.branding,
    products: {
      items: products.items.map((p) => ({
        id: p.id,
        title: p.title,
        handle: p.handle,
        status: p.status,
        image: p.images[0]?.url ?? null,
        inStock: p.inventory.inStock,
      })),
      total: null,
      nextCursor: products.pagination.nextCursor,
    },
    collections: {
      items: collections.items.map((col) => ({
        id: col.id,
        title: col.title,
        handle: col.handle,
        productCount: col.productCount,
      })),
      nextCursor: collections.pagination.nextCursor,
    },
    themes: summaries,
    activeThemeId: summaries.find((th) => th.status === 'active')?.id ?? null,
    currentDraftId: draft?.id ?? null,
    grantedScopes: [...c.scopes].sort(),
    limits: { ...LIMITS },
    schema: { operationId: 'getThemeSchema' as const, tool: 'get_theme_schema' as const, documentVersion: 1 },
    workflow: workflowNext(summaries, c.scopes),
  }
}

async function newContext(s: Services, c: Caller) {
  const outcome = await getContextOperation.run({}, c, s)
  return outcome.ok ? outcome.data : null
}

async function agrees(t: Test, s: Services, label: string, c: Caller = caller(STORE)) {
  const expected = await oldContext(s, c)
  const actual = await newContext(s, c)
  t.same(actual, expected, `${label}: the read model equals the old query`)
  // Byte for byte apart from key order: the same JSON once keys are in one order.
  t.equal(JSON.stringify(actual), JSON.stringify(expected), `${label}: same JSON text`)
}

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

async function seeded(t: Test): Promise<Services> {
  return testServices(t, { seed: 'commerce' })
}

t.test('the context equals the old query after every kind of theme command', async (t) => {
  const s = await seeded(t)
  await agrees(t, s, 'no theme yet')
  const a = must(await createTheme(s.commands, agent(STORE, 'createTheme'), { name: 'First', provider: 'test' }))
  await agrees(t, s, 'createTheme')
  const id = a.themeId
  const edit = (operations: unknown[]) =>
    applyThemeEdits(s.commands, agent(STORE, 'applyThemeBatch'), id, { operations: operations as never })
  must(
    await edit([
      {
        op: 'createSection',
        target: { template: 'home' },
        index: 0,
        section: { id: 'sp1', type: 'spacer', settings: { height: 8 } },
      },
    ]),
  )
  await agrees(t, s, 'createSection')
  must(await edit([{ op: 'updateSection', sectionId: 'sp1', settings: { height: 16 } }]))
  await agrees(t, s, 'updateSection')
  must(await edit([{ op: 'moveSection', sectionId: 'sp1', index: 0, target: { template: 'product' } }]))
  await agrees(t, s, 'moveSection')
  must(await edit([{ op: 'deleteSection', sectionId: 'sp1' }]))
  await agrees(t, s, 'deleteSection')
  must(
    await edit([
      { op: 'createPage', page: { id: 'about', slug: 'about', title: 'About', status: 'draft', layout: [] } },
    ]),
  )
  await agrees(t, s, 'createPage')
  must(await edit([{ op: 'updatePage', pageId: 'about', changes: { title: 'About us' } }]))
  await agrees(t, s, 'updatePage')
  must(await edit([{ op: 'deletePage', pageId: 'about' }]))
  await agrees(t, s, 'deletePage')
  must(await edit([{ op: 'updateTokens', tokens: { primaryColor: '#123456' } }]))
  await agrees(t, s, 'updateTokens')
  must(await edit([{ op: 'setNavigation', navigation: [{ label: 'Shop', href: '/products' }] }]))
  await agrees(t, s, 'setNavigation')
  must(await updateTheme(s.commands, agent(STORE, 'updateTheme'), id, { name: 'Renamed' }))
  await agrees(t, s, 'updateTheme (rename)')
  const refused = await edit([{ op: 'deleteSection', sectionId: 'nope' }])
  t.notOk(refused.ok, 'a refused command')
  await agrees(t, s, 'refused command')
  must(
    await recordPreviewIssued(s.commands, agent(STORE, 'createThemePreviewToken'), id, {
      tokenId: 'jti-1',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    }),
  )
  await agrees(t, s, 'preview issued')
  must(await revertTheme(s.commands, agent(STORE, 'revertTheme'), id, { toVersion: 2 }))
  await agrees(t, s, 'revertTheme')
  const b = must(await duplicateTheme(s.commands, agent(STORE, 'duplicateTheme'), id, { provider: 'test' }))
  await agrees(t, s, 'duplicateTheme')
  must(await publishTheme(s.commands, agent(STORE, 'publishTheme'), id, {}))
  await agrees(t, s, 'publishTheme')
  must(await publishTheme(s.commands, agent(STORE, 'publishTheme'), b.themeId, {}))
  await agrees(t, s, 'publishTheme (replaces the live theme)')
  must(await archiveTheme(s.commands, agent(STORE, 'archiveTheme'), id, {}))
  await agrees(t, s, 'archiveTheme')
  await agrees(t, s, 'with fewer scopes', caller(STORE, new Set(['store:read'])))
  await agrees(t, s, 'the other store', caller(OTHER))
  const ctx = await newContext(s, caller(STORE))
  t.equal(ctx?.themes.length, 1, 'the archived theme is left out')
  t.ok(ctx?.products.items.length, 'products are in the context')
  t.ok(ctx?.collections.items.length, 'collections are in the context')
})

t.test('concurrent commands on several themes of one store all reach the context', async (t) => {
  const s = await testServices(t, { poolSize: 6, seed: 'commerce' })
  const ids: string[] = []
  for (let i = 0; i < 4; i++)
    ids.push(
      must(await createTheme(s.commands, agent(STORE, 'createTheme'), { name: `C${i}`, provider: 'test' })).themeId,
    )
  await Promise.all(
    ids.flatMap((id, i) =>
      [0, 1, 2].map((j) =>
        applyThemeEdits(s.commands, agent(STORE, 'applyThemeBatch'), id, {
          operations: [{ op: 'updateTokens', tokens: { primaryColor: `#0${i}${j}000` } }] as never,
        }),
      ),
    ),
  )
  await agrees(t, s, 'after 12 concurrent batches on 4 themes')
  const ctx = await newContext(s, caller(STORE))
  t.same(
    ctx?.themes.filter((x) => ids.includes(x.id)).map((x) => x.version),
    [4, 4, 4, 4],
    'every change counted',
  )
})

t.test('a catalogue change reaches the context and listProducts with the version bump', async (t) => {
  const s = await seeded(t)
  await agrees(t, s, 'before')
  const before = await listProducts(s.read, STORE, { limit: 100 })
  const first = (
    await s.db
      .selectFrom('products')
      .select('product_id')
      .where('store_id', '=', STORE)
      .orderBy('created_at')
      .orderBy('product_id')
      .executeTakeFirstOrThrow()
  ).product_id
  await s.db.updateTable('products').set({ title: 'Renamed by the platform' }).where('product_id', '=', first).execute()
  await s.db.updateTable('product_variants').set({ inventory_quantity: 0 }).where('product_id', '=', first).execute()
  t.same(await listProducts(s.read, STORE, { limit: 100 }), before, 'without the signal the read model keeps its copy')
  t.ok(await bumpCatalogVersion(s.db, STORE), 'the platform bumps catalog_version')
  await agrees(t, s, 'after the bump')
  const ctx = await newContext(s, caller(STORE))
  t.match(ctx?.products.items[0], { id: first, title: 'Renamed by the platform', inStock: false })
  // Every filter and every page of listProducts equals the query over the commerce tables.
  const collection = (
    await s.db.selectFrom('collections').select('collection_id').where('store_id', '=', STORE).executeTakeFirstOrThrow()
  ).collection_id
  for (const args of [
    {},
    { limit: 3 },
    { status: 'active' as const },
    { query: 'ren' },
    { query: '%' },
    { collectionId: collection },
    { collectionId: 'col_nope' },
  ]) {
    let cursor: string | undefined
    let pages = 0
    do {
      const page = await listProducts(s.read, STORE, { ...args, cursor })
      t.same(
        page,
        await listProductsFromTables(s.read, STORE, { ...args, cursor }),
        `listProducts ${JSON.stringify(args)} page ${pages + 1}`,
      )
      cursor = page.pagination.nextCursor ?? undefined
      pages++
    } while (cursor && pages < 20)
  }
  t.same((await listProducts(s.read, 'st_nope')).items, [], 'no store, no products')
})

t.test('after a rebuild of the themes projection the context agrees', async (t) => {
  const s = await seeded(t)
  const ids: string[] = []
  for (const store of [STORE, OTHER]) {
    for (let i = 0; i < 3; i++)
      ids.push(
        must(await createTheme(s.commands, agent(store, 'createTheme'), { name: `${store} ${i}`, provider: 'test' }))
          .themeId,
      )
  }
  must(
    await applyThemeEdits(s.commands, agent(STORE, 'applyThemeBatch'), ids[0]!, {
      operations: [{ op: 'updateTokens', tokens: { primaryColor: '#654321' } }] as never,
    }),
  )
  must(await publishTheme(s.commands, agent(STORE, 'publishTheme'), ids[1]!, {}))
  must(await archiveTheme(s.commands, agent(OTHER, 'archiveTheme'), ids[4]!, {}))
  await agrees(t, s, 'before the rebuild')
  const contextBefore = await newContext(s, caller(STORE))
  const result = await rebuildProjection(s.db, s.eventStore, projectionNamed('themes')!)
  t.match(result, { swapped: true })
  t.same(await newContext(s, caller(STORE)), contextBefore, 'the same context after the rebuild')
  await sql`delete from store_context`.execute(s.db)
  await agrees(t, s, 'after the rebuild (the catalogue part rebuilt on the first read)')
  await agrees(t, s, 'after the rebuild, other store', caller(OTHER))
})
