import type { Decider } from '../decider.ts'
import { fail, ok, type Result } from '../result.ts'
import { type CheckoutForm, type FieldIssue, formIssues, requiredFields } from './checkout-form.ts'
import { orderBookStream, type OrderEvent, type OrderLine } from './events.ts'

// A store's order book: placing a cash-on-delivery order from the storefront's checkout. The
// decision takes the cart, the form and the store's checkout terms, and the live catalogue (price,
// stock) as read in the same transaction that appends the order and takes the stock
// (src/commands/orders.ts), so it never sells what is not there.

export const FIRST_ORDER_NUMBER = 1001

export const ORDER_LIMITS = {
  // Orders one client address may place per store in an hour.
  perClientPerHour: 10,
  // How long an order's checkout token is remembered, so a second submit of the same form places
  // nothing. Checkout tokens expire sooner (src/operations/storefront/checkout-token.ts).
  rememberMs: 24 * 3600_000,
  maxLines: 50,
  maxQuantity: 99,
} as const

export type RecentOrder = {
  orderId: string
  number: number
  confirmationHash: string | null
  clientKey: string | null
  at: string
}
// What decisions need: the last number taken, and the orders of the last day (double submits, the
// per-address limit). Orders are kept in the log and the read model, not in the state.
export type OrderBook = { lastNumber: number; recent: readonly RecentOrder[] }

export type CartLine = { variantId: string; quantity: number }

export type PlaceOrder = {
  orderId: string
  // SHA-256 of the checkout token the form carried: the order's key against double submits, and
  // the address of its confirmation page.
  confirmationHash: string
  // A keyed hash of the client's address.
  clientKey: string
  lines: readonly CartLine[]
  form: CheckoutForm
}

// A variant as the catalogue has it now.
export type OrderableVariant = {
  variantId: string
  productId: string
  title: string
  variantTitle: string
  sku: string
  priceCents: number
  inventoryQuantity: number
  // The product is active (on sale on the storefront).
  active: boolean
}

// The store's checkout configuration, in cents (GET /api/v1/checkout has the same in money).
export type CheckoutTerms = {
  currency: string
  locale: string
  // Where the store is: the delivery country when the configuration has no shipping zones.
  storeCountry: string
  codFeeCents: number
  freeShippingThresholdCents: number | null
  maxOrderCents: number | null
  zones: readonly {
    name: string
    countries: readonly string[]
    rates: readonly { name: string; priceCents: number; minDeliveryDays: number; maxDeliveryDays: number }[]
  }[]
  guestCheckout: boolean
  requiredFields: readonly string[]
  // Orders are confirmed by a phone call before they ship: the phone number is needed.
  phoneConfirmation: boolean
}

// What the decision reads beside the order book: the ordered variants now and the store's terms.
export type OrderInputs = { variants: OrderableVariant[]; terms: CheckoutTerms | null }

export type OrderContext = {
  at: string
  variants: ReadonlyMap<string, OrderableVariant>
  // null: the store has no checkout configuration.
  terms: CheckoutTerms | null
}

// A delivery rate's value in the form: its zone and its name.
export const rateId = (zone: string, rate: string) => `${zone} · ${rate}`

export const formatCents = (cents: number, currency: string, locale: string): string => {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100)
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`
  }
}

export const countryName = (code: string): string => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code
  } catch {
    return code
  }
}

// The cart's lines with the same variant added up, in the order they were first added.
export function mergeLines(lines: readonly CartLine[]): CartLine[] {
  const merged = new Map<string, number>()
  for (const l of lines) merged.set(l.variantId, (merged.get(l.variantId) ?? 0) + l.quantity)
  return [...merged].map(([variantId, quantity]) => ({ variantId, quantity }))
}

// A problem with a cart line, at that line.
export const linePath = (variantId: string) => `line:${variantId}`

// What a cart line may be ordered at now: sold out, gone, or more than the stock.
export function lineIssue(line: CartLine, variant: OrderableVariant | undefined): string | null {
  if (!variant?.active) return 'This product is no longer sold. Remove it from your cart.'
  if (!Number.isInteger(line.quantity) || line.quantity < 1) return 'Enter a quantity of 1 or more.'
  const name =
    variant.variantTitle && variant.variantTitle !== 'Default'
      ? `${variant.title} (${variant.variantTitle})`
      : variant.title
  if (variant.inventoryQuantity <= 0) return `${name} is sold out. Remove it from your cart to order the rest.`
  if (line.quantity > variant.inventoryQuantity)
    return `Only ${variant.inventoryQuantity} left of ${name}. Lower the quantity to ${variant.inventoryQuantity} or less.`
  if (line.quantity > ORDER_LIMITS.maxQuantity) return `At most ${ORDER_LIMITS.maxQuantity} of one item per order.`
  return null
}

export type Totals = { subtotalCents: number; shippingCents: number; codFeeCents: number; totalCents: number }

export function totals(subtotalCents: number, ratePriceCents: number | null, terms: CheckoutTerms): Totals {
  const free = terms.freeShippingThresholdCents !== null && subtotalCents >= terms.freeShippingThresholdCents
  const shippingCents = free ? 0 : (ratePriceCents ?? 0)
  const codFeeCents = terms.codFeeCents
  return { subtotalCents, shippingCents, codFeeCents, totalCents: subtotalCents + shippingCents + codFeeCents }
}

const HOUR_MS = 3600_000

const refused = (issues: FieldIssue[]) =>
  fail('VALIDATION_FAILED', issues.length === 1 ? issues[0]!.message : `${issues.length} problems found`, {
    issues: issues.map((i) => ({ path: i.path, code: 'VALIDATION_FAILED', message: i.message })),
  })

function placeOrder(command: PlaceOrder, book: OrderBook, context: OrderContext): Result<OrderEvent[]> {
  // A second submit of the same checkout: its order is already in the book.
  if (book.recent.some((r) => r.confirmationHash === command.confirmationHash)) return ok([])
  const terms = context.terms
  if (terms === null) return refused([{ path: 'checkout', message: 'This store does not take orders online yet.' }])
  if (!terms.guestCheckout)
    return refused([
      {
        path: 'checkout',
        message:
          'This store takes orders from customer accounts only, and its online store cannot sign customers in yet. Please contact the store to order.',
      },
    ])
  const since = Date.parse(context.at) - HOUR_MS
  const fromClient = book.recent.filter((r) => r.clientKey === command.clientKey && Date.parse(r.at) > since).length
  if (fromClient >= ORDER_LIMITS.perClientPerHour)
    return fail(
      'LIMIT_EXCEEDED',
      `At most ${ORDER_LIMITS.perClientPerHour} orders an hour can be placed from one connection. Please try again later or contact the store.`,
      { limit: ORDER_LIMITS.perClientPerHour, windowSeconds: HOUR_MS / 1000 },
    )

  const issues: FieldIssue[] = []
  const lines = mergeLines(command.lines)
  if (lines.length === 0) issues.push({ path: 'cart', message: 'Your cart is empty. Add a product first.' })
  if (lines.length > ORDER_LIMITS.maxLines)
    issues.push({ path: 'cart', message: `An order has at most ${ORDER_LIMITS.maxLines} different products.` })
  const sold: OrderLine[] = []
  for (const line of lines) {
    const variant = context.variants.get(line.variantId)
    const problem = lineIssue(line, variant)
    if (problem !== null || !variant) {
      issues.push({ path: linePath(line.variantId), message: problem ?? '' })
      continue
    }
    sold.push({
      productId: variant.productId,
      variantId: variant.variantId,
      title: variant.title,
      variantTitle: variant.variantTitle,
      sku: variant.sku,
      quantity: line.quantity,
      unitPriceCents: variant.priceCents,
    })
  }

  const form = command.form
  issues.push(...formIssues(form, requiredFields(terms.requiredFields, terms.phoneConfirmation)))
  const countries = [...new Set(terms.zones.flatMap((z) => z.countries))]
  const given = form.country.trim().toUpperCase()
  const country = given || (countries.length === 1 ? countries[0]! : countries.length === 0 ? terms.storeCountry : '')
  if (country === '') issues.push({ path: 'country', message: 'Choose your country.' })
  else if (countries.length > 0 && !countries.includes(country))
    issues.push({
      path: 'country',
      message: `The store delivers to ${countries.map(countryName).join(', ')} only.`,
    })
  const rates = terms.zones.flatMap((z) => z.rates.map((r) => ({ zone: z.name, countries: z.countries, ...r })))
  const forCountry = rates.filter((r) => r.countries.includes(country))
  const rate =
    form.rate !== ''
      ? (rates.find((r) => rateId(r.zone, r.name) === form.rate) ?? null)
      : forCountry.length === 1
        ? forCountry[0]!
        : null
  if (rates.length > 0) {
    if (rate === null)
      issues.push({
        path: 'rate',
        message:
          form.rate === ''
            ? 'Choose a delivery option.'
            : 'That delivery option is no longer offered. Choose another one.',
      })
    else if (country !== '' && !rate.countries.includes(country))
      issues.push({
        path: 'rate',
        message: `${rate.zone} (${rate.name}) does not deliver to ${countryName(country)}. Choose an option for your country.`,
      })
  }
  if (issues.length > 0) return refused(issues)

  const subtotal = sold.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0)
  const sums = totals(subtotal, rate?.priceCents ?? null, terms)
  if (terms.maxOrderCents !== null && sums.totalCents > terms.maxOrderCents) {
    const fmt = (cents: number) => formatCents(cents, terms.currency, terms.locale)
    return refused([
      {
        path: 'cart',
        message: `Cash-on-delivery orders are limited to ${fmt(terms.maxOrderCents)}, and this order comes to ${fmt(sums.totalCents)}. Remove a product or lower a quantity.`,
      },
    ])
  }
  const text = (value: string) => (value === '' ? null : value)
  return ok([
    {
      type: 'OrderPlaced',
      data: {
        orderId: command.orderId,
        number: book.lastNumber + 1,
        customerId: null,
        status: 'pending',
        paymentMethod: 'cash_on_delivery',
        currency: terms.currency,
        lineItems: sold,
        ...sums,
        shippingAddress: {
          name: form.fullName,
          phone: form.phone,
          address1: form.address1,
          address2: text(form.address2),
          city: form.city,
          region: text(form.region),
          postalCode: text(form.postalCode),
          country,
        },
        email: text(form.email),
        note: text(form.note),
        shippingRate: rate
          ? {
              zone: rate.zone,
              name: rate.name,
              minDeliveryDays: rate.minDeliveryDays,
              maxDeliveryDays: rate.maxDeliveryDays,
            }
          : null,
        confirmationHash: command.confirmationHash,
        clientKey: command.clientKey,
        at: context.at,
      },
    },
  ])
}

function evolve(book: OrderBook, event: OrderEvent): OrderBook {
  const d = event.data
  const lastNumber = Math.max(book.lastNumber, d.number)
  if (event.type !== 'OrderPlaced') return { lastNumber, recent: book.recent }
  // Orders are appended in time order: the ones past the window are at the start.
  const horizon = Date.parse(event.data.at) - ORDER_LIMITS.rememberMs
  let keep = 0
  while (keep < book.recent.length && Date.parse(book.recent[keep]!.at) < horizon) keep++
  const entry: RecentOrder = {
    orderId: d.orderId,
    number: d.number,
    confirmationHash: event.data.confirmationHash,
    clientKey: event.data.clientKey,
    at: event.data.at,
  }
  return { lastNumber, recent: [...book.recent.slice(keep), entry] }
}

export const orderBookDecider: Decider<PlaceOrder, OrderBook, OrderEvent, OrderContext> = {
  stream: orderBookStream,
  initialState: { lastNumber: FIRST_ORDER_NUMBER - 1, recent: [] },
  evolve,
  decide: placeOrder,
}

// The order a checkout token placed, if the book still remembers it.
export const orderOfCheckout = (book: OrderBook, confirmationHash: string): RecentOrder | null =>
  book.recent.find((r) => r.confirmationHash === confirmationHash) ?? null
