import type { QueryCreator } from 'kysely'
import { ORDER_EVENT_TYPES, type OrderEvent } from '../aggregates/orders/events.ts'
import type { Database } from '../db/database.ts'
import { defineProjection } from './projection.ts'

const rowOf = (storeId: string, event: OrderEvent) => {
  const d = event.data
  const placed = event.type === 'OrderPlaced' ? event.data : null
  return {
    order_id: d.orderId,
    store_id: storeId,
    number: d.number,
    customer_id: d.customerId,
    status: d.status,
    payment_method: d.paymentMethod,
    currency: d.currency,
    subtotal_cents: d.subtotalCents,
    shipping_cents: d.shippingCents,
    total_cents: d.totalCents,
    line_items: JSON.stringify(d.lineItems),
    shipping_address: JSON.stringify(d.shippingAddress),
    created_at: event.type === 'OrderPlaced' ? event.data.at : event.data.createdAt,
    email: placed?.email ?? null,
    note: placed?.note ?? null,
    shipping_rate: placed?.shippingRate ? JSON.stringify(placed.shippingRate) : null,
    confirmation_hash: placed?.confirmationHash ?? null,
  }
}

// The orders API's table (GET /api/v1/orders, get_orders, the dashboard's Orders page): one row
// per order, written once. Confirming, shipping and cancelling are not events of this service yet.
export const ordersProjection = defineProjection<OrderEvent>({
  name: 'orders',
  tables: ['orders'],
  handles: ORDER_EVENT_TYPES,
  async apply(db: QueryCreator<Database>, events) {
    await db
      .insertInto('orders')
      .values(events.map((e) => rowOf(e.storeId, e)))
      .onConflict((oc) => oc.column('order_id').doNothing())
      .execute()
  },
  // Appends without orders write nothing here, in their own statement; an order's append runs in
  // a transaction anyway (it takes the stock there), where `apply` writes the row.
  prepare: ({ events }) => (events.length === 0 ? [] : null),
})
