import t from 'tap'
import { sql } from 'kysely'
import { api, storeRefs } from '../render/support.ts'
import { testApp } from '../support/app.ts'
import { testDatabaseKind } from '../support/database.ts'
import { ATLAS_CUSTOMER, Shopper } from './shopper.ts'

// The last 3 units and 20 shoppers placing their orders at the same moment, through the
// storefront's checkout: exactly 3 orders, the stock at 0 and never below, and the 17 others told
// at their cart line that it is sold out.
t.test(
  '20 concurrent orders for the last 3 units',
  { skip: testDatabaseKind === 'pglite' ? 'one connection on PGlite: orders cannot race' : false },
  async (t) => {
    const { app, services, keyA } = await testApp(t)
    const refs = await storeRefs(app, keyA)
    const product = refs.productRecords.find((p) => p.variants.length === 1 && p.availableForSale)!
    const variant = product.variants[0]!
    const shoppers = Array.from({ length: 20 }, (_, i) => new Shopper(app, '/s/atlas', `10.2.0.${i + 1}`))
    for (const s of shoppers) {
      t.equal((await s.add(variant.id)).statusCode, 303)
      await s.get('/checkout')
    }
    // The platform's stock for the variant drops to its last 3 while they fill in the form.
    await sql`update product_variants set inventory_quantity = 3 where variant_id = ${variant.id}`.execute(services.db)
    await sql`update stores set catalog_version = catalog_version + 1 where store_id = 'st_demo_atlas'`.execute(
      services.db,
    )
    const before = (await api(app, keyA, 'GET', '/api/v1/orders?limit=100')).orders.length

    const results = await Promise.all(shoppers.map((s) => s.place(ATLAS_CUSTOMER)))

    const placed = results.filter((r) => r.statusCode === 303)
    const refused = results.filter((r) => r.statusCode !== 303)
    t.equal(placed.length, 3, 'exactly 3 orders placed')
    t.ok(
      placed.every((r) => /^\/s\/atlas\/orders\/[A-Za-z0-9_.-]{50,}$/.test(String(r.headers.location))),
      'each to its confirmation',
    )
    t.same(
      refused.map((r) => r.statusCode),
      Array(17).fill(422),
      'the 17 others are refused as invalid input',
    )
    const soldOut = `${product.title} is sold out. Remove it from your cart to order the rest.`
    t.ok(
      refused.every((r) => r.body.includes(soldOut) && r.body.includes('class="line-issue"')),
      'each sees "sold out" at the cart line',
    )
    const { rows } = await sql<{ q: number }>`
      select inventory_quantity as q from product_variants where variant_id = ${variant.id}`.execute(services.db)
    t.equal(rows[0]!.q, 0, 'stock 0')
    const negative = await sql<{ n: number }>`
      select count(*)::int as n from product_variants where inventory_quantity < 0`.execute(services.db)
    t.equal(negative.rows[0]!.n, 0, 'no negative stock anywhere')
    const orders = (await api(app, keyA, 'GET', '/api/v1/orders?limit=100')).orders as {
      number: number
      lineItems: { variantId: string }[]
    }[]
    t.equal(orders.length, before + 3, 'three orders in the orders API')
    t.same(
      orders
        .slice(0, 3)
        .map((o) => o.number)
        .sort(),
      [1021, 1022, 1023],
      'the next three numbers of the store',
    )
    const events = await services.eventStore.readStream('orders-st_demo_atlas')
    t.equal(events.filter((e) => e.type === 'OrderPlaced').length, 3, 'three OrderPlaced events')
  },
)
