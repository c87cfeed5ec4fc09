import type { CommandContext } from './context.ts'

// How many refused commands of one credential the activity view records per window. Refusals
// past it are still answered and still in the request log (with credential and error code);
// they only stop adding rows, so a client looping on bad input cannot bury a store's activity.
export const REFUSAL_AUDIT_LIMIT = { max: 30, windowMs: 10 * 60 * 1000 }

// A fixed window per credential, in this process's memory (several instances each allow `max`).
export function refusalAuditLimiter(clock: () => Date, limit = REFUSAL_AUDIT_LIMIT): (ctx: CommandContext) => boolean {
  const windows = new Map<string, { start: number; count: number }>()
  return (ctx) => {
    // A shopper's refusal at checkout (sold out, a missing field) is answered on the page, not
    // recorded in the merchant's activity.
    if (ctx.channel === 'storefront') return false
    // Merchants and the system are not throttled: only agents' credentials are.
    if (ctx.actor.kind === 'merchant' || ctx.actor.kind === 'system') return true
    const now = clock().getTime()
    const key = `${ctx.storeId}\u0000${ctx.actor.kind}\u0000${ctx.actor.credentialId ?? ''}`
    let w = windows.get(key)
    if (!w || now - w.start >= limit.windowMs) {
      if (windows.size > 10_000) for (const [k, v] of windows) if (now - v.start >= limit.windowMs) windows.delete(k)
      windows.set(key, (w = { start: now, count: 0 }))
    }
    w.count++
    return w.count <= limit.max
  }
}
