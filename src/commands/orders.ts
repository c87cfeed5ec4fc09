import type { Kysely } from 'kysely'
import type { CheckoutForm } from '../aggregates/orders/checkout-form.ts'
import { type CartLine, type OrderContext, orderBookDecider, orderOfCheckout } from '../aggregates/orders/decider.ts'
import { ok } from '../aggregates/result.ts'
import type { Database } from '../db/database.ts'
import type { RecordedEvent } from '../events/event-store.ts'
import type { CommandContext, CommandDeps } from './context.ts'
import { change, handleCommand } from './handle-command.ts'

// Placing a cash-on-delivery order from the storefront's checkout. The order book, then the
// catalogue's price and stock, are read; the decision appends OrderPlaced; the same transaction
// takes the stock and moves the store's catalogue version (so every instance drops the pages that
// show it). Orders of one store queue on its order book's lock: an order that loses a race is
// decided again on the stock the winner left, so stock is never oversold, and the loser hears
// "sold out" where that is what happened.

export type PlaceOrderInput = {
  confirmationHash: string
  clientKey: string
  lines: readonly CartLine[]
  form: CheckoutForm
}

// The order the checkout placed, or placed already (a second submit of the same form: created
// false); in a dry run, the order it would place.
export type PlacedOrder = { orderId: string; number: number; created: boolean }

export function placeOrder(
  deps: CommandDeps,
  ctx: CommandContext,
  input: PlaceOrderInput,
  options: { dryRun?: boolean } = {},
) {
  const command = { orderId: deps.newId('ord'), ...input }
  const variantIds = [...new Set(input.lines.map((l) => l.variantId))]
  return handleCommand(deps, ctx, {
    // The book before the stock: an order appended in between moves the book's version, so this
    // append conflicts and the order is decided again holding the book's lock.
    load: async (r) => {
      const book = await r.read(orderBookDecider, ctx.storeId)
      const { variants, terms } = await r.orderInputs(variantIds)
      const context: OrderContext = { at: r.at, terms, variants: new Map(variants.map((v) => [v.variantId, v])) }
      return { book, context }
    },
    decide: ({ book, context }) => {
      const decided = orderBookDecider.decide(command, book.state, context)
      return decided.ok ? ok([change(book, decided.value)]) : decided
    },
    result: ({ book }, after): PlacedOrder => {
      const placed = orderOfCheckout(after(book), input.confirmationHash)!
      return {
        orderId: placed.orderId,
        number: placed.number,
        created: orderOfCheckout(book.state, input.confirmationHash) === null,
      }
    },
    ...(options.dryRun ? { dryRun: true } : {}),
    within: async (trx, events) => {
      const placed = events.filter(isOrderPlaced)
      if (placed.length === 0) return
      for (const order of placed) await takeStock(trx, ctx.storeId, order.data.lineItems)
      await bumpCatalogVersion(trx, ctx.storeId)
    },
  })
}

const isOrderPlaced = (
  e: RecordedEvent,
): e is RecordedEvent<'OrderPlaced', { lineItems: { variantId: string; quantity: number }[] }> =>
  e.type === 'OrderPlaced'

// The decision saw this stock under the order book's lock, and every stock change goes through an
// order book: a line short of stock here means something changed stock outside it, and the whole
// order (events included) is undone rather than sold short.
class StockChanged extends Error {}

async function takeStock(
  trx: Kysely<Database>,
  storeId: string,
  lines: readonly { variantId: string; quantity: number }[],
): Promise<void> {
  for (const line of lines) {
    const result = await trx
      .updateTable('product_variants')
      .set((eb) => ({ inventory_quantity: eb('inventory_quantity', '-', line.quantity) }))
      .where('variant_id', '=', line.variantId)
      .where('store_id', '=', storeId)
      .where('inventory_quantity', '>=', line.quantity)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1)
      throw new StockChanged(`stock of ${line.variantId} changed during an order`)
  }
}

// The storefront's pages and the API's product reads show stock: a new catalogue version makes
// every instance drop the store's cached ones (the change feed's trigger on stores, migration 0011).
async function bumpCatalogVersion(trx: Kysely<Database>, storeId: string): Promise<void> {
  await trx
    .updateTable('stores')
    .set((eb) => ({ catalog_version: eb('catalog_version', '+', 1) }))
    .where('store_id', '=', storeId)
    .execute()
}
