import type { Kysely } from 'kysely'
import type { OrderInputs } from '../aggregates/orders/decider.ts'
import type { Database } from '../db/database.ts'
import type { EventMetadata } from '../events/event-store.ts'
import type { PostgresEventStore } from '../events/postgres-event-store.ts'
import type { KnownReferences } from '../theme/validate.ts'
import type { StreamCache } from './stream-cache.ts'

// A stream's state as a projection last saw it, and the stream's current version: the handler
// replays only the events past snapshotVersion.
export type Snapshot = { state: unknown; snapshotVersion: number; streamVersion: number }

// What every command handler needs from the outside world, passed in so handlers stay testable.
export type CommandDeps = {
  db: Kysely<Database>
  eventStore: PostgresEventStore
  newId: (prefix: string) => string
  clock: () => Date
  // Which of these product and collection ids exist in the store's catalog.
  references: (
    storeId: string,
    refs: { productIds: Set<string>; collectionIds: Set<string> },
  ) => Promise<KnownReferences>
  // The ordered variants (price, stock) and the store's checkout terms, read on this deps'
  // connection (src/queries/commerce/order-inputs.ts).
  orderInputs: (storeId: string, variantIds: readonly string[]) => Promise<OrderInputs>
  // Snapshots by stream type, for aggregates a projection keeps whole (the themes projection),
  // read by the aggregate's id.
  snapshots: Partial<Record<string, (id: string) => Promise<Snapshot | null>>>
  // Whether this refusal still gets an activity row (refusal-audit-limit.ts); all do when absent.
  admitRefusalAudit?: (ctx: CommandContext) => boolean
  // Runs fn in one transaction holding these streams' append locks, with deps bound to it.
  serialized: <T>(streamIds: string[], fn: (deps: CommandDeps) => Promise<T>) => Promise<T>
  // Streams this process last wrote or read (stream-cache.ts). Absent: every command reads fresh
  // (deps bound to a transaction holding locks never use it).
  streams?: StreamCache
}

// Who is asking, and through which door (the event metadata a command's events will carry).
// The store always comes from the credential.
export type CommandContext = Pick<
  EventMetadata,
  'storeId' | 'actor' | 'channel' | 'tool' | 'requestId' | 'idempotencyKey' | 'intent'
> & {
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
    ...(ctx.intent ? { intent: ctx.intent } : {}),
    correlationId: ctx.requestId ?? commandId,
    causationId: null,
    commandId,
    command: ctx.operation,
  }
}
