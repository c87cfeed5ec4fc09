import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { EventMetadata, EventStore } from '../events/event-store.ts'
import type { KnownReferences } from '../theme/validate.ts'

// What every command handler needs from the outside world, passed in so handlers stay testable.
export type CommandDeps = {
  db: Kysely<Database>
  eventStore: EventStore
  newId: (prefix: string) => string
  clock: () => Date
  // Which of these product and collection ids exist in the store's catalog.
  references: (storeId: string, refs: { productIds: Set<string>; collectionIds: Set<string> }) => Promise<KnownReferences>
}

// Who is asking, and through which door (the event metadata a command's events will carry).
// The store always comes from the credential.
export type CommandContext = Pick<EventMetadata, 'storeId' | 'actor' | 'channel' | 'tool' | 'requestId' | 'idempotencyKey'> & {
  // The operation as the caller named it (createTheme, applyThemeBatch, ...).
  operation: string
}

export function metadataFor(ctx: CommandContext, commandId: string): EventMetadata {
  return {
    storeId: ctx.storeId,
    actor: ctx.actor,
    channel: ctx.channel,
    ...(ctx.tool ? { tool: ctx.tool } : {}),
    ...(ctx.requestId ? { requestId: ctx.requestId } : {}),
    ...(ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {}),
    correlationId: ctx.requestId ?? commandId,
    causationId: null,
    commandId,
    command: ctx.operation,
  }
}
