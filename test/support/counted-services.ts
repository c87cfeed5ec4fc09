import type { Kysely } from 'kysely'
import { pino } from 'pino'
import { loadConfig } from '../../src/config.ts'
import type { Database } from '../../src/db/database.ts'
import { createApiKey, ensureApp } from '../../src/auth/credentials.ts'
import { DEFAULT_AGENT_SCOPES } from '../../src/auth/scopes.ts'
import { createServices } from '../../src/services.ts'
import { type FeedTimings, openChangeFeed } from './app.ts'
import { freshDatabase } from './database.ts'
import { statementCounter, switchableFeed } from './statements.ts'

// Seeded services on a fresh database whose every statement is counted, with the real change
// feed behind a switch that makes it report unhealthy, and an API key of the first demo store with
// the default agent scopes: the set-up of the cache tests. `feed` overrides the feed's timings.
export async function countedServices(
  t: { teardown: (fn: () => unknown) => void },
  env: Record<string, string> = {},
  feed: FeedTimings = {},
) {
  const opened = await freshDatabase(t, { seed: 'demo' })
  let statements = 0
  const db = opened.db.withPlugin(statementCounter(() => statements++)) as Kysely<Database>
  const { feed: switchable, setUnhealthy } = switchableFeed(await openChangeFeed(opened, feed))
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: 'http://storefront.test',
    SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
    ...env,
  })
  const services = createServices({
    config,
    db,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
    changeFeed: switchable,
  })
  const appId = await ensureApp(opened.db, { storeId: 'st_demo_atlas', name: 'Demo agent app' })
  const { key } = await createApiKey(opened.db, {
    storeId: 'st_demo_atlas',
    appId,
    name: 'Cache test (default scopes)',
    scopes: DEFAULT_AGENT_SCOPES,
  })
  return { opened, config, services, keyA: key, setUnhealthy, statements: () => statements }
}
