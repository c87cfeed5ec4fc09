import type { ReadContext } from '../read-context.ts'
import { money } from './money.ts'
import type { Checkout } from './schemas.ts'

// The checkout configuration summary. Rebuilt field by field from checkout_configs.config
// (amounts in cents there), so nothing outside the whitelist can leak out.

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback)
const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string')
const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0)
const intOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null)

export async function getCheckout(ctx: Pick<ReadContext, 'db'>, storeId: string): Promise<Checkout | null> {
  const row = await ctx.db
    .selectFrom('checkout_configs as k')
    .innerJoin('stores as s', 's.store_id', 'k.store_id')
    .select(['k.config', 's.currency'])
    .where('k.store_id', '=', storeId)
    .executeTakeFirst()
  if (!row) return null
  const c = obj(row.config)
  const currency = row.currency
  const confirmation = obj(c.orderConfirmation)
  const threshold = intOrNull(c.freeShippingThresholdCents)
  const maxOrder = intOrNull(c.maxOrderCents)
  const paymentMethods = strings(c.paymentMethods)
  return {
    paymentMethods: paymentMethods.length ? paymentMethods : ['cash_on_delivery'],
    currency,
    codFee: money(int(c.codFeeCents), currency),
    freeShippingThreshold: threshold === null ? null : money(threshold, currency),
    maxOrderTotal: maxOrder === null ? null : money(maxOrder, currency),
    shippingZones: arr(c.shippingZones).map((z) => {
      const zone = obj(z)
      return {
        name: str(zone.name),
        countries: strings(zone.countries),
        rates: arr(zone.rates).map((r) => {
          const rate = obj(r)
          return {
            name: str(rate.name),
            price: money(int(rate.priceCents), currency),
            minDeliveryDays: int(rate.minDeliveryDays),
            maxDeliveryDays: int(rate.maxDeliveryDays),
          }
        }),
      }
    }),
    orderConfirmation: {
      method: str(confirmation.method, 'phone_call'),
      required: typeof confirmation.required === 'boolean' ? confirmation.required : true,
      policy: str(confirmation.policy),
    },
    guestCheckout: typeof c.guestCheckout === 'boolean' ? c.guestCheckout : true,
    requiredFields: strings(c.requiredFields),
  }
}
