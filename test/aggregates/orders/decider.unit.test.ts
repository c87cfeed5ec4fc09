import t from 'tap'
import { type CheckoutForm, emptyCheckoutForm } from '../../../src/aggregates/orders/checkout-form.ts'
import {
  type CheckoutTerms,
  linePath,
  type OrderableVariant,
  type OrderContext,
  orderBookDecider,
  type PlaceOrder,
  rateId,
} from '../../../src/aggregates/orders/decider.ts'
import type { OrderEvent } from '../../../src/aggregates/orders/events.ts'
import { deciderSpec } from '../../support/decider-spec.ts'

// A store's order book: a cash-on-delivery order from the storefront's checkout, decided on the
// cart, the form, the store's checkout terms and the catalogue's price and stock.
const at = '2026-11-26T10:00:00.000Z'
const variant = (id: string, priceCents: number, stock: number, extra: Partial<OrderableVariant> = {}) =>
  [
    id,
    {
      variantId: id,
      productId: `prod_${id}`,
      title: `Product ${id}`,
      variantTitle: 'Default',
      sku: `SKU-${id}`,
      priceCents,
      inventoryQuantity: stock,
      active: true,
      ...extra,
    },
  ] as const
const terms: CheckoutTerms = {
  currency: 'EUR',
  locale: 'fr-FR',
  storeCountry: 'FR',
  codFeeCents: 390,
  freeShippingThresholdCents: 8000,
  maxOrderCents: 150000,
  zones: [
    {
      name: 'France',
      countries: ['FR'],
      rates: [
        { name: 'Colissimo', priceCents: 590, minDeliveryDays: 2, maxDeliveryDays: 3 },
        { name: 'Chronopost', priceCents: 990, minDeliveryDays: 1, maxDeliveryDays: 1 },
      ],
    },
    {
      name: 'Benelux',
      countries: ['BE', 'LU'],
      rates: [{ name: 'Standard', priceCents: 990, minDeliveryDays: 3, maxDeliveryDays: 5 }],
    },
  ],
  guestCheckout: true,
  requiredFields: ['fullName', 'phone', 'address1', 'postalCode', 'city', 'country'],
  phoneConfirmation: true,
}
const context: OrderContext = {
  at,
  variants: new Map([
    variant('var_a', 2500, 5),
    variant('var_b', 1200, 1),
    variant('var_gone', 900, 4, { active: false }),
  ]),
  terms,
}
const { given } = deciderSpec(orderBookDecider, context)

const form = (over: Partial<CheckoutForm> = {}): CheckoutForm => ({
  ...emptyCheckoutForm(),
  fullName: 'Claire Martin',
  phone: '+33 6 12 34 56 78',
  address1: '12 rue des Tanneurs',
  city: 'Lille',
  postalCode: '59000',
  country: 'FR',
  rate: rateId('France', 'Colissimo'),
  ...over,
})
const order = (over: Partial<PlaceOrder> = {}): PlaceOrder => ({
  orderId: 'ord_1',
  confirmationHash: 'h1',
  clientKey: 'client-1',
  lines: [
    { variantId: 'var_a', quantity: 2 },
    { variantId: 'var_b', quantity: 1 },
  ],
  form: form(),
  ...over,
})
type Placed = Extract<OrderEvent, { type: 'OrderPlaced' }>
const placed = (n: number, over: Partial<Placed['data']> = {}): Placed => {
  const [event] = given([])
    .when(order({ orderId: `ord_p${n}`, confirmationHash: `hp${n}` }))
    .thenDecides()
  const data = (event as Placed).data
  return { type: 'OrderPlaced', data: { ...data, number: 1000 + n, ...over } }
}
const issuesOf = (refusal: { details?: Record<string, unknown> | undefined }) =>
  ((refusal.details?.issues ?? []) as { path: string; message: string }[]).map((i) => [i.path, i.message])

t.test('a guest cash-on-delivery order: pending, the next number, prices and stock from the catalogue', async (t) => {
  const [event] = given([]).when(order()).thenEmits(['OrderPlaced'])
  t.same(event, {
    type: 'OrderPlaced',
    data: {
      orderId: 'ord_1',
      number: 1001,
      customerId: null,
      status: 'pending',
      paymentMethod: 'cash_on_delivery',
      currency: 'EUR',
      lineItems: [
        {
          productId: 'prod_var_a',
          variantId: 'var_a',
          title: 'Product var_a',
          variantTitle: 'Default',
          sku: 'SKU-var_a',
          quantity: 2,
          unitPriceCents: 2500,
        },
        {
          productId: 'prod_var_b',
          variantId: 'var_b',
          title: 'Product var_b',
          variantTitle: 'Default',
          sku: 'SKU-var_b',
          quantity: 1,
          unitPriceCents: 1200,
        },
      ],
      subtotalCents: 6200,
      shippingCents: 590,
      codFeeCents: 390,
      totalCents: 7180,
      shippingAddress: {
        name: 'Claire Martin',
        phone: '+33 6 12 34 56 78',
        address1: '12 rue des Tanneurs',
        address2: null,
        city: 'Lille',
        region: null,
        postalCode: '59000',
        country: 'FR',
      },
      email: null,
      note: null,
      shippingRate: { zone: 'France', name: 'Colissimo', minDeliveryDays: 2, maxDeliveryDays: 3 },
      confirmationHash: 'h1',
      clientKey: 'client-1',
      at,
    },
  })
})

t.test('the number follows the book, imported history included', async (t) => {
  const { email: _e, note: _n, shippingRate: _r, confirmationHash: _h, clientKey: _c, ...facts } = placed(1).data
  const imported: OrderEvent = {
    type: 'OrderImported',
    data: {
      ...facts,
      number: 1020,
      status: 'delivered',
      customerId: 'cust_1',
      paymentMethod: 'cash_on_delivery',
      createdAt: '2025-01-06T10:15:00.000Z',
    },
  }
  t.match(given([imported]).when(order()).thenDecides(), [{ data: { number: 1021 } }])
  t.match(
    given([imported, placed(21, { number: 1021 })])
      .when(order())
      .thenDecides(),
    [{ data: { number: 1022 } }],
  )
})

t.test('the same checkout submitted twice places one order', async () => {
  const first = given([]).when(order()).thenDecides()
  given(first)
    .when(order({ orderId: 'ord_2' }))
    .thenEmits([])
  given(first)
    .when(order({ orderId: 'ord_2', confirmationHash: 'h2' }))
    .thenEmits(['OrderPlaced'])
})

t.test('delivery is free from the threshold; the COD fee is always added', async (t) => {
  t.match(
    given([])
      .when(order({ lines: [{ variantId: 'var_a', quantity: 4 }] }))
      .thenDecides(),
    [{ data: { subtotalCents: 10000, shippingCents: 0, codFeeCents: 390, totalCents: 10390 } }],
  )
})

t.test('never more than the stock: sold out and "only n left" at the line', async (t) => {
  const refusal = given([])
    .when(
      order({
        lines: [
          { variantId: 'var_b', quantity: 1 },
          { variantId: 'var_b', quantity: 1 },
          { variantId: 'var_a', quantity: 6 },
        ],
      }),
    )
    .thenRefuses('VALIDATION_FAILED')
  t.same(issuesOf(refusal), [
    [linePath('var_b'), 'Only 1 left of Product var_b. Lower the quantity to 1 or less.'],
    [linePath('var_a'), 'Only 5 left of Product var_a. Lower the quantity to 5 or less.'],
  ])
  const soldOut = given([])
    .when(order({ lines: [{ variantId: 'var_a', quantity: 1 }] }), {
      variants: new Map([variant('var_a', 2500, 0)]),
    })
    .thenRefuses('VALIDATION_FAILED')
  t.same(issuesOf(soldOut), [
    [linePath('var_a'), 'Product var_a is sold out. Remove it from your cart to order the rest.'],
  ])
  const gone = given([])
    .when(
      order({
        lines: [
          { variantId: 'var_gone', quantity: 1 },
          { variantId: 'var_unknown', quantity: 1 },
        ],
      }),
    )
    .thenRefuses('VALIDATION_FAILED')
  t.same(
    issuesOf(gone).map(([p]) => p),
    [linePath('var_gone'), linePath('var_unknown')],
  )
  t.match(
    issuesOf(
      given([])
        .when(order({ lines: [] }))
        .thenRefuses('VALIDATION_FAILED'),
    ),
    [['cart', /empty/]],
  )
})

t.test("the store's required fields, each with its message at the field", async (t) => {
  const refusal = given([])
    .when(order({ form: form({ fullName: '', phone: '', postalCode: '', city: '', email: 'not-an-email' }) }))
    .thenRefuses('VALIDATION_FAILED')
  t.same(
    issuesOf(refusal).map(([p]) => p),
    ['fullName', 'phone', 'email', 'city', 'postalCode'],
  )
  t.match(issuesOf(refusal), [
    ['fullName', 'Enter your full name.'],
    ['phone', /confirm/],
    ['email', /name@example\.com/],
    ['city', 'Enter your city.'],
    ['postalCode', 'Enter your postal code.'],
  ])
  // Not required by this configuration: the email, the region; a store that does not call needs no phone.
  given([])
    .when(order({ form: form({ phone: '', postalCode: '' }) }), {
      terms: { ...terms, requiredFields: ['fullName'], phoneConfirmation: false },
    })
    .thenEmits(['OrderPlaced'])
  t.match(
    issuesOf(
      given([])
        .when(order({ form: form({ phone: '12' }) }))
        .thenRefuses('VALIDATION_FAILED'),
    ),
    [['phone', /at least 6 digits/]],
  )
  t.match(
    issuesOf(
      given([])
        .when(order({ form: form({ note: 'x'.repeat(501) }) }))
        .thenRefuses('VALIDATION_FAILED'),
    ),
    [['note', /at most 500/]],
  )
})

t.test('the delivery rate must be of a zone that serves the address', async (t) => {
  t.match(
    issuesOf(
      given([])
        .when(order({ form: form({ rate: '' }) }))
        .thenRefuses('VALIDATION_FAILED'),
    ),
    [['rate', 'Choose a delivery option.']],
  )
  t.match(
    issuesOf(
      given([])
        .when(order({ form: form({ country: 'BE' }) }))
        .thenRefuses('VALIDATION_FAILED'),
    ),
    [['rate', /does not deliver to Belgium/]],
  )
  t.match(
    issuesOf(
      given([])
        .when(order({ form: form({ country: 'DE' }) }))
        .thenRefuses('VALIDATION_FAILED'),
    ),
    [['country', /delivers to France, Belgium, Luxembourg only/]],
  )
  // One rate for the country: chosen without asking.
  t.match(
    given([])
      .when(order({ form: form({ country: 'LU', rate: '' }) }))
      .thenDecides(),
    [{ data: { shippingRate: { zone: 'Benelux', name: 'Standard' }, shippingCents: 990 } }],
  )
  // One country in all: the address is in it without asking.
  const single = { ...terms, zones: [terms.zones[0]!] }
  t.match(
    given([])
      .when(order({ form: form({ country: '' }) }), { terms: single })
      .thenDecides(),
    [{ data: { shippingAddress: { country: 'FR' } } }],
  )
})

t.test('the largest cash-on-delivery total is enforced when the order is placed', async (t) => {
  const refusal = given([])
    .when(order({ lines: [{ variantId: 'var_a', quantity: 5 }] }), { terms: { ...terms, maxOrderCents: 10000 } })
    .thenRefuses('VALIDATION_FAILED')
  t.match(issuesOf(refusal), [['cart', /limited to 100,00\s€, and this order comes to 128,90\s€/]])
})

t.test('a store that requires customer accounts, or has no checkout, takes no guest order', async (t) => {
  t.match(
    issuesOf(
      given([])
        .when(order(), { terms: { ...terms, guestCheckout: false } })
        .thenRefuses('VALIDATION_FAILED'),
    ),
    [['checkout', /customer accounts only/]],
  )
  t.match(issuesOf(given([]).when(order(), { terms: null }).thenRefuses('VALIDATION_FAILED')), [
    ['checkout', /does not take orders online/],
  ])
})

t.test('at most 10 orders an hour from one client address', async (t) => {
  const hour = (minutes: number) => new Date(Date.parse(at) - minutes * 60_000).toISOString()
  const ten = Array.from({ length: 10 }, (_, i) => placed(i + 1, { at: hour(55 - i) }))
  const refusal = given(ten)
    .when(order({ confirmationHash: 'h-new' }))
    .thenRefuses('LIMIT_EXCEEDED')
  t.match(refusal.message, /At most 10 orders an hour/)
  given(ten)
    .when(order({ confirmationHash: 'h-new', clientKey: 'client-2' }))
    .thenEmits(['OrderPlaced'])
  given(ten)
    .when(order({ confirmationHash: 'h-new' }), { at: new Date(Date.parse(at) + 6 * 60_000).toISOString() })
    .thenEmits(['OrderPlaced'])
  // A second submit of an order already placed is answered, limit or not.
  given(ten)
    .when(order({ confirmationHash: 'hp3' }))
    .thenEmits([])
})

t.test('the book remembers a day of orders, not all of them', async (t) => {
  const day = Array.from({ length: 30 }, (_, i) =>
    placed(i + 1, { at: new Date(Date.parse(at) - (30 - i) * 3 * 3600_000).toISOString() }),
  )
  const { state } = given(day)
  t.equal(state.lastNumber, 1030)
  t.same(
    state.recent.map((r) => r.number),
    [1022, 1023, 1024, 1025, 1026, 1027, 1028, 1029, 1030],
  )
})
