import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import type { CommandDeps } from './commands/context.ts'
import { createPostgresEventStore, lockStreams, type PostgresEventStore } from './events/postgres-event-store.ts'
import { newId } from './ids.ts'
import { instrumentEventStore } from './metrics/instrument.ts'
import { inlineProjector } from './projections/index.ts'
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

// Everything an adapter (REST, MCP, CLI, renderer) needs, built once at start-up.
export type Services = {
  config: Config
  db: Kysely<Database>
  eventStore: PostgresEventStore
  commands: CommandDeps
  read: ReadContext
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
    serialized: (streamIds, fn) =>
      input.db
        .transaction()
        .execute(async (trx) => {
          await lockStreams(trx, streamIds)
          return fn(commandDeps(trx))
        })
        .then(settled),
  })
  // On the pool an append is its own transaction: committed when it returns.
  const poolStore = instrumentEventStore(createPostgresEventStore(input.db, [inlineProjector()])) as PostgresEventStore
  const appendOnPool = poolStore.append.bind(poolStore)
  const eventStore: PostgresEventStore = Object.assign(Object.create(poolStore) as PostgresEventStore, {
    append: ((streams, options) => appendOnPool(streams, options).then(settled)) as PostgresEventStore['append'],
  })
  // Only the pool's deps cache streams: a command holding its locks reads them fresh.
  const commands: CommandDeps = { ...commandDeps(input.db, eventStore), streams: createStreamCache() }
  const read: ReadContext = {
    db: input.db,
    baseUrl: input.config.baseUrl,
    cursorSecret: `cursor:${input.signingSecret}`,
    caches: readCaches(changeFeed),
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
    })())
  let storefront: Promise<Storefront> | undefined
  const services: Services = {
    config: input.config,
    db: input.db,
    eventStore,
    commands,
    read,
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

// The same database and services as `npm start`, for the operator's CLIs (src/cli/open.ts), migrated.
// Loaded on call, so importing this file does not load the database drivers.
export async function openServices(): Promise<{
  services: Services
  kind: 'postgres' | 'pglite'
  close: () => Promise<void>
}> {
  const [{ loadConfig }, { openDatabase }, { migrateToLatest }, { resolveSigningSecret }, { pino }] = await Promise.all(
    [
      import('./config.ts'),
      import('./db/connect.ts'),
      import('./db/migrate.ts'),
      import('./secrets.ts'),
      import('pino'),
    ],
  )
  const config = loadConfig()
  const opened = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  await migrateToLatest(opened.db)
  // As at start-up (src/main.ts): a database the CLI seeds first was built by today's code.
  const { projections } = await import('./projections/index.ts')
  const { recordVersionsIfEmpty } = await import('./projections/lag.ts')
  await recordVersionsIfEmpty(opened.db, projections)
  const logger = pino({ level: 'silent' })
  const services = createServices({ config, db: opened.db, signingSecret: resolveSigningSecret(config), logger })
  return { services, kind: opened.kind, close: opened.close }
}
