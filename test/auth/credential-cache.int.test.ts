import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import { pino } from 'pino'
import t from 'tap'
import { authenticateBearer, type CallContext } from '../../src/auth/authenticate.ts'
import { createApiKey, ensureApp, hashCredential, revokeApiKey } from '../../src/auth/credentials.ts'
import { SCOPES } from '../../src/auth/scopes.ts'
import { loadConfig } from '../../src/config.ts'
import type { Database } from '../../src/db/database.ts'
import { registry } from '../../src/metrics/registry.ts'
import { createServices } from '../../src/services.ts'
import { openChangeFeed, STORE_A } from '../support/app.ts'
import { freshDatabase } from '../support/database.ts'
import { queryObserver, switchableFeed } from '../support/statements.ts'

// The credential cache (src/auth/credential-cache.ts) on a real database and a real change feed:
// a credential seen recently costs no statement; revocation is effective within 1 s (measured);
// expiry is checked against the cached value; unknown credentials are never cached; the cache is
// bypassed while the feed is unhealthy; last_used_at is written in one batched statement per table.

async function setup(t: Parameters<typeof freshDatabase>[0]) {
  const opened = await freshDatabase(t, { seed: 'demo' })
  const statements: string[] = []
  const db = opened.db.withPlugin(
    queryObserver((node) =>
      statements.push(/"(api_keys|oauth_tokens|oauth_grants)"/.exec(JSON.stringify(node))?.[1] ?? 'other'),
    ),
  ) as Kysely<Database>
  const { feed, setUnhealthy } = switchableFeed(await openChangeFeed(opened))
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: 'http://storefront.test',
    SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
  })
  const services = createServices({
    config,
    db,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
    changeFeed: feed,
  })
  t.teardown(() => services.close())
  const appId = await ensureApp(db, { storeId: STORE_A, name: 'Cache test' })
  const newKey = async (expiresAt?: Date) =>
    createApiKey(db, { storeId: STORE_A, appId, name: 'k', scopes: SCOPES, ...(expiresAt ? { expiresAt } : {}) })
  const context = (now = new Date()): CallContext => ({ channel: 'rest', requestId: 'r', now, baseUrl: config.baseUrl })
  const auth = (token: string, now?: Date) => authenticateBearer(db, `Bearer ${token}`, context(now), services)
  // Statements sent while running fn.
  const counted = async <T>(fn: () => Promise<T>): Promise<{ value: T; statements: string[] }> => {
    const from = statements.length
    const value = await fn()
    return { value, statements: statements.slice(from) }
  }
  return { db, services, newKey, auth, counted, setUnhealthy }
}

// Polls until the credential is refused; the elapsed milliseconds.
async function refusedWithin(auth: () => Promise<{ ok: boolean }>, limitMs: number): Promise<number> {
  const start = performance.now()
  while (performance.now() - start < limitMs + 1000) {
    if (!(await auth()).ok) return performance.now() - start
    await new Promise((r) => setTimeout(r, 5))
  }
  return Infinity
}

const metric = async (result: string) =>
  (await registry.getSingleMetric('sfts_credential_cache_requests_total')!.get()).values.find(
    (v) => v.labels.result === result,
  )?.value ?? 0

t.test(
  'API keys: a recently seen key costs no statement; revocation within 1 s; expiry checked on every request',
  async (t) => {
    const s = await setup(t)
    const { key, keyId } = await s.newKey()
    const first = await s.counted(() => s.auth(key))
    t.ok(first.value.ok)
    t.same(first.statements, ['api_keys'], 'the first request looks the key up')
    const hitsBefore = await metric('hit')
    for (let i = 0; i < 5; i++) {
      const again = await s.counted(() => s.auth(key))
      t.ok(again.value.ok && again.value.caller.storeId === STORE_A, 'the same caller')
      t.same(again.statements, [], 'then no statement at all')
    }
    t.equal((await metric('hit')) - hitsBefore, 5, 'counted as hits')

    t.ok(await revokeApiKey(s.db, keyId))
    const ms = await refusedWithin(() => s.auth(key), 1000)
    t.comment(`revoked key refused ${ms.toFixed(1)} ms after the revocation committed`)
    t.ok(ms < 1000, 'within 1 s')
    const refused = await s.auth(key)
    t.equal(!refused.ok && refused.refusal.reason, 'revoked')
    const twice = await s.counted(() => s.auth(key))
    t.same(twice.statements, ['api_keys'], 'a revoked key is never cached: looked up every time')

    // Expiry: checked against the cached value, with no statement.
    const expiring = await s.newKey(new Date(Date.now() + 60_000))
    t.ok((await s.auth(expiring.key)).ok)
    const later = await s.counted(() => s.auth(expiring.key, new Date(Date.now() + 61_000)))
    t.equal(!later.value.ok && later.value.refusal.reason, 'expired', 'refused once past expires_at')
    t.same(later.statements, [], 'from the cached expiry')
    const past = await s.newKey(new Date(Date.now() - 1000))
    const expired = await s.auth(past.key)
    t.equal(!expired.ok && expired.refusal.reason, 'expired', 'an expired key is refused on lookup')

    // Unknown credentials are not cached.
    const unknown = `sk_live_${'x'.repeat(43)}`
    for (let i = 0; i < 2; i++) {
      const r = await s.counted(() => s.auth(unknown))
      t.same(r.statements, ['api_keys'], 'an unknown key is looked up every time')
    }
  },
)

t.test(
  'bypassed while the change feed is unhealthy: every request looks its credential up (fail closed)',
  async (t) => {
    const s = await setup(t)
    const { key, keyId } = await s.newKey()
    t.ok((await s.auth(key)).ok)
    t.same((await s.counted(() => s.auth(key))).statements, [], 'cached')
    s.setUnhealthy(true)
    const bypassBefore = await metric('bypass')
    const bypassed = await s.counted(() => s.auth(key))
    t.ok(bypassed.value.ok)
    t.same(bypassed.statements, ['api_keys'], 'looked up while unhealthy')
    t.equal((await metric('bypass')) - bypassBefore, 1, 'counted as a bypass')
    // A revocation the feed would have missed is seen at once.
    await sql`alter table api_keys disable trigger change_notify`.execute(s.db)
    await revokeApiKey(s.db, keyId)
    const refused = await s.auth(key)
    t.equal(!refused.ok && refused.refusal.reason, 'revoked', 'refused at once while unhealthy')
    await sql`alter table api_keys enable trigger change_notify`.execute(s.db)
    // Nothing looked up while unhealthy was cached.
    const other = await s.newKey()
    t.ok((await s.auth(other.key)).ok)
    s.setUnhealthy(false)
    t.same(
      (await s.counted(() => s.auth(other.key))).statements,
      ['api_keys'],
      'what was looked up while unhealthy was not kept',
    )
  },
)

t.test('OAuth access tokens: cached; a revoked grant stops them within 1 s', async (t) => {
  const s = await setup(t)
  const token = `sfat_${'a'.repeat(43)}`
  const expires = new Date(Date.now() + 3600_000)
  await sql`insert into oauth_grants (grant_id, store_id, merchant_id, client_id, client_name, verified, scopes) values ('gr_1', ${STORE_A}, 'mer_x', 'sfc_x', 'Agent', true, ${SCOPES as unknown as string[]})`.execute(
    s.db,
  )
  await sql`insert into oauth_tokens (token_hash, token_id, kind, grant_id, client_id, store_id, scopes, resource, expires_at)
            values (${hashCredential(token)}, 'tok_1', 'access', 'gr_1', 'sfc_x', ${STORE_A}, ${SCOPES as unknown as string[]}, 'http://storefront.test/api/v1/mcp', ${expires.toISOString()})`.execute(
    s.db,
  )
  const first = await s.counted(() => s.auth(token))
  t.ok(first.value.ok && first.value.caller.actor.kind === 'oauth')
  t.same(first.statements, ['oauth_tokens'], 'one lookup, and no inline last_used_at write')
  t.same((await s.counted(() => s.auth(token))).statements, [], 'then no statement')
  await sql`update oauth_grants set revoked_at = now() where grant_id = 'gr_1'`.execute(s.db)
  const ms = await refusedWithin(() => s.auth(token), 1000)
  t.comment(`token of a revoked grant refused ${ms.toFixed(1)} ms after the revocation committed`)
  t.ok(ms < 1000, 'within 1 s')
})

t.test('last_used_at: noted in memory, written in one statement per table', async (t) => {
  const s = await setup(t)
  const keys = [await s.newKey(), await s.newKey(), await s.newKey()]
  await sql`insert into oauth_grants (grant_id, store_id, merchant_id, client_id, client_name, verified, scopes) values ('gr_2', ${STORE_A}, 'mer_x', 'sfc_y', 'Agent', true, '{}')`.execute(
    s.db,
  )
  const token = `sfat_${'b'.repeat(43)}`
  await sql`insert into oauth_tokens (token_hash, token_id, kind, grant_id, client_id, store_id, scopes, resource, expires_at)
            values (${hashCredential(token)}, 'tok_2', 'access', 'gr_2', 'sfc_y', ${STORE_A}, '{}', 'http://storefront.test/api/v1', ${new Date(Date.now() + 3600_000).toISOString()})`.execute(
    s.db,
  )
  for (let i = 0; i < 10; i++) for (const k of keys) t.ok((await s.auth(k.key)).ok)
  for (let i = 0; i < 10; i++) t.ok((await s.auth(token)).ok)
  const usedBefore = await s.db
    .selectFrom('api_keys')
    .select('last_used_at')
    .where(
      'key_id',
      'in',
      keys.map((k) => k.keyId),
    )
    .execute()
  t.ok(
    usedBefore.every((r) => r.last_used_at === null),
    'nothing written per request',
  )
  const flush = await s.counted(() => s.services.lastUsed.flush())
  t.same(flush.statements.sort(), ['api_keys', 'oauth_grants'], 'one statement per table')
  const used = await s.db
    .selectFrom('api_keys')
    .select('last_used_at')
    .where(
      'key_id',
      'in',
      keys.map((k) => k.keyId),
    )
    .execute()
  t.ok(
    used.every((r) => r.last_used_at !== null && Date.now() - new Date(r.last_used_at).getTime() < 60_000),
    'every key has its last use',
  )
  const grant = await s.db
    .selectFrom('oauth_grants')
    .select('last_used_at')
    .where('grant_id', '=', 'gr_2')
    .executeTakeFirstOrThrow()
  t.ok(grant.last_used_at !== null, 'and the grant')
  t.same((await s.counted(() => s.services.lastUsed.flush())).statements, [], 'nothing new: no statement')
  // At shutdown, what is pending is written.
  t.ok((await s.auth(keys[0]!.key, new Date(Date.now() + 30_000))).ok)
  await s.services.close()
  const last = await s.db
    .selectFrom('api_keys')
    .select('last_used_at')
    .where('key_id', '=', keys[0]!.keyId)
    .executeTakeFirstOrThrow()
  t.ok(new Date(last.last_used_at!).getTime() > Date.now() + 20_000, 'written on close')
})
