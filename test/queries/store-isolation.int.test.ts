import tap from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  existingCollectionIds,
  existingProductIds,
  getCheckout,
  getCollection,
  getCollectionsByIds,
  getCustomer,
  getMediaBlob,
  getOrder,
  getProduct,
  getProductsByIds,
  getStore,
  getStoreSettings,
  listCollections,
  listCustomers,
  listOrders,
  listProducts,
} from '../../src/queries/commerce/index.ts'
import type { Page } from '../../src/queries/pagination.ts'
import type { ReadContext } from '../../src/queries/read-context.ts'
import { seedDemoCommerce } from '../../src/seed/seed-commerce.ts'
import { freshDatabase } from '../support/database.ts'

const STORES = ['st_demo_atlas', 'st_demo_lumen'] as const

async function all<T>(fetch: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const out: T[] = []
  let cursor: string | undefined
  for (;;) {
    const page = await fetch(cursor)
    out.push(...page.items)
    if (!page.pagination.nextCursor) return out
    cursor = page.pagination.nextCursor
  }
}

tap.test('store isolation and secrets', async (t) => {
  // The demo stores are in the copy already: the seed inserts nothing and says what it seeded.
  const { db } = await freshDatabase(t, { seed: 'commerce' })
  const seedResult = await seedDemoCommerce(db)
  const ctx: ReadContext = {
    db,
    baseUrl: 'http://127.0.0.1:3000',
    cursorSecret: 'isolation-test-secret-0123456789abcdef',
  }

  // Everything each store can see, through every query.
  const snapshot = async (storeId: string) => {
    const products = await all((cursor) => listProducts(ctx, storeId, { limit: 9, cursor }))
    const collections = await all((cursor) => listCollections(ctx, storeId, { limit: 2, cursor }))
    const orders = await all((cursor) => listOrders(ctx, storeId, { limit: 6, cursor }))
    const customers = await all((cursor) => listCustomers(ctx, storeId, { limit: 6, cursor }))
    return { products, collections, orders, customers }
  }
  const seen = { st_demo_atlas: await snapshot('st_demo_atlas'), st_demo_lumen: await snapshot('st_demo_lumen') }

  t.test("a store's queries never return the other store's records", async (t) => {
    for (const [a, b] of [STORES, [...STORES].reverse()] as [string, string][]) {
      const other = seen[b as keyof typeof seen]
      const mine = seen[a as keyof typeof seen]
      for (const p of other.products) t.equal(await getProduct(ctx, a, p.id), null, `${a} cannot get product ${p.id}`)
      for (const c of other.collections)
        t.equal(await getCollection(ctx, a, c.id), null, `${a} cannot get collection ${c.id}`)
      for (const o of other.orders) t.equal(await getOrder(ctx, a, o.id), null, `${a} cannot get order ${o.id}`)
      for (const c of other.customers)
        t.equal(await getCustomer(ctx, a, c.id), null, `${a} cannot get customer ${c.id}`)
      t.same(
        await getProductsByIds(
          ctx,
          a,
          other.products.map((p) => p.id),
        ),
        [],
      )
      t.same(
        await getCollectionsByIds(
          ctx,
          a,
          other.collections.map((c) => c.id),
        ),
        [],
      )
      t.equal(
        (
          await existingProductIds(
            db,
            a,
            other.products.map((p) => p.id),
          )
        ).size,
        0,
      )
      t.equal(
        (
          await existingCollectionIds(
            db,
            a,
            other.collections.map((c) => c.id),
          )
        ).size,
        0,
      )

      const otherIds = new Set(
        [...other.products, ...other.collections, ...other.orders, ...other.customers].map((x) => x.id),
      )
      for (const p of other.products) for (const v of p.variants) otherIds.add(v.id)
      const mineIds = new Set(
        [...mine.products, ...mine.collections, ...mine.orders, ...mine.customers].map((x) => x.id),
      )
      t.notOk(
        [...mineIds].some((id) => otherIds.has(id)),
        `${a}: lists never contain ${b}'s ids`,
      )
      // References inside records stay within the store, too.
      const ownProducts = new Set(mine.products.map((p) => p.id))
      const ownCollections = new Set(mine.collections.map((c) => c.id))
      const ownCustomers = new Set(mine.customers.map((c) => c.id))
      t.ok(mine.products.every((p) => p.collectionIds.every((id) => ownCollections.has(id))))
      t.ok(mine.collections.every((c) => c.productIds.every((id) => ownProducts.has(id))))
      t.ok(mine.orders.every((o) => o.lineItems.every((li) => ownProducts.has(li.productId))))
      t.ok(mine.orders.every((o) => o.customerId === null || ownCustomers.has(o.customerId)))
      const dump = JSON.stringify({
        ...mine,
        store: await getStore(ctx, a),
        settings: await getStoreSettings(ctx, a),
        checkout: await getCheckout(ctx, a),
      })
      t.notOk(
        [...otherIds].some((id) => dump.includes(id)),
        `${a}: no id of ${b} anywhere in its outputs`,
      )
      t.notOk(dump.includes(b), `${a}: the other store's id never appears`)
    }
  })

  t.test('no query returns a secret: every output is scanned for the seeded secret values', async (t) => {
    const secrets = await db.selectFrom('store_secrets').select(['store_id', 'name', 'value']).execute()
    t.ok(secrets.length >= 6, 'secrets were seeded for both stores')
    t.ok(
      secrets.some((s) => s.name === 'payment_gateway_secret') &&
        secrets.some((s) => s.name === 'smtp_password') &&
        secrets.some((s) => s.name === 'session_secret'),
    )

    const outputs: unknown[] = [seedResult]
    for (const storeId of [...STORES, 'st_nope']) {
      outputs.push(await getStore(ctx, storeId), await getStoreSettings(ctx, storeId), await getCheckout(ctx, storeId))
      const products = await all((cursor) => listProducts(ctx, storeId, { limit: 100, cursor }))
      outputs.push(products, await listProducts(ctx, storeId, { limit: 3 }))
      for (const status of ['active', 'draft', 'archived'] as const)
        outputs.push(await listProducts(ctx, storeId, { status }))
      outputs.push(await listProducts(ctx, storeId, { query: 'a' }))
      for (const p of products) outputs.push(await getProduct(ctx, storeId, p.id))
      outputs.push(
        await getProductsByIds(
          ctx,
          storeId,
          products.map((p) => p.id),
        ),
      )
      const collections = await all((cursor) => listCollections(ctx, storeId, { limit: 100, cursor }))
      outputs.push(collections, await listCollections(ctx, storeId, { limit: 1 }))
      for (const c of collections)
        outputs.push(await getCollection(ctx, storeId, c.id), await listProducts(ctx, storeId, { collectionId: c.id }))
      outputs.push(
        await getCollectionsByIds(
          ctx,
          storeId,
          collections.map((c) => c.id),
        ),
      )
      const orders = await all((cursor) => listOrders(ctx, storeId, { limit: 100, cursor }))
      outputs.push(orders, await listOrders(ctx, storeId, { limit: 2 }))
      for (const o of orders) outputs.push(await getOrder(ctx, storeId, o.id))
      const customers = await all((cursor) => listCustomers(ctx, storeId, { limit: 100, cursor }))
      outputs.push(customers, await listCustomers(ctx, storeId, { limit: 2 }))
      for (const c of customers) outputs.push(await getCustomer(ctx, storeId, c.id))
      outputs.push([
        ...(await existingProductIds(
          db,
          storeId,
          products.map((p) => p.id),
        )),
      ])
      outputs.push([
        ...(await existingCollectionIds(
          db,
          storeId,
          collections.map((c) => c.id),
        )),
      ])
      for (const p of products.slice(0, 3)) {
        const sha = /([0-9a-f]{64})\.png$/.exec(p.images[0]!.url)![1]!
        const blob = await getMediaBlob(db, sha)
        outputs.push({ ...blob, bytes: Buffer.from(blob!.bytes).toString('latin1') })
      }
    }
    const text = JSON.stringify(outputs)
    t.ok(text.length > 100_000, 'a substantial amount of output was scanned')
    for (const s of secrets) {
      t.notOk(text.includes(s.value), `${s.store_id}/${s.name}: value never returned`)
      const prefix = `demo_${s.name}_`
      t.ok(s.value.startsWith(prefix))
      const randomPart = s.value.slice(prefix.length)
      t.ok(randomPart.length >= 24)
      t.notOk(text.includes(randomPart), `${s.store_id}/${s.name}: not even its random part`)
    }
    const keys = new Set<string>()
    JSON.parse(text, (k, v) => {
      keys.add(k)
      return v
    })
    const suspicious = [...keys].filter((k) => /secret|password|passwd|token|api_?key|credential|private/i.test(k))
    t.same(suspicious, [], 'no field that looks like a credential')
  })

  t.test('settings and checkout are whitelisted: unexpected stored keys are dropped', async (t) => {
    const storeId = 'st_demo_lumen'
    const before = {
      settings: (
        await db
          .selectFrom('store_settings')
          .select('settings')
          .where('store_id', '=', storeId)
          .executeTakeFirstOrThrow()
      ).settings,
      config: (
        await db
          .selectFrom('checkout_configs')
          .select('config')
          .where('store_id', '=', storeId)
          .executeTakeFirstOrThrow()
      ).config,
    }
    const leak = 'leak-me-if-you-can-7f3a9c'
    const settings = {
      ...(before.settings as object),
      smtpPassword: leak,
      orderConfirmation: { byPhone: true, callHours: 'x', smsUpdates: false, twilioToken: leak },
    }
    const config = {
      ...(before.config as object),
      gatewaySecret: leak,
      shippingZones: [
        {
          name: 'Z',
          countries: ['FR'],
          apiKey: leak,
          rates: [{ name: 'R', priceCents: 100, minDeliveryDays: 1, maxDeliveryDays: 2, secret: leak }],
        },
      ],
    }
    await db
      .updateTable('store_settings')
      .set({ settings: JSON.stringify(settings) })
      .where('store_id', '=', storeId)
      .execute()
    await db
      .updateTable('checkout_configs')
      .set({ config: JSON.stringify(config) })
      .where('store_id', '=', storeId)
      .execute()
    try {
      const out = JSON.stringify([await getStoreSettings(ctx, storeId), await getCheckout(ctx, storeId)])
      t.notOk(out.includes(leak))
      t.match(out, /"name":"Z"/, 'the whitelisted fields are still there')
    } finally {
      await db
        .updateTable('store_settings')
        .set({ settings: JSON.stringify(before.settings) })
        .where('store_id', '=', storeId)
        .execute()
      await db
        .updateTable('checkout_configs')
        .set({ config: JSON.stringify(before.config) })
        .where('store_id', '=', storeId)
        .execute()
    }
  })

  t.test('no read path can select store_secrets', async (t) => {
    const files: string[] = []
    const visit = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) visit(join(dir, e.name))
        else if (e.name.endsWith('.ts')) files.push(join(dir, e.name))
      }
    }
    visit(new URL('../../src/queries/commerce', import.meta.url).pathname)
    files.push(new URL('../../src/queries/pagination.ts', import.meta.url).pathname)
    t.ok(files.length >= 8)
    for (const f of files) t.notMatch(readFileSync(f, 'utf8'), /store_secrets/, `${f} does not mention store_secrets`)
  })
})
