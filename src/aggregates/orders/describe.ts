import { formatCents } from './decider.ts'
import type { OrderEvent } from './events.ts'

// Orders as the merchant's activity view lists them.
export function describeOrderEvent(event: OrderEvent): string | null {
  const d = event.data
  const items = d.lineItems.reduce((n, l) => n + l.quantity, 0)
  const total = formatCents(d.totalCents, d.currency, 'en')
  if (event.type === 'OrderPlaced')
    return `Order #${d.number} placed on the storefront: ${items} item${items === 1 ? '' : 's'}, ${total}, cash on delivery`
  return `Order #${d.number} recorded from the platform's history (${event.data.status}, ${total})`
}
