import type { Caller } from '../../auth/caller.ts'
import type { Outcome } from '../operation.ts'

// The operations in this folder are the merchant's own (apps, API keys, connected apps): the
// dashboard runs them through `invoke`, and src/operations/catalog.ts does not list them, so no REST
// route, OpenAPI entry or MCP tool exposes them. They refuse any other caller as well: listed there
// by mistake, they still would not let an agent mint keys for its own store.
export function notTheMerchant(caller: Caller, operationId: string): Outcome<never> | null {
  if (caller.actor.kind === 'merchant') return null
  return {
    ok: false,
    error: {
      code: 'INSUFFICIENT_SCOPE',
      message: `${operationId} is for the store's merchant, in the dashboard`,
    },
  }
}
