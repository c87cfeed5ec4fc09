import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { ThemeSnapshot } from '../aggregates/theme/state.ts'
import type { EventMetadata } from '../events/event-store.ts'
import type { PostgresEventStore } from '../events/postgres-event-store.ts'
import type { KnownReferences } from '../theme/validate.ts'
import type { ThemeCache } from './theme/theme-cache.ts'

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
  // The theme as a snapshot last saw it (the themes projection), and its stream's current version.
  themeSnapshot: (themeId: string) => Promise<ThemeSnapshot | null>
  // Whether this refusal still gets an activity row (refusal-audit-limit.ts); all do when absent.
  admitRefusalAudit?: (ctx: CommandContext) => boolean
  // Runs fn in one transaction holding these streams' append locks, with deps bound to it.
  serialized: <T>(streamIds: string[], fn: (deps: CommandDeps) => Promise<T>) => Promise<T>
  // Themes this process last wrote or read (theme-cache.ts). Absent: every command reads fresh
  // (deps bound to a transaction holding locks never use it).
  themes?: ThemeCache
}

// Who is asking, and through which door (the event metadata a command's events will carry).
// The store always comes from the credential.
export type CommandContext = Pick<
  EventMetadata,
  'storeId' | 'actor' | 'channel' | 'tool' | 'requestId' | 'idempotencyKey'
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
    correlationId: ctx.requestId ?? commandId,
    causationId: null,
    commandId,
    command: ctx.operation,
  }
}
