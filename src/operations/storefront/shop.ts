import { z } from 'zod'
import { CHECKOUT_FIELD_KEYS, type CheckoutForm, type FieldIssue } from '../../aggregates/orders/checkout-form.ts'
import type { CartLine } from '../../aggregates/orders/decider.ts'
import type { OrderEvent } from '../../aggregates/orders/events.ts'
import { placeOrder } from '../../commands/orders.ts'
import { type CartView, cartLines } from '../../queries/commerce/cart.ts'
import { type ConfirmedOrder, getOrderByConfirmation } from '../../queries/commerce/orders.ts'
import type { Services } from '../../services.ts'
import {
  checkCheckoutToken,
  clientKey,
  confirmationHash,
  looksLikeCheckoutToken,
  mintCheckoutToken,
} from './checkout-token.ts'

export type { CartLine } from '../../aggregates/orders/decider.ts'
export { emptyCheckoutForm } from '../../aggregates/orders/checkout-form.ts'

// A new checkout form's token, for this store.
export const mintShopCheckoutToken = (services: Services, storeId: string): string =>
  mintCheckoutToken(services.signingSecret, storeId, services.clock())

// The storefront's commerce for a shopper: what a cart holds now, placing its order, and the
// order's confirmation. Plain application functions (decision 0064): the shopper is nobody
// `invoke` could check (no credential, no scope), and no catalog operation exposes them, so agents
// cannot place orders over REST or MCP. The storefront adapter resolves the store (a live slug or a
// preview token) and calls these.

// What the cart holds now: each line with its price and stock, and why it cannot be ordered as it is.
export const cartView = (services: Services, storeId: string, cart: readonly CartLine[]): Promise<CartView> =>
  cartLines(services.read, storeId, cart)

// The submitted form, as text: each field a string, first value only, trimmed. Lengths and
// presence are the order book's rules (src/aggregates/orders/checkout-form.ts); this only bounds
// what is read.
const field = z
  .preprocess((v) => (Array.isArray(v) ? v[0] : v), z.string().max(2000).optional())
  .refine((v) => v === undefined || v.isWellFormed(), 'contains characters that cannot be stored')
  .transform((v) => (v ?? '').trim())
const formSchema = z.object(
  Object.fromEntries([...CHECKOUT_FIELD_KEYS, 'rate'].map((k) => [k, field])) as Record<
    keyof CheckoutForm,
    typeof field
  >,
)

export function readCheckoutForm(body: unknown): { form: CheckoutForm; issues: FieldIssue[] } {
  const parsed = formSchema.safeParse(body ?? {})
  if (parsed.success) return { form: parsed.data, issues: [] }
  const form = Object.fromEntries([...CHECKOUT_FIELD_KEYS, 'rate'].map((k) => [k, ''])) as CheckoutForm
  for (const key of Object.keys(form) as (keyof CheckoutForm)[]) {
    const one = field.safeParse((body as Record<string, unknown> | null)?.[key])
    if (one.success) form[key] = one.data
  }
  return {
    form,
    issues: parsed.error.issues.map((i) => ({
      path: String(i.path[0] ?? 'checkout'),
      message: 'This field could not be read. Type it again.',
    })),
  }
}

export type Placement =
  | {
      ok: true
      // The order as placed (or, in a preview, as it would have been); null for a second submit
      // of an order already placed.
      order: Extract<OrderEvent, { type: 'OrderPlaced' }>['data'] | null
      number: number
      created: boolean
    }
  // limited: the client address placed as many orders as an hour allows.
  | { ok: false; issues: FieldIssue[]; limited: boolean }

const TOKEN_PROBLEM = {
  invalid: 'This checkout form is not valid any more. Check your details and place the order again.',
  expired: 'This checkout page was open too long. Check your details and place the order again.',
}

// Places the cart's order: a command on the store's order book (src/commands/orders.ts). In a
// preview the same decision runs and nothing is appended: no order, no stock taken.
export async function placeShopOrder(
  services: Services,
  input: {
    storeId: string
    preview: boolean
    requestId: string
    clientAddress: string
    checkoutToken: string
    lines: readonly CartLine[]
    form: CheckoutForm
  },
): Promise<Placement> {
  const check = checkCheckoutToken(services.signingSecret, input.storeId, input.checkoutToken, services.clock())
  if (!check.ok)
    return { ok: false, issues: [{ path: 'checkout', message: TOKEN_PROBLEM[check.reason] }], limited: false }
  const outcome = await placeOrder(
    services.commands,
    {
      storeId: input.storeId,
      actor: { kind: 'system', credentialId: null, appId: null },
      channel: 'storefront',
      requestId: input.requestId,
      operation: 'placeOrder',
    },
    {
      confirmationHash: confirmationHash(input.checkoutToken),
      clientKey: clientKey(services.signingSecret, input.clientAddress),
      lines: input.lines,
      form: input.form,
    },
    { dryRun: input.preview },
  )
  if (!outcome.ok) {
    const issues = outcome.error.details?.issues
    return {
      ok: false,
      limited: outcome.error.code === 'LIMIT_EXCEEDED',
      issues: Array.isArray(issues)
        ? (issues as FieldIssue[]).map((i) => ({ path: i.path, message: i.message }))
        : [{ path: 'checkout', message: outcome.error.message }],
    }
  }
  const decided = outcome.decided.find((e) => e.type === 'OrderPlaced')
  return {
    ok: true,
    order: decided?.type === 'OrderPlaced' ? decided.data : null,
    number: outcome.value.number,
    created: outcome.value.created && !input.preview,
  }
}

// The order a confirmation link leads to (its token is the checkout token the order was placed
// with); null for anything else, an order number or id included.
export async function orderConfirmation(
  services: Services,
  storeId: string,
  token: string,
): Promise<ConfirmedOrder | null> {
  if (!looksLikeCheckoutToken(token)) return null
  return getOrderByConfirmation(services.read, storeId, confirmationHash(token))
}
