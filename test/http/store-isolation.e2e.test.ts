import t from 'tap'
import { contractOperation, contractOperations } from './support/contract.ts'
import { operationCases } from './support/operation-cases.ts'
import { envelopeProblems, makeWorld, STORE_B, type World } from './support/world.ts'

// A credential of store A never reaches store B: every read and every mutation aimed at B's
// themes, pages, sections, products, collections and orders answers 404 NOT_FOUND (never 403,
// never a hint that the resource exists) and changes nothing in B.

const snapshot = async (w: World) => {
  const db = w.services.db
  return {
    themes: await w.themeRows(STORE_B),
    events: await w.eventCount(STORE_B),
    lastEvent:
      (
        await db
          .selectFrom('events')
          .select('global_position')
          .where('store_id', '=', STORE_B)
          .orderBy('global_position', 'desc')
          .limit(1)
          .executeTakeFirst()
      )?.global_position ?? null,
    menus: JSON.parse(
      JSON.stringify(
        await db.selectFrom('navigation_menus').selectAll().where('store_id', '=', STORE_B).orderBy('handle').execute(),
      ),
    ),
    media: await db
      .selectFrom('media_assets')
      .select('asset_id')
      .where('store_id', '=', STORE_B)
      .orderBy('asset_id')
      .execute(),
  }
}

// Operations whose path names a resource of a store.
const targeted = operationCases.filter((c) => contractOperation(c.operationId).path.includes('{'))

t.test("store A's key gets 404 for every operation aimed at store B's resources", async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const idsB = await w.idsOf(STORE_B)
  t.equal(
    targeted.length,
    contractOperations.filter((o) => o.path.includes('{')).length,
    'every operation with a path id is covered',
  )
  for (const c of targeted) {
    await t.test(c.operationId, async (t) => {
      // The request that succeeds in B (prepared with B's own key), sent with A's key.
      const req = await c.success(w, idsB)
      const duringSetup = await snapshot(w)
      const res = await w.call(req, { store: w.ids.storeId })
      t.equal(res.statusCode, 404, `${req.method} ${req.url}: 404 (${res.body.slice(0, 200)})`)
      t.same(envelopeProblems(res, { status: 404, code: 'NOT_FOUND' }), [], 'envelope')
      t.notMatch(res.body, idsB.storeId, 'the answer does not name store B')
      t.same(await snapshot(w), duringSetup, "store B is unchanged by A's request")
      // The well-formed request on B's stable resources, too.
      const base = await w.call(c.base(idsB), { store: w.ids.storeId })
      t.equal(base.statusCode, 404, `base ${c.base(idsB).method} ${c.base(idsB).url}: 404`)
    })
  }
})

t.test("store A's key with B's ids inside a body or query changes nothing in B", async (t) => {
  const w = await makeWorld(t, { plugins: false })
  const idsB = await w.idsOf(STORE_B)
  const before = await snapshot(w)
  const cases = [
    {
      method: 'GET',
      url: `/api/v1/products?collectionId=${idsB.collectionId}`,
      expect: 200,
      check: (body: any) => body.data.products.length === 0,
    },
    {
      method: 'GET',
      url: `/api/v1/store?storeId=${STORE_B}`,
      expect: 200,
      check: (body: any) => body.data.id === w.ids.storeId,
    },
    {
      method: 'GET',
      url: `/api/v1/themes?storeId=${STORE_B}`,
      expect: 200,
      check: (body: any) => body.data.themes.every((x: any) => x.id !== idsB.activeThemeId && x.id !== idsB.draftId),
    },
    // B's product referenced in A's draft is not a real product of A.
    {
      method: 'POST',
      url: `/api/v1/themes/${w.ids.draftId}/batch`,
      payload: {
        operations: [
          {
            op: 'createSection',
            target: { template: 'home' },
            section: { type: 'featured-product', settings: { productId: idsB.productId } },
          },
        ],
      },
      expect: 400,
      check: (body: any) => body.error.code === 'INVALID_PRODUCT_REFERENCE',
    },
    {
      method: 'POST',
      url: `/api/v1/themes/${w.ids.draftId}/batch`,
      payload: {
        operations: [
          {
            op: 'createSection',
            target: { template: 'home' },
            section: { type: 'collection-list', settings: { collectionIds: [idsB.collectionId] } },
          },
        ],
      },
      expect: 400,
      check: (body: any) => body.error.code === 'INVALID_COLLECTION_REFERENCE',
    },
    // A store id in a body is not an input the service takes.
    {
      method: 'POST',
      url: '/api/v1/themes',
      payload: { name: 'Sneaky', provider: 'tap', storeId: STORE_B },
      expect: 400,
      check: (body: any) => body.error.code === 'VALIDATION_FAILED',
    },
    // Moving a section of A's draft into a page of B's draft: that page does not exist in A.
    {
      method: 'PATCH',
      url: `/api/v1/themes/${w.ids.draftId}/sections/${w.ids.sectionId}`,
      payload: { target: { pageId: idsB.pageId } },
      expect: 404,
      check: (body: any) => body.error.code === 'NOT_FOUND',
    },
    {
      method: 'POST',
      url: `/api/v1/themes/${w.ids.draftId}/sections`,
      payload: { target: { pageId: idsB.pageId }, section: { type: 'spacer', settings: { height: 24 } } },
      expect: 404,
      check: (body: any) => body.error.code === 'NOT_FOUND',
    },
  ]
  for (const c of cases) {
    const res = await w.call(c, { store: w.ids.storeId })
    t.equal(res.statusCode, c.expect, `${c.method} ${c.url}: ${c.expect} (${res.body.slice(0, 200)})`)
    t.ok(c.check(res.json()), `${c.method} ${c.url}: answer is about store A only`)
  }
  t.same(await snapshot(w), before, 'store B is unchanged')
})
