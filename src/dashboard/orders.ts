import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { getOrderOperation, listOrdersOperation } from '../operations/commerce-operations.ts'
import type { Order } from '../queries/commerce/schemas.ts'
import { html, type Html } from '../web/html.ts'
import { actOrFail } from './act.ts'
import { errorPage, type DashboardContext } from './plugin.ts'
import { href, page, when } from './layout.ts'

// /dashboard/orders: the store's orders, newest first, and each order's detail. Read-only: the
// same listOrders and getOrder operations agents read (with orders:read); confirming, shipping,
// cancelling and restocking are not in this dashboard.

const STATUS: Record<string, { label: string; pill: string }> = {
  pending: { label: 'Pending: to confirm by phone', pill: 'draft' },
  confirmed: { label: 'Confirmed', pill: 'active' },
  shipped: { label: 'Shipped', pill: 'active' },
  delivered: { label: 'Delivered, paid', pill: 'applied' },
  cancelled: { label: 'Cancelled', pill: 'archived' },
  returned: { label: 'Returned', pill: 'rejected' },
}
const statusPill = (status: string) => {
  const s = STATUS[status] ?? { label: status, pill: '' }
  return html`<span class="pill ${s.pill}">${s.label}</span>`
}

const money = (m: { cents: number; currencyCode: string }) =>
  `${(m.cents / 100).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${m.currencyCode}`
const ORDER_ID = /^[A-Za-z0-9_-]{1,64}$/
const regions = new Intl.DisplayNames(['en'], { type: 'region' })
const countryOf = (code: string) => {
  try {
    return regions.of(code) ?? code
  } catch {
    return code
  }
}
const READ_ONLY =
  'Orders are read-only here: confirm, ship or cancel them with your cash-on-delivery platform. Agents can read orders too, never change them.'

export function registerOrderRoutes(dash: FastifyInstance, ctx: DashboardContext) {
  const { services, guard } = ctx

  dash.get('/dashboard/orders', { preHandler: guard }, async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await ctx.session(request)
    const q = request.query as { cursor?: unknown }
    const cursor = typeof q.cursor === 'string' && q.cursor.length <= 500 ? q.cursor : undefined
    const listed = await actOrFail(services, request, session, listOrdersOperation, {
      query: { limit: '50', ...(cursor ? { cursor } : {}) },
    })
    if (!listed.ok)
      return errorPage(reply, 400, 'Orders not found', 'That page of orders does not exist. Start from the first page.')
    const orders = (listed.data.orders ?? []) as Order[]
    const next = listed.pagination?.nextCursor ?? null
    const body = html`<h1>Orders</h1>
<p class="lede">${READ_ONLY}</p>
<div class="card table-wrap" tabindex="0" role="region" aria-label="Orders"><table class="stack">
<caption class="visually-hidden">Orders of ${session.store.name}, newest first</caption>
<thead><tr><th scope="col">Order</th><th scope="col" class="hide-sm">Placed</th><th scope="col">Customer</th><th scope="col" class="hide-sm">Items</th><th scope="col">Total</th><th scope="col">Status</th></tr></thead>
<tbody>${orders.length === 0 ? html`<tr><td colspan="6" class="muted">No orders yet. Orders placed on your storefront appear here.</td></tr>` : orders.map((o) => orderRow(o, session.store.timeZone))}</tbody></table>
${next ? html`<div class="pager"><a class="button secondary" href="${href('/dashboard/orders', { cursor: next })}">Older orders →</a></div>` : null}</div>`
    return reply
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Orders', session, csrf: reply.generateCsrf(), current: 'orders', body }))
  })

  dash.get(
    '/dashboard/orders/:id',
    { preHandler: guard },
    async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const session = await ctx.session(request)
      const notFound = () => errorPage(reply, 404, 'Order not found', 'There is no such order in this store.')
      if (!ORDER_ID.test(request.params.id)) return notFound()
      const found = await actOrFail(services, request, session, getOrderOperation, {
        params: { id: request.params.id },
      })
      if (!found.ok) return notFound()
      const o = found.data
      const a = o.shippingAddress
      const body = html`<p><a href="${href('/dashboard/orders')}">← All orders</a></p>
<h1>Order ${o.name}</h1>
<p class="lede">${statusPill(o.status)} · placed ${when(o.createdAt, session.store.timeZone)} · ${o.paymentMethod === 'cash_on_delivery' ? 'cash on delivery' : o.paymentMethod} · ${o.customerId ? html`customer <span class="mono">${o.customerId}</span>` : 'guest'}</p>
<p class="muted">${READ_ONLY}</p>
<div class="grid">
<div class="card"><h2>Deliver to</h2><p>${a.name}<br>${a.address1}${a.address2 ? html`<br>${a.address2}` : null}<br>${[a.postalCode, a.city].filter(Boolean).join(' ')}${a.region ? html`<br>${a.region}` : null}<br>${countryOf(a.country)}</p><p>Phone: ${a.phone}</p></div>
<div class="card"><h2>Customer’s note</h2><p>${o.note ?? html`<span class="muted">No note.</span>`}</p></div>
</div>
<div class="card table-wrap" tabindex="0" role="region" aria-label="Items"><table>
<caption class="visually-hidden">Items of order ${o.name}</caption>
<thead><tr><th scope="col">Item</th><th scope="col" class="hide-sm">SKU</th><th scope="col">Quantity</th><th scope="col">Total</th></tr></thead>
<tbody>${o.lineItems.map(
        (l) =>
          html`<tr><td>${l.title}${l.variantTitle && l.variantTitle !== 'Default' ? html`<br><span class="muted">${l.variantTitle}</span>` : null}<br><span class="muted">${money(l.unitPrice)} each</span></td><td class="hide-sm mono">${l.sku}</td><td>${l.quantity}</td><td>${money(l.total)}</td></tr>`,
      )}</tbody></table></div>
<div class="card"><h2>To collect on delivery</h2><table>
<caption class="visually-hidden">Totals of order ${o.name}</caption>
<tbody>
<tr><th scope="row">Subtotal</th><td>${money(o.subtotal)}</td></tr>
<tr><th scope="row">Delivery</th><td>${money(o.shipping)}</td></tr>
<tr><th scope="row">Cash-on-delivery fee</th><td>${money(o.codFee)}</td></tr>
<tr><th scope="row">Total</th><td><strong>${money(o.total)}</strong></td></tr>
</tbody></table></div>`
      return reply
        .type('text/html; charset=utf-8')
        .send(page({ title: `Order ${o.name}`, session, csrf: reply.generateCsrf(), current: 'orders', body }))
    },
  )
}

function orderRow(o: Order, zone: string | null): Html {
  return html`<tr><td data-label="Order"><a href="${href(`/dashboard/orders/${encodeURIComponent(o.id)}`)}">${o.name}</a></td><td class="hide-sm">${when(o.createdAt, zone)}</td><td data-label="Customer">${o.shippingAddress.name}<br><span class="muted">${o.shippingAddress.city}</span></td><td class="hide-sm">${o.itemCount}</td><td data-label="Total">${money(o.total)}</td><td data-label="Status">${statusPill(o.status)}</td></tr>`
}
