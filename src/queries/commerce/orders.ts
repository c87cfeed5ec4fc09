import type { Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'
import { cursorTimestamp, paginate, type Page, type PageArgs } from '../pagination.ts'
import type { ReadContext } from '../read-context.ts'
import { iso, money } from './money.ts'
import type { Address, Order, OrderLineItem } from './schemas.ts'

// Orders, read-only. Order of listOrders: newest first, (created_at, order_id) descending.

export const ORDERS_RESOURCE = 'orders'

function orderSelect(db: Kysely<Database>, storeId: string) {
  return db
    .selectFrom('orders as o')
    .where('o.store_id', '=', storeId)
    .select([
      'o.order_id',
      'o.number',
      'o.customer_id',
      'o.status',
      'o.payment_method',
      'o.currency',
      'o.subtotal_cents',
      'o.shipping_cents',
      'o.total_cents',
      'o.line_items',
      'o.shipping_address',
      'o.created_at',
      'o.note',
      cursorTimestamp('o.created_at').as('cursor_ts'),
    ])
}

type OrderRow = Awaited<ReturnType<ReturnType<typeof orderSelect>['execute']>>[number]
type Obj = Record<string, unknown>
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})
const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0)

function toLineItems(stored: unknown, currency: string): OrderLineItem[] {
  if (!Array.isArray(stored)) return []
  return stored.map((raw) => {
    const li = obj(raw)
    const quantity = int(li.quantity)
    const unit = int(li.unitPriceCents)
    return {
      productId: str(li.productId),
      variantId: str(li.variantId),
      title: str(li.title),
      variantTitle: str(li.variantTitle),
      sku: str(li.sku),
      quantity,
      unitPrice: money(unit, currency),
      total: money(unit * quantity, currency),
    }
  })
}

function toAddress(stored: unknown): Address {
  const a = obj(stored)
  return {
    name: str(a.name),
    phone: str(a.phone),
    address1: str(a.address1),
    address2: strOrNull(a.address2),
    city: str(a.city),
    region: strOrNull(a.region),
    postalCode: strOrNull(a.postalCode),
    country: str(a.country),
  }
}

function toOrder(row: OrderRow): Order {
  const currency = row.currency
  const lineItems = toLineItems(row.line_items, currency)
  return {
    id: row.order_id,
    number: row.number,
    name: `#${row.number}`,
    status: row.status,
    paymentMethod: row.payment_method,
    customerId: row.customer_id,
    currency,
    lineItems,
    itemCount: lineItems.reduce((n, li) => n + li.quantity, 0),
    subtotal: money(row.subtotal_cents, currency),
    shipping: money(row.shipping_cents, currency),
    codFee: money(row.total_cents - row.subtotal_cents - row.shipping_cents, currency),
    total: money(row.total_cents, currency),
    shippingAddress: toAddress(row.shipping_address),
    note: row.note,
    createdAt: iso(row.created_at),
  }
}

export async function listOrders(ctx: ReadContext, storeId: string, args: PageArgs = {}): Promise<Page<Order>> {
  return paginate(ctx, args, {
    scope: { resource: ORDERS_RESOURCE, storeId },
    query: orderSelect(ctx.db, storeId),
    keys: { createdAt: 'o.created_at', id: 'o.order_id', direction: 'desc', idOf: (r) => r.order_id },
    map: toOrder,
  })
}

export async function getOrder(ctx: ReadContext, storeId: string, orderId: string): Promise<Order | null> {
  const row = await orderSelect(ctx.db, storeId).where('o.order_id', '=', orderId).executeTakeFirst()
  return row ? toOrder(row) : null
}

// The order a shopper's confirmation link leads to: found by the SHA-256 of the link's secret,
// never by number or id. With the delivery chosen and the email, which the confirmation shows.
export type ConfirmedOrder = Order & {
  email: string | null
  shippingRate: { zone: string; name: string; minDeliveryDays: number; maxDeliveryDays: number } | null
}

export async function getOrderByConfirmation(
  ctx: Pick<ReadContext, 'db'>,
  storeId: string,
  confirmationHash: string,
): Promise<ConfirmedOrder | null> {
  const row = await orderSelect(ctx.db, storeId)
    .select(['o.email', 'o.shipping_rate'])
    .where('o.confirmation_hash', '=', confirmationHash)
    .executeTakeFirst()
  if (!row) return null
  const rate = obj(row.shipping_rate)
  return {
    ...toOrder(row),
    email: row.email,
    shippingRate:
      row.shipping_rate === null
        ? null
        : {
            zone: str(rate.zone),
            name: str(rate.name),
            minDeliveryDays: int(rate.minDeliveryDays),
            maxDeliveryDays: int(rate.maxDeliveryDays),
          },
  }
}
