import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

// The checkout form's token: minted with each checkout page, signed for the store, valid 12 hours.
// It is what makes a second submit of the same form place no second order (the order book
// remembers a day of tokens, longer than one lives), and it is the secret of the order's
// confirmation link, which only its SHA-256 is kept of. Only this service mints them, so a
// shopper cannot pick another's.

export const CHECKOUT_TOKEN_TTL_MS = 12 * 3600_000
const TOKEN = /^([A-Za-z0-9_-]{32})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/

const mac = (secret: string, storeId: string, body: string) =>
  createHmac('sha256', `checkout-token:${secret}`).update(`${storeId}\u0000${body}`).digest().subarray(0, 16)

export function mintCheckoutToken(secret: string, storeId: string, now: Date): string {
  const body = `${randomBytes(24).toString('base64url')}.${Math.floor(now.getTime() / 1000).toString(36)}`
  return `${body}.${mac(secret, storeId, body).toString('base64url')}`
}

export type CheckoutTokenCheck = { ok: true } | { ok: false; reason: 'invalid' | 'expired' }

export function checkCheckoutToken(secret: string, storeId: string, token: string, now: Date): CheckoutTokenCheck {
  const m = TOKEN.exec(token)
  if (!m) return { ok: false, reason: 'invalid' }
  const body = `${m[1]}.${m[2]}`
  const given = Buffer.from(m[3]!, 'base64url')
  if (given.length !== 16 || !timingSafeEqual(given, mac(secret, storeId, body)))
    return { ok: false, reason: 'invalid' }
  const issued = Number.parseInt(m[2]!, 36) * 1000
  if (!(now.getTime() - issued < CHECKOUT_TOKEN_TTL_MS) || issued > now.getTime() + 60_000)
    return { ok: false, reason: 'expired' }
  return { ok: true }
}

// What the order records of the token: its SHA-256 (the confirmation page is looked up by it).
export const confirmationHash = (token: string): string => createHash('sha256').update(token).digest('hex')

// A client address, as the per-address limit keeps it: a keyed hash, never the address.
export const clientKey = (secret: string, address: string): string =>
  createHmac('sha256', `order-client:${secret}`).update(address).digest('base64url').slice(0, 24)

// Whether a path segment has the shape of a checkout token (the confirmation page's address).
export const looksLikeCheckoutToken = (value: string): boolean => TOKEN.test(value)
