import type { Kysely } from 'kysely'
import type { CheckoutTerms, OrderInputs } from '../../aggregates/orders/decider.ts'
import type { Database } from '../../db/database.ts'
import { getCheckout } from './checkout.ts'

// What placing an order decides on, read fresh from the tables (no cache, no read model): the
// ordered variants with their price and stock now, and the store's checkout terms. The order
// command reads it through its deps (src/services.ts), on the connection of its attempt: the
// transaction holding the order book's lock when it decides again.
export async function orderInputs(
  db: Kysely<Database>,
  storeId: string,
  variantIds: readonly string[],
): Promise<OrderInputs> {
  const [variants, checkout, store] = await Promise.all([
    variantIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('product_variants as v')
          .innerJoin('products as p', 'p.product_id', 'v.product_id')
          .select([
            'v.variant_id',
            'v.product_id',
            'p.title',
            'v.title as variant_title',
            'v.sku',
            'v.price_cents',
            'v.inventory_quantity',
            'p.status',
          ])
          .where('v.store_id', '=', storeId)
          .where('p.store_id', '=', storeId)
          .where('v.variant_id', 'in', [...variantIds])
          .execute(),
    getCheckout({ db }, storeId),
    db.selectFrom('stores').select(['country', 'locale']).where('store_id', '=', storeId).executeTakeFirst(),
  ])
  const terms: CheckoutTerms | null =
    checkout === null || store === undefined
      ? null
      : {
          currency: checkout.currency,
          locale: store.locale,
          storeCountry: store.country,
          codFeeCents: checkout.codFee.cents,
          freeShippingThresholdCents: checkout.freeShippingThreshold?.cents ?? null,
          maxOrderCents: checkout.maxOrderTotal?.cents ?? null,
          zones: checkout.shippingZones.map((z) => ({
            name: z.name,
            countries: z.countries,
            rates: z.rates.map((r) => ({
              name: r.name,
              priceCents: r.price.cents,
              minDeliveryDays: r.minDeliveryDays,
              maxDeliveryDays: r.maxDeliveryDays,
            })),
          })),
          guestCheckout: checkout.guestCheckout,
          requiredFields: checkout.requiredFields,
          phoneConfirmation: checkout.orderConfirmation.required && checkout.orderConfirmation.method === 'phone_call',
        }
  return {
    variants: variants.map((v) => ({
      variantId: v.variant_id,
      productId: v.product_id,
      title: v.title,
      variantTitle: v.variant_title,
      sku: v.sku,
      priceCents: v.price_cents,
      inventoryQuantity: v.inventory_quantity,
      active: v.status === 'active',
    })),
    terms,
  }
}
