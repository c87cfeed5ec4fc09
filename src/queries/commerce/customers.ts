import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/database.ts'
import { cursorTimestamp, paginate, type Page, type PageArgs } from '../pagination.ts'
import type { ReadContext } from '../read-context.ts'
import { iso, money } from './money.ts'
import type { Customer } from './schemas.ts'

// Customers, read-only, with their order count and delivered total (one statement).
// Order of listCustomers: newest first, (created_at, customer_id) descending.

export const CUSTOMERS_RESOURCE = 'customers'

function customerSelect(db: Kysely<Database>, storeId: string) {
  return db
    .selectFrom('customers as c')
    .innerJoin('stores as s', 's.store_id', 'c.store_id')
    .where('c.store_id', '=', storeId)
    .select([
      'c.customer_id',
      'c.first_name',
      'c.last_name',
      'c.email',
      'c.phone',
      'c.city',
      'c.country',
      'c.accepts_marketing',
      'c.created_at',
      's.currency',
      cursorTimestamp('c.created_at').as('cursor_ts'),
      sql<number>`(select count(*)::int from orders o where o.customer_id = c.customer_id and o.store_id = c.store_id)`.as(
        'orders_count',
      ),
      sql<number>`(select coalesce(sum(o.total_cents), 0)::int from orders o
        where o.customer_id = c.customer_id and o.store_id = c.store_id and o.status = 'delivered')`.as(
        'delivered_cents',
      ),
    ])
}

type CustomerRow = Awaited<ReturnType<ReturnType<typeof customerSelect>['execute']>>[number]

function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.customer_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    city: row.city,
    country: row.country,
    acceptsMarketing: row.accepts_marketing,
    ordersCount: Number(row.orders_count),
    totalSpent: money(Number(row.delivered_cents), row.currency),
    createdAt: iso(row.created_at),
  }
}

export async function listCustomers(ctx: ReadContext, storeId: string, args: PageArgs = {}): Promise<Page<Customer>> {
  return paginate(ctx, args, {
    scope: { resource: CUSTOMERS_RESOURCE, storeId },
    query: customerSelect(ctx.db, storeId),
    keys: { createdAt: 'c.created_at', id: 'c.customer_id', direction: 'desc', idOf: (r) => r.customer_id },
    map: toCustomer,
  })
}

// Not exposed as its own REST operation in v1 (the contract lists only listCustomers),
// but useful to tools and tests; store-scoped like everything else.
export async function getCustomer(ctx: ReadContext, storeId: string, customerId: string): Promise<Customer | null> {
  const row = await customerSelect(ctx.db, storeId).where('c.customer_id', '=', customerId).executeTakeFirst()
  return row ? toCustomer(row) : null
}
