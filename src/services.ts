import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import type { CommandDeps } from './commands/context.ts'
import { createPostgresEventStore, lockStreams, type PostgresEventStore } from './events/postgres-event-store.ts'
import { newId } from './ids.ts'
import { instrumentEventStore } from './metrics/instrument.ts'
import { migrateToLatest } from './db/migrate.ts'
import { inlineProjector, projections } from './projections/index.ts'
import { recordVersionsIfEmpty } from './projections/lag.ts'
import { readThemeSnapshot } from './projections/themes-projection.ts'
import { existingCollectionIds, existingProductIds } from './queries/commerce/index.ts'
import { orderInputs } from './queries/commerce/order-inputs.ts'
import type { ReadCaches, ReadContext } from './queries/read-context.ts'
import { ThemeJsonCache } from './queries/themes/theme-json-cache.ts'
import { ContextJsonCache } from './queries/context/context-json-cache.ts'
import { BY_STORE, StoreScopedCache, type CacheResult } from './notifications/store-scoped-cache.ts'
import { readCache } from './metrics/registry.ts'
import { refusalAuditLimiter } from './commands/refusal-audit-limit.ts'
import { createStreamCache } from './commands/stream-cache.ts'
import { themeStream } from './aggregates/theme/events.ts'
import { CredentialCache } from './auth/credential-cache.ts'
import { LastUsedRecorder } from './auth/last-used.ts'
import { CHANNELS, disabledChangeFeed, type ChangeFeed } from './notifications/change-feed.ts'
import type { Storefront } from './render/storefront.ts'
import { PRIMARY, type ReplicaReads } from './db/replicas.ts'
import type { ReplicaState } from './db/replica-routing.ts'
import type { AppendToStream } from './events/event-store.ts'

// Everything an adapter (REST, MCP, CLI, renderer) needs, built once at start-up.
export type Services = {
  config: Config
  db: Kysely<Database>
  eventStore: PostgresEventStore
  commands: CommandDeps
  // Reads on the primary. Reads that may come from a replica ask `readFor` (below).
  read: ReadContext
  /**
   * Where a read of the store goes now: a replica's read context, or `read` (the primary) while
   * the store has a write no replica has replayed, no replica qualifies, or there are none
   * (src/db/replica-routing.ts). Chosen per request, from what the polls know: no statement.
   */
  readFor: (storeId: string) => ReadContext
  /** The same services with `read` = readFor(storeId): what a read-only operation runs with. */
  forReads: (storeId: string) => Services
  /** The replicas' state, for /readyz and /metrics (empty without replicas). */
  replicaStates: () => ReplicaState[]
  signingSecret: string
  baseUrl: string
  clock: () => Date
  logger: Logger
  // PostgreSQL notifications for the in-memory caches (src/notifications); disabled (every cache
  // bypassed) unless the caller opens one.
  changeFeed: ChangeFeed
  // Verified bearer credentials (src/auth/credential-cache.ts) and their batched last-used writes.
  credentials: CredentialCache
  lastUsed: LastUsedRecorder
  // The storefront's pages with the default cache settings, made on first use (the renderer is
  // loaded then, not by every CLI): the storefront routes and the dashboard's merchant previews
  // share its page cache and live probes.
  storefront: () => Promise<Storefront>
  // Writes what is pending and closes the feed (after the HTTP server has drained).
  close: () => Promise<void>
}

export function createServices(input: {
  config: Config
  db: Kysely<Database>
  signingSecret: string
  logger: Logger
  clock?: () => Date
  changeFeed?: ChangeFeed
  // Streaming replicas for reads (DATABASE_REPLICA_URLS); none: every read on the primary.
  replicas?: ReplicaReads
}): Services {
  const clock = input.clock ?? (() => new Date())
  const changeFeed = input.changeFeed ?? disabledChangeFeed()
  // A command answers only once this instance's caches have heard its own notifications: the
  // caller's next read here is never older than its write (the feed's settled(): one heartbeat
  // round trip on the feed's connection, shared by the commands that finish meanwhile).
  const settled = async <T>(result: T): Promise<T> => {
    await changeFeed.settled()
    return result
  }
  // Read-your-writes across replicas: a store this instance wrote to (once committed), or heard of
  // through the feed, reads the primary until a replica has replayed past the write.
  const replicas = input.replicas
  const wrote = (streams: readonly Pick<AppendToStream, 'storeId'>[]) => {
    if (replicas) for (const stream of streams) replicas.routing.mark(stream.storeId)
  }
  // One budget of refusal audits per credential, shared by every transaction's deps.
  const admitRefusalAudit = refusalAuditLimiter(clock)
  // Command dependencies on the pool, or bound to one transaction (a command holding its locks).
  const commandDeps = (
    db: Kysely<Database>,
    eventStore = instrumentEventStore(createPostgresEventStore(db, [inlineProjector()])),
  ): CommandDeps => ({
    db,
    eventStore,
    newId,
    clock,
    async references(storeId, refs) {
      const [productIds, collectionIds] = await Promise.all([
        existingProductIds(db, storeId, [...refs.productIds]),
        existingCollectionIds(db, storeId, [...refs.collectionIds]),
      ])
      return { productIds, collectionIds }
    },
    orderInputs: (storeId, variantIds) => orderInputs(db, storeId, variantIds),
    snapshots: { [themeStream.type]: (themeId) => readThemeSnapshot(db, themeId) },
    admitRefusalAudit,
    serialized: (streamIds, fn) => {
      if (!replicas)
        return input.db
          .transaction()
          .execute(async (trx) => {
            await lockStreams(trx, streamIds)
            return fn(commandDeps(trx))
          })
          .then(settled)
      const appended: AppendToStream[] = []
      return input.db
        .transaction()
        .execute(async (trx) => {
          await lockStreams(trx, streamIds)
          const deps = commandDeps(trx)
          const append = deps.eventStore.append.bind(deps.eventStore)
          const eventStore = Object.assign(Object.create(deps.eventStore) as PostgresEventStore, {
            append: ((streams, options) => {
              appended.push(...streams)
              return append(streams, options)
            }) as PostgresEventStore['append'],
          })
          return fn({ ...deps, eventStore })
        })
        .then((result) => {
          // Committed: only now is the primary's position past the write.
          wrote(appended)
          return settled(result)
        })
    },
  })
  // On the pool an append is its own transaction: committed when it returns.
  const poolStore = instrumentEventStore(createPostgresEventStore(input.db, [inlineProjector()])) as PostgresEventStore
  const appendOnPool = poolStore.append.bind(poolStore)
  const eventStore: PostgresEventStore = Object.assign(Object.create(poolStore) as PostgresEventStore, {
    append: ((streams, options) =>
      appendOnPool(streams, options).then((result) => {
        wrote(streams)
        return settled(result)
      })) as PostgresEventStore['append'],
  })
  // Only the pool's deps cache streams: a command holding its locks reads them fresh.
  const commands: CommandDeps = { ...commandDeps(input.db, eventStore), streams: createStreamCache() }
  const read: ReadContext = {
    db: input.db,
    baseUrl: input.config.baseUrl,
    cursorSecret: `cursor:${input.signingSecret}`,
    caches: readCaches(changeFeed),
  }
  // A replica's read context: the same caches; the primary's for what a read must write (a
  // catalogue read model found behind is refreshed there, catalog-read-models.ts).
  const replicaReads: ReadContext[] = (replicas?.dbs ?? []).map((db) => ({ ...read, db, primary: read }))
  if (replicas) {
    for (const channel of [CHANNELS.themes, CHANNELS.storefront])
      changeFeed.subscribe(channel, (change) => {
        const storeId = change === 'flush' ? '*' : change.payload.split('|')[0]!
        if (storeId === '*') replicas.routing.markAll()
        else replicas.routing.mark(storeId)
      })
  }
  const readFor = (storeId: string): ReadContext => {
    if (!replicas) return read
    const to = replicas.choose(storeId, changeFeed.healthy())
    return to === PRIMARY ? read : replicaReads[to]!
  }
  const credentials = new CredentialCache({ feed: changeFeed })
  const lastUsed = new LastUsedRecorder(input.db, {
    onError: (error) => input.logger.warn({ err: error }, 'last_used_at batch failed'),
  })
  let closing: Promise<void> | null = null
  const close = () =>
    (closing ??= (async () => {
      await lastUsed.close()
      credentials.close()
      for (const cache of [
        read.caches?.productPages,
        read.caches?.catalogParts,
        read.caches?.warmThemes,
        read.caches?.warmContexts,
        read.caches?.catalogReads,
      ])
        cache?.close()
      await changeFeed.close()
      await replicas?.close()
    })())
  let storefront: Promise<Storefront> | undefined
  // One Services per replica, made on first use, so a read costs no object of its own.
  const onReplica = new Map<ReadContext, Services>()
  const services: Services = {
    config: input.config,
    db: input.db,
    eventStore,
    commands,
    read,
    readFor,
    forReads(storeId) {
      const at = readFor(storeId)
      if (at === read) return services
      let on = onReplica.get(at)
      if (!on) onReplica.set(at, (on = { ...services, read: at }))
      return on
    },
    replicaStates: () => replicas?.states() ?? [],
    signingSecret: input.signingSecret,
    baseUrl: input.config.baseUrl,
    clock,
    logger: input.logger,
    changeFeed,
    credentials,
    lastUsed,
    close,
    storefront: () =>
      (storefront ??= import('./render/storefront.ts').then(({ createStorefront }) => createStorefront(services))),
  }
  return services
}

// The API's read caches (src/queries/read-context.ts): the catalogue's, emptied by the change feed
// (bypassed while it is unhealthy), and getTheme's data, checked against the row every time.
function readCaches(feed: ChangeFeed): ReadCaches {
  const count = (cache: string) => (result: CacheResult) => readCache.inc({ cache, result })
  return {
    productPages: new StoreScopedCache({
      feed,
      maxEntries: 2_000,
      maxBytes: 64 * 1024 * 1024,
      sizeOf: (page) => page.items.reduce((n, item) => n + item.length, 256),
      count: count('product_pages'),
    }),
    catalogParts: new StoreScopedCache({ feed, maxEntries: 10_000, count: count('catalog_parts') }),
    contextJson: new ContextJsonCache(),
    themeJson: new ThemeJsonCache(),
    warmThemes: new StoreScopedCache({
      feed,
      invalidatedBy: [
        { channel: CHANNELS.themes, scopeOf: (payload) => payload.split('|')[1] ?? '*' },
        { channel: CHANNELS.storefront, scopeOf: (payload) => (payload === '*' ? '*' : null) },
      ],
      maxEntries: 10_000,
      maxBytes: 32 * 1024 * 1024,
      sizeOf: (held) => held.json.length,
      count: count('warm_themes'),
    }),
    warmContexts: new StoreScopedCache({
      feed,
      invalidatedBy: [BY_STORE, { channel: CHANNELS.themes, scopeOf: (payload) => payload.split('|')[0]! }],
      maxEntries: 2_000,
      maxBytes: 32 * 1024 * 1024,
      sizeOf: (held) => held.json.length,
      count: count('warm_contexts'),
    }),
    catalogReads: new StoreScopedCache({
      feed,
      maxEntries: 10_000,
      maxBytes: 32 * 1024 * 1024,
      sizeOf: (held) => JSON.stringify(held.value).length,
      count: count('catalog_reads'),
    }),
  }
}

/**
 * What every process does first to the database it opens (`npm start`, the operator's CLIs, the
 * tests' templates): migrate it, then, on a log with no events, record that today's code builds
 * the projections, so a database that is seeded next is not reported as needing a rebuild.
 */
export async function prepareDatabase(db: Kysely<Database>): Promise<void> {
  await migrateToLatest(db)
  await recordVersionsIfEmpty(db, projections)
}

// The same database and services as `npm start`, for the operator's CLIs (src/cli/open.ts), migrated.
// Loaded on call, so importing this file does not load the database drivers.
export async function openServices(): Promise<{
  services: Services
  kind: 'postgres' | 'pglite'
  close: () => Promise<void>
}> {
  const [{ loadConfig }, { openDatabase }, { resolveSigningSecret }, { pino }] = await Promise.all([
    import('./config.ts'),
    import('./db/connect.ts'),
    import('./secrets.ts'),
    import('pino'),
  ])
  const config = loadConfig()
  const opened = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  await prepareDatabase(opened.db)
  const logger = pino({ level: 'silent' })
  const services = createServices({ config, db: opened.db, signingSecret: resolveSigningSecret(config), logger })
  return { services, kind: opened.kind, close: opened.close }
}
