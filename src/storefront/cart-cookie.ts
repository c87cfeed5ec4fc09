import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CartLine } from '../operations/storefront/shop.ts'

// The cart lives in a cookie of the shop it belongs to (Path=/s/{slug}, or the preview's own
// path), so it needs no account and survives a reload, and a store's or a preview's cart never
// mixes with another's. SameSite=Lax: a form on another site cannot send it along (the routes
// also refuse cross-site posts by their Origin and Sec-Fetch-Site). It holds variant ids and
// quantities only; prices and stock are read afresh on every page.

export const CART_COOKIE = 'sf_cart'
export const MAX_CART_LINES = 50
export const MAX_LINE_QUANTITY = 99
const MAX_AGE_SECONDS = 30 * 24 * 3600
const VERSION = 'c1'
const ID = /^[A-Za-z0-9_-]{1,64}$/

export function readCart(request: FastifyRequest, storeId: string): CartLine[] {
  const raw = request.cookies[CART_COOKIE]
  if (typeof raw !== 'string') return []
  const [version, store, ...items] = raw.split('|')
  if (version !== VERSION || store !== storeId) return []
  const lines: CartLine[] = []
  for (const item of items.slice(0, MAX_CART_LINES)) {
    const [variantId, q] = item.split(':')
    const quantity = Number(q)
    if (variantId === undefined || !ID.test(variantId) || !Number.isInteger(quantity)) continue
    if (quantity < 1 || quantity > MAX_LINE_QUANTITY || lines.some((l) => l.variantId === variantId)) continue
    lines.push({ variantId, quantity })
  }
  return lines
}

export function writeCart(
  reply: FastifyReply,
  input: { storeId: string; basePath: string; secure: boolean },
  lines: readonly CartLine[],
): void {
  const options = { path: input.basePath, httpOnly: true, sameSite: 'lax' as const, secure: input.secure }
  if (lines.length === 0) {
    reply.clearCookie(CART_COOKIE, options)
    return
  }
  const value = [VERSION, input.storeId, ...lines.slice(0, MAX_CART_LINES).map((l) => `${l.variantId}:${l.quantity}`)]
  reply.setCookie(CART_COOKIE, value.join('|'), { ...options, maxAge: MAX_AGE_SECONDS })
}
