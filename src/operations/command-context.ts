import type { CommandContext } from '../commands/context.ts'
import type { Caller } from '../auth/caller.ts'

// The audit trail records which operation ran and, for MCP, which tool.
export const commandContext = (caller: Caller, operation: string): CommandContext => ({
  storeId: caller.storeId,
  actor: caller.actor,
  channel: caller.channel,
  tool: caller.tool,
  requestId: caller.requestId,
  idempotencyKey: caller.idempotencyKey,
  operation,
})
