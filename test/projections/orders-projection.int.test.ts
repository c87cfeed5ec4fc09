import t from 'tap'
import { sql } from 'kysely'
import { orderBookStream, type OrderEvent } from '../../src/aggregates/orders/events.ts'
import { ordersProjection } from '../../src/projections/orders-projection.ts'
import { rebuildProjection } from '../../src/projections/rebuild.ts'
import { testServices } from '../support/services.ts'
import { type Given, projectionSpec } from '../support/projection-spec.ts'

// orders: one row per order of a store's order book, as the orders API reads it.
const line = {
  productId: 'prod_1',
  variantId: 'var_1',
  title: 'Lamp',
  variantTitle: 'Brass',
  sku: 'L-1',
  quantity: 2,
  unitPriceCents: 4500,
}
const address = {
  name: 'Claire Martin',
  phone: '+33 6 12 34 56 78',
  address1: '12 rue des Tanneurs',
  address2: null,
  city: 'Lille',
  region: null,
  postalCode: '59000',
  country: 'FR',
}
const placed = (storeId: string, orderId: string, number: number, note: string | null): Given =>
  ({
    type: 'OrderPlaced',
    data: {
      orderId,
      number,
      customerId: null,
      status: 'pending',
      paymentMethod: 'cash_on_delivery',
      currency: 'EUR',
      lineItems: [line],
      subtotalCents: 9000,
      shippingCents: 590,
      codFeeCents: 390,
      totalCents: 9980,
      shippingAddress: address,
      email: 'claire@example.com',
      note,
      shippingRate: { zone: 'France', name: 'Colissimo', minDeliveryDays: 2, maxDeliveryDays: 3 },
      confirmationHash: `hash-${orderId}`,
      clientKey: 'client',
      at: '2026-11-26T10:00:00.000Z',
    },
    streamId: orderBookStream(storeId),
    storeId,
  }) satisfies OrderEvent & Given

const imported = (storeId: string, orderId: string, number: number): Given =>
  ({
    type: 'OrderImported',
    data: {
      orderId,
      number,
      customerId: 'cust_1',
      status: 'delivered',
      paymentMethod: 'cash_on_delivery',
      currency: 'EUR',
      lineItems: [line],
      subtotalCents: 9000,
      shippingCents: 0,
      codFeeCents: 390,
      totalCents: 9390,
      shippingAddress: address,
      createdAt: '2025-01-06T10:15:00.000Z',
      at: '2026-11-26T09:00:00.000Z',
    },
    streamId: orderBookStream(storeId),
    storeId,
    command: `import-${storeId}`,
  }) satisfies OrderEvent & Given

t.test('orders', async (t) => {
  const spec = await projectionSpec(t, ordersProjection)
  await t.test('imported history and storefront orders, each store its own', async (t) => {
    await spec
      .given([
        imported('st_o1', 'ord_a1', 1001),
        imported('st_o1', 'ord_a2', 1002),
        placed('st_o1', 'ord_a3', 1003, 'Ring twice'),
        placed('st_o2', 'ord_b1', 1001, null),
      ])
      .thenRows(t, {
        orders: [
          {
            order_id: 'ord_a1',
            store_id: 'st_o1',
            number: 1001,
            status: 'delivered',
            customer_id: 'cust_1',
            total_cents: 9390,
            created_at: '2025-01-06T10:15:00.000Z',
            note: null,
            email: null,
            confirmation_hash: null,
            shipping_rate: null,
          },
          { order_id: 'ord_a2', number: 1002 },
          {
            order_id: 'ord_a3',
            number: 1003,
            status: 'pending',
            customer_id: null,
            payment_method: 'cash_on_delivery',
            subtotal_cents: 9000,
            shipping_cents: 590,
            total_cents: 9980,
            line_items: [line],
            shipping_address: address,
            note: 'Ring twice',
            email: 'claire@example.com',
            shipping_rate: { zone: 'France', name: 'Colissimo' },
            confirmation_hash: 'hash-ord_a3',
            created_at: '2026-11-26T10:00:00.000Z',
          },
          { order_id: 'ord_b1', store_id: 'st_o2', number: 1001, note: null },
        ],
      })
  })
})

t.test('the seeded demo orders are events: a rebuild of the orders keeps them', async (t) => {
  const s = await testServices(t, { seed: 'commerce' })
  const rows = async () =>
    (
      await sql<Record<string, unknown>>`
        select order_id, store_id, number, status, customer_id, total_cents, line_items, shipping_address, created_at
        from orders order by store_id, number`.execute(s.db)
    ).rows
  const seeded = await rows()
  t.equal(seeded.length, 40, 'twenty orders in each demo store')
  const events = await s.eventStore.readStream(orderBookStream('st_demo_atlas'))
  t.equal(events.length, 20)
  t.ok(
    events.every((e) => e.type === 'OrderImported'),
    'recorded as the platform’s history',
  )
  const rebuilt = await rebuildProjection(s.db, s.eventStore, ordersProjection)
  t.ok(rebuilt.swapped)
  t.same(await rows(), seeded, 'the same rows after the rebuild')
})
