import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import type { CommandDeps } from './commands/context.ts'
import type { EventStore } from './events/event-store.ts'
import { createPostgresEventStore } from './events/postgres-event-store.ts'
import { newId } from './ids.ts'
import { inlineProjector } from './projections/index.ts'
import { existingCollectionIds, existingProductIds } from './queries/commerce/index.ts'
import type { ReadContext } from './queries/read-context.ts'

// Everything an adapter (REST, MCP, CLI, renderer) needs, built once at start-up.
export type Services = {
  config: Config
  db: Kysely<Database>
  eventStore: EventStore
  commands: CommandDeps
  read: ReadContext
  signingSecret: string
  baseUrl: string
  clock: () => Date
  logger: Logger
}

export function createServices(input: { config: Config; db: Kysely<Database>; signingSecret: string; logger: Logger; clock?: () => Date }): Services {
  const clock = input.clock ?? (() => new Date())
  const eventStore = createPostgresEventStore(input.db, [inlineProjector()])
  const commands: CommandDeps = {
    db: input.db,
    eventStore,
    newId,
    clock,
    async references(storeId, refs) {
      const [productIds, collectionIds] = await Promise.all([
        existingProductIds(input.db, storeId, [...refs.productIds]),
        existingCollectionIds(input.db, storeId, [...refs.collectionIds]),
      ])
      return { productIds, collectionIds }
    },
  }
  const read: ReadContext = { db: input.db, baseUrl: input.config.baseUrl, cursorSecret: `cursor:${input.signingSecret}` }
  return { config: input.config, db: input.db, eventStore, commands, read, signingSecret: input.signingSecret, baseUrl: input.config.baseUrl, clock, logger: input.logger }
}
