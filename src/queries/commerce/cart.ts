import { type CartLine, lineIssue, mergeLines } from '../../aggregates/orders/decider.ts'
import type { ReadContext } from '../read-context.ts'
import { orderInputs } from './order-inputs.ts'
import { getProductsByIds } from './products.ts'
import type { Image } from './schemas.ts'

// A shopper's cart as its pages show it: each line with the catalogue's price and stock now, and
// why it cannot be ordered as it is (in the same words the order's decision refuses with).

export type CartLineView = {
  variantId: string
  quantity: number
  productId: string | null
  // The product's address as customers see it (its handle).
  productHandle: string | null
  title: string
  variantTitle: string
  image: Image | null
  unitCents: number
  totalCents: number
  // How many are left (0: sold out).
  stock: number
  // Why the line cannot be ordered as it is (sold out, fewer left, no longer sold), in the shopper's words.
  issue: string | null
}

export type CartView = { lines: CartLineView[]; subtotalCents: number; itemCount: number }

export async function cartLines(ctx: ReadContext, storeId: string, cart: readonly CartLine[]): Promise<CartView> {
  const lines = mergeLines(cart)
  const { variants } = await orderInputs(
    ctx.db,
    storeId,
    lines.map((l) => l.variantId),
  )
  const byId = new Map(variants.map((v) => [v.variantId, v]))
  const productIds = [...new Set(variants.map((v) => v.productId))]
  const products = new Map(
    (productIds.length > 0 ? await getProductsByIds(ctx, storeId, productIds) : []).map((p) => [p.id, p]),
  )
  const views = lines.map((line): CartLineView => {
    const v = byId.get(line.variantId)
    const product = v ? products.get(v.productId) : undefined
    return {
      variantId: line.variantId,
      quantity: line.quantity,
      productId: v?.productId ?? null,
      productHandle: product?.handle ?? null,
      title: v?.title ?? 'A product no longer sold',
      variantTitle: v?.variantTitle ?? '',
      image: product?.featuredImage ?? null,
      unitCents: v?.priceCents ?? 0,
      totalCents: (v?.priceCents ?? 0) * line.quantity,
      stock: v?.active ? Math.max(0, v.inventoryQuantity) : 0,
      issue: lineIssue(line, v),
    }
  })
  return {
    lines: views,
    subtotalCents: views.reduce((sum, l) => sum + (l.issue === null ? l.totalCents : 0), 0),
    itemCount: views.reduce((n, l) => n + l.quantity, 0),
  }
}
