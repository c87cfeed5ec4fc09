import { sql } from 'kysely'
import pg from 'pg'
import t from 'tap'
import { CHANNELS, type Change } from '../../src/notifications/change-feed.ts'
import { postgresChangeFeed, type PostgresChangeFeed } from '../../src/notifications/postgres-change-feed.ts'
import { openChangeFeed } from '../support/app.ts'
import { freshDatabase, testDatabaseKind } from '../support/database.ts'
import { eventually } from '../support/eventually.ts'
import { pino } from 'pino'
import { loadConfig } from '../../src/config.ts'
import { projections } from '../../src/projections/index.ts'
import { rebuildProjection } from '../../src/projections/rebuild.ts'
import { createServices } from '../../src/services.ts'

// The change feed (src/notifications): migration 0011's triggers notify, the feed delivers, on
// PostgreSQL (a LISTEN connection of its own) and on PGlite (in process). On PostgreSQL, a killed
// LISTEN connection makes the feed unhealthy until it listens again, and then every subscriber is
// told to flush (notifications may have been missed).

t.test('the triggers notify and the feed delivers; a lost LISTEN connection is unhealthy, then flushes', async (t) => {
  const opened = await freshDatabase(t)
  const db = opened.db
  await sql`insert into merchants (merchant_id, email, name) values ('mer_1', 'm@example.test', 'M')`.execute(db)
  await sql`insert into stores (store_id, merchant_id, name, slug, currency, locale, country, timezone, contact_email, description, branding)
            values ('st_1', 'mer_1', 'One', 'one', 'MAD', 'fr-MA', 'MA', 'Africa/Casablanca', 'c@example.test', '', '{}')`.execute(
    db,
  )
  const feed = await openChangeFeed(opened)
  t.teardown(() => feed.close())
  t.equal(feed.kind, testDatabaseKind)
  t.ok(feed.healthy(), 'healthy once listening')
  const storefront: Change[] = []
  const credentials: Change[] = []
  const themes: Change[] = []
  feed.subscribe(CHANNELS.storefront, (c) => storefront.push(c))
  feed.subscribe(CHANNELS.themes, (c) => themes.push(c))
  feed.subscribe(CHANNELS.credentials, (c) => credentials.push(c))
  const payloads = (list: Change[]) => list.filter((c) => c !== 'flush').map((c) => (c as { payload: string }).payload)

  await db
    .updateTable('stores')
    .set({ catalog_version: sql`catalog_version + 1` })
    .where('store_id', '=', 'st_1')
    .execute()
  await eventually(
    async () => payloads(storefront),
    (p) => p.includes('st_1|stores'),
    5000,
  )
  t.same(payloads(storefront), ['st_1|stores'], 'a catalog_version bump is notified with the store id')

  // A draft theme's edits pay nothing; the active theme's do.
  const theme = (id: string, status: string) => ({
    theme_id: id,
    store_id: 'st_1',
    name: id,
    provider: 'test',
    status,
    version: 1,
    stream_version: 1,
    document: '{}',
    document_bytes: 2,
    created_at: new Date(),
    updated_at: new Date(),
  })
  await db
    .insertInto('themes')
    .values([theme('th_draft', 'draft'), theme('th_live', 'active')] as never)
    .execute()
  await db.updateTable('themes').set({ version: 2 }).where('theme_id', '=', 'th_draft').execute()
  await db.updateTable('themes').set({ version: 2 }).where('theme_id', '=', 'th_live').execute()
  await db
    .insertInto('live_themes')
    .values({ store_id: 'st_1', theme_id: 'th_live', stream_version: 1, changed_at: new Date() })
    .execute()
  await eventually(
    async () => payloads(storefront),
    (p) => p.includes('st_1|live_themes'),
    5000,
  )
  t.same(
    payloads(storefront),
    ['st_1|stores', 'st_1|themes', 'st_1|themes', 'st_1|live_themes'],
    'the active theme (insert, update) and the live theme row; never the draft',
  )
  await eventually(
    async () => payloads(themes),
    (p) => p.length >= 4,
    5000,
  )
  t.same(
    [...payloads(themes)].sort(),
    ['st_1|th_draft', 'st_1|th_draft', 'st_1|th_live', 'st_1|th_live'],
    'every write of a theme row, draft or active, on sfts_themes (the warm getTheme and getContext)',
  )

  // Credentials: the hash, so every instance can evict it.
  await sql`insert into apps (app_id, store_id, name, client_id) values ('app_1', 'st_1', 'App', 'sfc_1')`.execute(db)
  await sql`insert into api_keys (key_id, app_id, store_id, name, key_hash, key_hint, scopes) values ('key_1', 'app_1', 'st_1', 'k', 'hash_1', 'sk_…', '{}')`.execute(
    db,
  )
  await db.updateTable('api_keys').set({ last_used_at: new Date() }).execute()
  await db.updateTable('api_keys').set({ revoked_at: new Date() }).where('key_id', '=', 'key_1').execute()
  await eventually(
    async () => payloads(credentials),
    (p) => p.length > 0,
    5000,
  )
  t.same(payloads(credentials), ['k:hash_1'], 'a revocation is notified (a last-use write is not)')

  if (feed.kind !== 'postgres') return
  const pgFeed = feed as PostgresChangeFeed
  const pid = pgFeed.backendPid()!
  const admin = new pg.Client({ connectionString: opened.url! })
  await admin.connect()
  t.teardown(() => admin.end())
  const flushesBefore = storefront.filter((c) => c === 'flush').length
  await admin.query('select pg_terminate_backend($1)', [pid])
  const lostAt = Date.now()
  await eventually(
    async () => feed.healthy(),
    (h) => !h,
    2000,
  )
  t.notOk(feed.healthy(), `unhealthy ${Date.now() - lostAt} ms after its connection was terminated`)
  await eventually(
    async () => feed.healthy(),
    (h) => h,
    10000,
  )
  t.ok(feed.healthy(), `healthy again after ${Date.now() - lostAt} ms`)
  t.not(pgFeed.backendPid(), pid, 'on a new connection')
  t.equal(storefront.filter((c) => c === 'flush').length, flushesBefore + 1, 'every subscriber was told to flush')
  t.ok(credentials.includes('flush'), 'on every channel')
  await db
    .updateTable('stores')
    .set({ catalog_version: sql`catalog_version + 1` })
    .where('store_id', '=', 'st_1')
    .execute()
  await eventually(
    async () => payloads(storefront).length,
    (n) => n === 5,
    5000,
  )
  t.equal(payloads(storefront).at(-1), 'st_1|stores', 'and notifications are delivered again')
})

t.test(
  'a feed whose heartbeat goes unanswered is unhealthy: the caches are bypassed',
  { skip: testDatabaseKind === 'pglite' ? 'PGlite has no connection to lose' : false },
  async (t) => {
    const opened = await freshDatabase(t)
    const feed = (await openChangeFeed(opened)) as PostgresChangeFeed
    t.teardown(() => feed.close())
    t.ok(feed.healthy())
    // Pause the process's event loop past the healthy window: no heartbeat can be answered meanwhile
    // (as with a stalled connection), so whatever the caches hold is not trusted.
    const until = Date.now() + 900
    while (Date.now() < until) {}
    t.notOk(feed.healthy(), 'no heartbeat answered within 750 ms: not healthy')
    await eventually(
      async () => feed.healthy(),
      (h) => h,
      5000,
    )
    t.ok(feed.healthy(), 'healthy again once a heartbeat is answered')
  },
)

t.test('a projection rebuild swaps in tables with their triggers re-attached, and tells every cache', async (t) => {
  const opened = await freshDatabase(t)
  const db = opened.db
  const config = loadConfig({ NODE_ENV: 'test', SIGNING_SECRET: 'test-signing-secret-0123456789abcdef' })
  const services = createServices({
    config,
    db,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
  })
  const feed = await openChangeFeed(opened)
  t.teardown(() => feed.close())
  const storefront: Change[] = []
  feed.subscribe(CHANNELS.storefront, (c) => storefront.push(c))
  await rebuildProjection(db, services.eventStore, projections.find((p) => p.name === 'themes')!)
  await eventually(
    async () => storefront.length,
    (n) => n > 0,
    5000,
  )
  t.same(storefront, [{ payload: '*' }], 'the swap is announced for every store')
  await db
    .insertInto('themes')
    .values({
      theme_id: 'th_1',
      store_id: 'st_x',
      name: 't',
      provider: 'test',
      status: 'active',
      version: 1,
      stream_version: 1,
      document: '{}',
      document_bytes: 2,
      created_at: new Date(),
      updated_at: new Date(),
    } as never)
    .execute()
  await eventually(
    async () => storefront.length,
    (n) => n > 1,
    5000,
  )
  t.same(storefront.at(-1), { payload: 'st_x|themes' }, 'the rebuilt themes table notifies again')
})

t.test('heartbeats only on demand; settled() waits until a committed change has been delivered', async (t) => {
  if (testDatabaseKind !== 'postgres') return t.pass('PGlite delivers in process as the commit returns')
  const opened = await freshDatabase(t)
  await sql`insert into merchants (merchant_id, email, name) values ('mer_1', 'm@example.test', 'M')`.execute(opened.db)
  await sql`insert into stores (store_id, merchant_id, name, slug, currency, locale, country, timezone, contact_email, description, branding)
            values ('st_1', 'mer_1', 'One', 'one', 'MAD', 'fr-MA', 'MA', 'Africa/Casablanca', 'c@example.test', '', '{}')`.execute(
    opened.db,
  )
  const feed = postgresChangeFeed({ connectionString: opened.url!, idleAfterMs: 400 })
  t.teardown(() => feed.close())
  await feed.ready()
  // When the feed's session last started a statement (its heartbeats are its only statements).
  const lastStatement = async () =>
    String(
      (
        await sql<{
          at: string
        }>`select query_start::text as at from pg_stat_activity where pid = ${feed.backendPid()}`.execute(opened.db)
      ).rows[0]!.at,
    )
  // Quiet: no one asked for more than idleAfterMs, so no heartbeat runs and the feed is not trusted.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  t.notOk(feed.healthy(), 'after a quiet spell the feed is not trusted (the caches read PostgreSQL)')
  await eventually(
    async () => feed.healthy(),
    (ok) => ok,
    5000,
  )
  t.pass('the asking request started the heartbeats again: trusted once one is answered')
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const quietFrom = await lastStatement()
  await new Promise((resolve) => setTimeout(resolve, 1500))
  t.equal(await lastStatement(), quietFrom, 'an idle feed sends no heartbeats')

  const seen: string[] = []
  feed.subscribe(CHANNELS.storefront, (c) => c !== 'flush' && seen.push(c.payload))
  for (let i = 0; i < 20; i++) {
    await opened.db
      .updateTable('stores')
      .set({ catalog_version: sql`catalog_version + 1` })
      .where('store_id', '=', 'st_1')
      .execute()
    await feed.settled()
    if (seen.length !== i + 1) t.fail(`change ${i} not delivered when settled() returned`)
  }
  t.equal(seen.length, 20, 'every committed change was delivered before settled() returned')
})
