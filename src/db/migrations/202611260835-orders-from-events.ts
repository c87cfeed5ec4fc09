import { sql, type Kysely } from 'kysely'
import { pgArray } from '../pg-array.ts'
import { newEventId } from '../../ids.ts'

// Orders become an aggregate (src/aggregates/orders): the orders table is now the read model of
// the `orders-<store>` streams (src/projections/orders-projection.ts), written in the same
// transaction as the events.
//
// * Its foreign keys go: a projection's rows come from events only, and a rebuild's table
//   (`create table … like`) would not carry them anyway.
// * New columns for what the storefront's checkout records: the email, the customer's note, the
//   delivery rate chosen, and the SHA-256 of the confirmation link's secret (the confirmation page
//   is found by it, never by number).
// * Orders already in the table (the demo stores' seeded history, written before orders had
//   events) become OrderImported events, so a rebuild keeps them. The event data is written out
//   here as it was at this migration, independent of later code.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table orders drop constraint if exists orders_store_id_fkey`.execute(db)
  await sql`alter table orders drop constraint if exists orders_customer_id_fkey`.execute(db)
  await sql`
    alter table orders
      add column email text,
      add column note text,
      add column shipping_rate jsonb,
      add column confirmation_hash text`.execute(db)
  await sql`create unique index orders_by_confirmation on orders (confirmation_hash) where confirmation_hash is not null`.execute(
    db,
  )

  const { rows } = await sql<{
    order_id: string
    store_id: string
    number: number
    customer_id: string | null
    status: string
    payment_method: string
    currency: string
    subtotal_cents: number
    shipping_cents: number
    total_cents: number
    line_items: unknown
    shipping_address: unknown
    created_at: Date | string
  }>`
    select o.* from orders o
    where not exists (select 1 from streams s where s.stream_id = 'orders-' || o.store_id)
    order by o.store_id, o.number`.execute(db)
  const byStore = new Map<string, typeof rows>()
  for (const r of rows) byStore.set(r.store_id, [...(byStore.get(r.store_id) ?? []), r])
  const at = new Date().toISOString()
  for (const [storeId, orders] of byStore) {
    const commandId = `cmd_migration_${storeId}`
    const metadata = JSON.stringify({
      storeId,
      actor: { kind: 'system', credentialId: null, appId: null },
      channel: 'cli',
      correlationId: commandId,
      causationId: null,
      commandId,
      command: 'importOrders',
    })
    const data = orders.map((o) =>
      JSON.stringify({
        orderId: o.order_id,
        number: o.number,
        currency: o.currency,
        lineItems: o.line_items,
        subtotalCents: o.subtotal_cents,
        shippingCents: o.shipping_cents,
        codFeeCents: o.total_cents - o.subtotal_cents - o.shipping_cents,
        totalCents: o.total_cents,
        shippingAddress: o.shipping_address,
        customerId: o.customer_id,
        status: o.status,
        paymentMethod: o.payment_method,
        createdAt: new Date(o.created_at).toISOString(),
        at,
      }),
    )
    await sql`select * from event_store_append(
      ${pgArray([`orders-${storeId}`])}::text[], ${pgArray(['orders'])}::text[], ${pgArray([storeId])}::text[],
      ${pgArray(['no_stream'])}::text[], ${pgArray([orders.length])}::integer[], ${pgArray(orders.map(() => 1))}::integer[],
      ${pgArray(orders.map(() => newEventId()))}::uuid[], ${pgArray(orders.map(() => 'OrderImported'))}::text[],
      ${pgArray(orders.map(() => 1))}::integer[], ${pgArray(data)}::text[], ${pgArray(orders.map(() => metadata))}::text[])`.execute(
      db,
    )
  }
}
