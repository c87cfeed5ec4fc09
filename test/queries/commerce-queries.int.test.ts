import tap, { type Test } from 'tap'
import { sql } from 'kysely'
import {
  checkoutSchema,
  collectionSchema,
  customerSchema,
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
  money,
  orderSchema,
  productSchema,
  storeSchema,
  storeSettingsSchema,
} from '../../src/queries/commerce/index.ts'
import { z } from 'zod'
import { CursorError, paginationQuerySchema, paginationSchema, type Page } from '../../src/queries/pagination.ts'
import type { ReadContext } from '../../src/queries/read-context.ts'
import { checkPng } from '../seed/png.ts'

// A page of a list as the query layer returns it.
const listSchema = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), pagination: paginationSchema })
const productListSchema = listSchema(productSchema)
const collectionListSchema = listSchema(collectionSchema)
const orderListSchema = listSchema(orderSchema)
const customerListSchema = listSchema(customerSchema)
import { freshDatabase } from '../support/database.ts'

const ATLAS = 'st_demo_atlas'
const LUMEN = 'st_demo_lumen'
const STORES = [ATLAS, LUMEN] as const

type Walked<T> = { items: T[]; pages: Page<T>[] }
async function walk<T>(fetch: (cursor: string | undefined) => Promise<Page<T>>): Promise<Walked<T>> {
  const pages: Page<T>[] = []
  let cursor: string | undefined
  for (let guard = 0; guard < 1000; guard++) {
    const page = await fetch(cursor)
    pages.push(page)
    if (!page.pagination.hasMore) break
    cursor = page.pagination.nextCursor ?? undefined
  }
  return { items: pages.flatMap((p) => p.items), pages }
}

const rejectsCursor = async (t: Test, p: Promise<unknown>, reason: string, msg: string) => {
  try {
    await p
    t.fail(`${msg}: accepted`)
  } catch (e) {
    t.ok(e instanceof CursorError, msg)
    t.match(e, { code: 'INVALID_CURSOR', reason }, msg)
  }
}

// A seeded database for the file; every subtest runs inside this test, before its teardown.
tap.test('commerce queries', async (t) => {
  const { db } = await freshDatabase(t, { seed: 'commerce' })
  const ctx: ReadContext = {
    db,
    baseUrl: 'http://shop.test:8080/',
    cursorSecret: 'queries-test-secret-0123456789abcdef',
  }
  const ids = async (table: 'products' | 'collections' | 'orders' | 'customers', storeId: string) => {
    const col = (
      { products: 'product_id', collections: 'collection_id', orders: 'order_id', customers: 'customer_id' } as const
    )[table]
    return (await db.selectFrom(table).select(col).where('store_id', '=', storeId).execute()).map(
      (r) => (r as Record<string, string>)[col]!,
    )
  }

  t.test('pagination walks every product exactly once at limits 1, 7 and 100', async (t) => {
    for (const storeId of STORES) {
      const all = await ids('products', storeId)
      t.ok(all.length >= 32)
      for (const limit of [1, 7, 100]) {
        const { items, pages } = await walk((cursor) => listProducts(ctx, storeId, { limit, cursor }))
        const got = items.map((p) => p.id)
        t.equal(new Set(got).size, got.length, `${storeId} limit ${limit}: no repeats`)
        t.same(new Set(got), new Set(all), `${storeId} limit ${limit}: every product`)
        t.equal(pages.length, Math.max(1, Math.ceil(all.length / limit)), `${storeId} limit ${limit}: page count`)
        t.ok(pages.every((p) => p.pagination.limit === limit && p.items.length <= limit))
        t.ok(
          pages
            .slice(0, -1)
            .every(
              (p) => p.pagination.hasMore && p.items.length === limit && typeof p.pagination.nextCursor === 'string',
            ),
        )
        t.same(pages.at(-1)!.pagination, { nextCursor: null, hasMore: false, limit })
      }
    }
  })

  t.test('pagination of collections, orders and customers', async (t) => {
    for (const storeId of STORES) {
      for (const limit of [1, 7, 100]) {
        const cols = await walk((cursor) => listCollections(ctx, storeId, { limit, cursor }))
        t.same(
          cols.items.map((c) => c.id).sort(),
          (await ids('collections', storeId)).sort(),
          `collections at ${limit}`,
        )
        const orders = await walk((cursor) => listOrders(ctx, storeId, { limit, cursor }))
        t.same(orders.items.map((o) => o.id).sort(), (await ids('orders', storeId)).sort(), `orders at ${limit}`)
        const customers = await walk((cursor) => listCustomers(ctx, storeId, { limit, cursor }))
        t.same(
          customers.items.map((c) => c.id).sort(),
          (await ids('customers', storeId)).sort(),
          `customers at ${limit}`,
        )
      }
      const def = await listProducts(ctx, storeId)
      t.equal(def.items.length, 20, 'default limit 20')
      t.equal(def.pagination.limit, 20)
    }
  })

  t.test(
    'ordering: (created_at, id) ascending for products and collections, newest first for orders and customers',
    async (t) => {
      const asc = (xs: { createdAt: string; id: string }[]) =>
        xs.every(
          (x, i) =>
            i === 0 ||
            xs[i - 1]!.createdAt < x.createdAt ||
            (xs[i - 1]!.createdAt === x.createdAt && xs[i - 1]!.id < x.id),
        )
      const desc = (xs: { createdAt: string; id: string }[]) =>
        xs.every(
          (x, i) =>
            i === 0 ||
            xs[i - 1]!.createdAt > x.createdAt ||
            (xs[i - 1]!.createdAt === x.createdAt && xs[i - 1]!.id > x.id),
        )
      const hasTie = (xs: { createdAt: string }[]) => new Set(xs.map((x) => x.createdAt)).size < xs.length
      for (const storeId of STORES) {
        const products = (await walk((cursor) => listProducts(ctx, storeId, { limit: 3, cursor }))).items
        t.ok(asc(products), 'products ascending')
        t.ok(hasTie(products), 'the seed has equal timestamps, so the id tie-break is exercised')
        t.ok(asc((await listCollections(ctx, storeId, { limit: 100 })).items), 'collections ascending')
        const orders = (await walk((cursor) => listOrders(ctx, storeId, { limit: 4, cursor }))).items
        t.ok(desc(orders), 'orders newest first')
        t.ok(hasTie(orders))
        t.equal(orders[0]!.number, 1020, 'the newest order first')
        const customers = (await walk((cursor) => listCustomers(ctx, storeId, { limit: 3, cursor }))).items
        t.ok(desc(customers), 'customers newest first')
        t.ok(hasTie(customers))
        // Same order at every page size.
        t.same(
          products.map((p) => p.id),
          (await listProducts(ctx, storeId, { limit: 100 })).items.map((p) => p.id),
        )
      }
    },
  )

  t.test('keyset positions keep microseconds (rows a millisecond cannot tell apart)', async (t) => {
    await db
      .insertInto('merchants')
      .values({ merchant_id: 'mer_edge', email: 'edge@example.com', name: 'Edge', password_hash: null })
      .execute()
    await db
      .insertInto('stores')
      .values({
        store_id: 'st_edge',
        merchant_id: 'mer_edge',
        name: 'Edge',
        slug: 'edge',
        currency: 'EUR',
        locale: 'en',
        country: 'FR',
        timezone: 'UTC',
        contact_email: 'edge@example.com',
        description: '',
        branding: JSON.stringify({}),
      })
      .execute()
    const stamps = [
      '2025-01-01T00:00:00.000001Z',
      '2025-01-01T00:00:00.000002Z',
      '2025-01-01T00:00:00.000002Z',
      '2025-01-01T00:00:00.000999Z',
      '2025-01-01T00:00:00.001000Z',
      '2025-01-01T00:00:00.001001Z',
    ]
    for (const [i, ts] of stamps.entries()) {
      await db
        .insertInto('products')
        .values({
          product_id: `prod_edge_${i}`,
          store_id: 'st_edge',
          handle: `edge-${i}`,
          title: `Edge ${i} 100%_off`,
          description: '',
          vendor: '',
          product_type: '',
          tags: [],
          status: 'active',
          images: JSON.stringify([]),
          options: JSON.stringify([]),
          created_at: sql<Date>`${ts}::timestamptz`,
          updated_at: sql<Date>`${ts}::timestamptz`,
        })
        .execute()
      await db
        .insertInto('orders')
        .values({
          order_id: `ord_edge_${i}`,
          store_id: 'st_edge',
          number: i + 1,
          customer_id: null,
          status: 'pending',
          payment_method: 'cash_on_delivery',
          currency: 'EUR',
          subtotal_cents: 100,
          shipping_cents: 0,
          total_cents: 100,
          line_items: JSON.stringify([]),
          shipping_address: JSON.stringify({}),
          created_at: sql<Date>`${ts}::timestamptz`,
        })
        .execute()
    }
    const expected = ['prod_edge_0', 'prod_edge_1', 'prod_edge_2', 'prod_edge_3', 'prod_edge_4', 'prod_edge_5']
    for (const limit of [1, 2, 4]) {
      t.same(
        (await walk((cursor) => listProducts(ctx, 'st_edge', { limit, cursor }))).items.map((p) => p.id),
        expected,
        `products at ${limit}`,
      )
      t.same(
        (await walk((cursor) => listOrders(ctx, 'st_edge', { limit, cursor }))).items.map((o) => o.id),
        expected.map((id) => id.replace('prod', 'ord')).reverse(),
        `orders at ${limit}`,
      )
    }
    // A product without variants or images still has a valid shape.
    const bare = await getProduct(ctx, 'st_edge', 'prod_edge_0')
    t.ok(bare)
    t.strictSame(productSchema.parse(bare), bare)
    t.match(bare, {
      priceRange: null,
      featuredImage: null,
      inventory: { totalQuantity: 0, inStock: false, variantsInStock: 0, variantsTotal: 0 },
      availableForSale: false,
    })
    // LIKE wildcards in the search are literal.
    t.same((await listProducts(ctx, 'st_edge', { query: '100%_off', limit: 100 })).items.length, 6)
    t.same((await listProducts(ctx, 'st_edge', { query: '%', limit: 100 })).items.length, 6, 'the titles contain a %')
    t.same((await listProducts(ctx, 'st_edge', { query: '0%o', limit: 100 })).items.length, 0, '% is not a wildcard')
    t.same((await listProducts(ctx, ATLAS, { query: '_', limit: 100 })).items.length, 0, '_ is not a wildcard')
    // The edge store is invisible to the demo stores.
    t.notOk((await listProducts(ctx, ATLAS, { limit: 100 })).items.some((p) => p.id.startsWith('prod_edge')))
  })

  t.test('tampered and foreign cursors are rejected', async (t) => {
    const first = await listProducts(ctx, ATLAS, { limit: 5 })
    const cursor = first.pagination.nextCursor!
    const [payload, sig] = cursor.split('.') as [string, string]
    const flipped = payload.slice(0, 10) + (payload[10] === 'a' ? 'b' : 'a') + payload.slice(11)
    await rejectsCursor(t, listProducts(ctx, ATLAS, { cursor: `${flipped}.${sig}` }), 'bad_signature', 'edited payload')
    await rejectsCursor(
      t,
      listProducts(ctx, ATLAS, { cursor: cursor.slice(0, cursor.length - 10) }),
      'bad_signature',
      'truncated',
    )
    await rejectsCursor(t, listProducts(ctx, ATLAS, { cursor: 'eyJ2IjoxfQ' }), 'malformed', 'no signature')
    await rejectsCursor(t, listProducts(ctx, LUMEN, { cursor }), 'wrong_store', 'another store')
    await rejectsCursor(t, listCollections(ctx, ATLAS, { cursor }), 'wrong_resource', 'another list')
    await rejectsCursor(t, listOrders(ctx, ATLAS, { cursor }), 'wrong_resource', 'another list (orders)')
    await rejectsCursor(t, listCustomers(ctx, ATLAS, { cursor }), 'wrong_resource', 'another list (customers)')
    await rejectsCursor(
      t,
      listProducts({ ...ctx, cursorSecret: 'rotated-secret-0123456789abcdef' }, ATLAS, { cursor }),
      'bad_signature',
      'another key',
    )
    const orderCursor = (await listOrders(ctx, LUMEN, { limit: 2 })).pagination.nextCursor!
    await rejectsCursor(t, listOrders(ctx, ATLAS, { cursor: orderCursor }), 'wrong_store', 'orders of another store')
    // The genuine cursor still works, and a filter change keeps the position.
    const next = await listProducts(ctx, ATLAS, { limit: 5, cursor })
    t.equal(next.items.length, 5)
    t.notOk(next.items.some((p) => first.items.some((f) => f.id === p.id)))
  })

  t.test('limits outside 1..100 are rejected by the schema; queries never clamp', async (t) => {
    for (const bad of [0, 101, '0', '101', -5, 2.5])
      t.notOk(paginationQuerySchema.safeParse({ limit: bad }).success, `limit ${bad}`)
    await t.rejects(listProducts(ctx, ATLAS, { limit: 101 }), RangeError)
    await t.rejects(listOrders(ctx, ATLAS, { limit: 0 }), RangeError)
  })

  t.test('product filters: status, title query, collection', async (t) => {
    const drafts = await listProducts(ctx, ATLAS, { status: 'draft', limit: 100 })
    t.ok(drafts.items.length >= 1)
    t.ok(drafts.items.every((p) => p.status === 'draft' && !p.visibleOnStorefront && !p.availableForSale))
    const archived = await listProducts(ctx, LUMEN, { status: 'archived', limit: 100 })
    t.ok(archived.items.length >= 1 && archived.items.every((p) => p.status === 'archived'))
    const all = (await listProducts(ctx, ATLAS, { limit: 100 })).items
    t.ok(
      all.some((p) => p.status !== 'active'),
      'agents see draft and archived products in the default list',
    )
    const tents = await listProducts(ctx, ATLAS, { query: 'TENT', limit: 100 })
    t.same(
      tents.items.map((p) => p.id),
      all.filter((p) => /tent/i.test(p.title)).map((p) => p.id),
      'case-insensitive title search',
    )
    t.ok(tents.items.length >= 2)
    t.same((await listProducts(ctx, LUMEN, { query: 'tent', limit: 100 })).items, [], 'another store, another catalog')
    const collections = (await listCollections(ctx, ATLAS, { limit: 100 })).items
    for (const c of collections) {
      const inCollection = await walk((cursor) => listProducts(ctx, ATLAS, { collectionId: c.id, limit: 3, cursor }))
      t.same(
        new Set(inCollection.items.map((p) => p.id)),
        new Set(c.productIds),
        `${c.title}: products of the collection`,
      )
      t.ok(inCollection.items.every((p) => p.collectionIds.includes(c.id)))
    }
    const lumenCollection = (await listCollections(ctx, LUMEN, { limit: 1 })).items[0]!
    t.same(
      (await listProducts(ctx, ATLAS, { collectionId: lumenCollection.id })).items,
      [],
      'a collection of another store filters to nothing',
    )
    const combined = await listProducts(ctx, ATLAS, {
      collectionId: collections[0]!.id,
      query: 'tent',
      status: 'active',
      limit: 100,
    })
    t.ok(combined.items.length >= 1 && combined.items.every((p) => /tent/i.test(p.title) && p.status === 'active'))
  })

  t.test('shapes: every output matches its zod schema exactly, money and URLs are well-formed', async (t) => {
    for (const storeId of STORES) {
      const store = await getStore(ctx, storeId)
      t.strictSame(storeSchema.parse(store), store)
      t.match(
        store!.branding.logoUrl,
        /^http:\/\/shop\.test:8080\/media\/[0-9a-f]{64}\.png$/,
        'absolute logo URL, no double slash',
      )
      const settings = await getStoreSettings(ctx, storeId)
      t.strictSame(storeSettingsSchema.parse(settings), settings)
      t.equal(settings!.orderConfirmation.byPhone, true)
      const products = await listProducts(ctx, storeId, { limit: 100 })
      t.strictSame(productListSchema.parse(products), products)
      const collections = await listCollections(ctx, storeId, { limit: 100 })
      t.strictSame(collectionListSchema.parse(collections), collections)
      const orders = await listOrders(ctx, storeId, { limit: 100 })
      t.strictSame(orderListSchema.parse(orders), orders)
      const customers = await listCustomers(ctx, storeId, { limit: 100 })
      t.strictSame(customerListSchema.parse(customers), customers)
      const checkout = await getCheckout(ctx, storeId)
      t.strictSame(checkoutSchema.parse(checkout), checkout)
      t.same(checkout!.paymentMethods, ['cash_on_delivery'])
      t.ok(checkout!.shippingZones.length >= 1 && checkout!.shippingZones.every((z) => z.rates.length >= 1))

      const currency = store!.currency
      for (const p of products.items) {
        t.ok(p.images.length >= 1 && p.images.every((i) => i.url.startsWith('http://shop.test:8080/media/')))
        t.same(p.featuredImage, p.images[0])
        t.ok(p.variants.every((v) => v.price.currencyCode === currency))
        const cents = p.variants.map((v) => v.price.cents)
        t.same([p.priceRange!.min.cents, p.priceRange!.max.cents], [Math.min(...cents), Math.max(...cents)])
        const inStock = p.variants.filter((v) => v.inventoryQuantity > 0)
        t.same(p.inventory, {
          totalQuantity: p.variants.reduce((s, v) => s + v.inventoryQuantity, 0),
          inStock: inStock.length > 0,
          variantsInStock: inStock.length,
          variantsTotal: p.variants.length,
        })
        t.equal(p.availableForSale, p.status === 'active' && inStock.length > 0)
        t.same(await getProduct(ctx, storeId, p.id), p, 'getProduct returns the list item')
      }
      t.ok(
        products.items.some((p) => !p.inventory.inStock),
        'some products sold out',
      )
      t.ok(products.items.some((p) => p.compareAtPriceRange !== null))
      for (const c of collections.items) {
        t.equal(c.productCount, c.productIds.length)
        t.same(await getCollection(ctx, storeId, c.id), c)
        t.ok(c.image === null || c.image.url.startsWith('http://shop.test:8080/'))
      }
      for (const o of orders.items) {
        t.equal(o.name, `#${o.number}`)
        t.equal(o.total.cents, o.subtotal.cents + o.shipping.cents + o.codFee.cents)
        t.equal(o.codFee.cents, checkout!.codFee.cents)
        t.equal(
          o.itemCount,
          o.lineItems.reduce((n, li) => n + li.quantity, 0),
        )
        t.ok(o.lineItems.every((li) => li.total.cents === li.unitPrice.cents * li.quantity))
        t.same(await getOrder(ctx, storeId, o.id), o)
        t.strictSame(orderSchema.parse(o), o)
      }
      const withOrders = customers.items.filter((c) => c.ordersCount > 0)
      t.ok(withOrders.length > 0 && withOrders.length < customers.items.length)
      for (const c of customers.items) {
        const delivered = orders.items
          .filter((o) => o.customerId === c.id && o.status === 'delivered')
          .reduce((s, o) => s + o.total.cents, 0)
        t.equal(c.totalSpent.cents, delivered)
        t.equal(c.ordersCount, orders.items.filter((o) => o.customerId === c.id).length)
        t.same(await getCustomer(ctx, storeId, c.id), c)
      }
    }
    t.same(money(189900, 'MAD'), { amount: '1899.00', currencyCode: 'MAD', cents: 189900 })
    t.same(money(1990, 'EUR'), { amount: '19.90', currencyCode: 'EUR', cents: 1990 })
    t.same(money(5, 'EUR'), { amount: '0.05', currencyCode: 'EUR', cents: 5 })
    t.same(money(-250, 'EUR'), { amount: '-2.50', currencyCode: 'EUR', cents: -250 })
    t.same(money(0, 'EUR').amount, '0.00')
  })

  t.test('batch reads for the renderer: order of ids, unknown and foreign ids left out', async (t) => {
    const atlas = (await listProducts(ctx, ATLAS, { limit: 5 })).items
    const lumen = (await listProducts(ctx, LUMEN, { limit: 2 })).items
    const wanted = [atlas[3]!.id, 'prod_nope', atlas[0]!.id, lumen[0]!.id, atlas[3]!.id, atlas[1]!.id]
    const got = await getProductsByIds(ctx, ATLAS, wanted)
    t.same(
      got.map((p) => p.id),
      [atlas[3]!.id, atlas[0]!.id, atlas[1]!.id],
    )
    t.same(got[1], atlas[0])
    t.same(await getProductsByIds(ctx, ATLAS, []), [])
    const cols = (await listCollections(ctx, ATLAS)).items
    const lumenCols = (await listCollections(ctx, LUMEN)).items
    const gotCols = await getCollectionsByIds(ctx, ATLAS, [cols[4]!.id, lumenCols[0]!.id, cols[2]!.id, 'coll_x'])
    t.same(
      gotCols.map((c) => c.id),
      [cols[4]!.id, cols[2]!.id],
    )
    t.strictSame(collectionSchema.parse(gotCols[0]), gotCols[0])
    t.same(await getCollectionsByIds(ctx, ATLAS, []), [])
  })

  t.test('existingProductIds and existingCollectionIds', async (t) => {
    const atlasProducts = await ids('products', ATLAS)
    const lumenProducts = await ids('products', LUMEN)
    const draft = (await listProducts(ctx, ATLAS, { status: 'draft' })).items[0]!.id
    const found = await existingProductIds(db, ATLAS, [
      atlasProducts[0]!,
      lumenProducts[0]!,
      'prod_missing',
      atlasProducts[0]!,
      draft,
      '',
    ])
    t.ok(found instanceof Set)
    t.same([...found].sort(), [atlasProducts[0]!, draft].sort(), 'own products of any status; not foreign, not unknown')
    t.same(await existingProductIds(db, ATLAS, []), new Set())
    t.equal((await existingProductIds(db, ATLAS, atlasProducts)).size, atlasProducts.length)
    t.equal((await existingProductIds(db, LUMEN, atlasProducts)).size, 0)
    const atlasCols = await ids('collections', ATLAS)
    const lumenCols = await ids('collections', LUMEN)
    t.same(await existingCollectionIds(db, LUMEN, [...atlasCols, ...lumenCols, 'coll_nope']), new Set(lumenCols))
    t.same(await existingCollectionIds(db, ATLAS, []), new Set())
  })

  t.test('getMediaBlob serves the stored PNG bytes, and nothing for a bad hash', async (t) => {
    const p = (await listProducts(ctx, LUMEN, { limit: 1 })).items[0]!
    const sha = /\/media\/([0-9a-f]{64})\.png$/.exec(p.images[0]!.url)![1]!
    const blob = await getMediaBlob(db, sha)
    t.ok(blob)
    t.match(blob, { sha256: sha, contentType: 'image/png', width: 480, height: 480 })
    t.ok(blob!.bytes instanceof Uint8Array)
    t.equal(blob!.byteSize, blob!.bytes.length)
    t.same([checkPng(blob!.bytes).width, checkPng(blob!.bytes).height], [480, 480])
    t.equal(await getMediaBlob(db, sha.toUpperCase()), null)
    t.equal(await getMediaBlob(db, 'f'.repeat(64)), null)
    t.equal(await getMediaBlob(db, `${sha}' or '1'='1`), null)
    t.equal(await getMediaBlob(db, ''), null)
  })

  t.test('unknown store: nothing, never an error', async (t) => {
    t.equal(await getStore(ctx, 'st_nope'), null)
    t.equal(await getStoreSettings(ctx, 'st_nope'), null)
    t.equal(await getCheckout(ctx, 'st_nope'), null)
    t.same((await listProducts(ctx, 'st_nope')).items, [])
    t.same((await listOrders(ctx, 'st_nope')).pagination, { nextCursor: null, hasMore: false, limit: 20 })
  })
})
