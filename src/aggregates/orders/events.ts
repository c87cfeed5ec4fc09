import { eventTypes, streamName } from '../stream-name.ts'

// A store's order book (`orders-<storeId>`): every order of the store, in the order it was taken,
// so the number sequence, double submits and the per-address limit are decided on one stream.

export type OrderStatus = 'pending' | 'confirmed' | 'shipped' | 'delivered' | 'cancelled' | 'returned'

// A line as it was sold: the catalogue's title, SKU and price at the time of the order.
export type OrderLine = {
  productId: string
  variantId: string
  title: string
  variantTitle: string
  sku: string
  quantity: number
  unitPriceCents: number
}

export type OrderAddress = {
  name: string
  phone: string
  address1: string
  address2: string | null
  city: string
  region: string | null
  postalCode: string | null
  country: string
}

// What every order records, however it came in.
type OrderFacts = {
  orderId: string
  number: number
  currency: string
  lineItems: OrderLine[]
  subtotalCents: number
  shippingCents: number
  codFeeCents: number
  totalCents: number
  shippingAddress: OrderAddress
}

export type OrderEvent =
  // A shopper's cash-on-delivery order from the storefront's checkout. The confirmation link's
  // secret is kept only as its SHA-256 (confirmationHash), the client address only as a keyed
  // hash (clientKey, for the per-address limit).
  | {
      type: 'OrderPlaced'
      data: OrderFacts & {
        customerId: null
        status: 'pending'
        paymentMethod: 'cash_on_delivery'
        email: string | null
        note: string | null
        shippingRate: { zone: string; name: string; minDeliveryDays: number; maxDeliveryDays: number } | null
        confirmationHash: string
        clientKey: string
        at: string
      }
    }
  // An order the platform took before this service did (the demo stores' history), recorded as it
  // stands, so a rebuild of the orders read model keeps it.
  | {
      type: 'OrderImported'
      data: OrderFacts & {
        customerId: string | null
        status: OrderStatus
        paymentMethod: string
        createdAt: string
        at: string
      }
    }

export const orderBookStream = streamName('orders')

export const ORDER_EVENT_TYPES = eventTypes<OrderEvent>()(['OrderPlaced', 'OrderImported'])
