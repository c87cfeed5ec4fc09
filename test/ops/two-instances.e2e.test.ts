import t from 'tap'
import { seenWithinFeedBound } from '../support/feed-bound.ts'
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { testDatabaseKind } from '../support/database.ts'
import { eventually } from '../support/eventually.ts'
import { sample, scrape, seededDatabase, startServer } from './support.ts'

// Two real server processes on one PostgreSQL database and one Redis behave as one service.
const skip =
  testDatabaseKind === 'pglite'
    ? 'needs two processes on one PostgreSQL database (PGlite is opened by one process)'
    : false
t.test(
  'two instances: shared rate limit, shared idempotency, renders follow the other instance, one catch-up leader taken over within 5 s',
  { skip },
  async (t) => {
    const { url: databaseUrl, db, key } = await seededDatabase(t)
    // Instances behind one load balancer share one public address (BASE_URL), which the pages name.
    const env = {
      DATABASE_URL: databaseUrl,
      BASE_URL: 'http://shop.test',
      RATE_LIMIT_BACKEND: 'redis',
      REDIS_URL: 'redis://127.0.0.1:6379',
      RATE_LIMIT_MAX: '10',
      RATE_LIMIT_WINDOW_SECONDS: '600',
    }
    const [a, b] = await Promise.all([startServer(t, env), startServer(t, env)])
    const auth = { authorization: `Bearer ${key}` }
    const api = (server: { url: string }, path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { ...auth, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(10_000),
      })

    // Idempotency: the same key on the other instance replays the first answer.
    const idem = `ops-${randomUUID()}`
    const body = JSON.stringify({ name: 'Shared', provider: 'ops-test' })
    const first = await api(a, '/api/v1/themes', { method: 'POST', body, headers: { 'idempotency-key': idem } })
    t.equal(first.status, 201)
    const theme = ((await first.json()) as { data: { id: string; version: number } }).data
    const replay = await api(b, '/api/v1/themes', { method: 'POST', body, headers: { 'idempotency-key': idem } })
    t.equal(replay.status, 201)
    t.equal(replay.headers.get('idempotent-replayed'), 'true', 'instance B replays what A answered')
    t.equal(((await replay.json()) as { data: { id: string } }).data.id, theme.id)

    // Caches: B renders the live store, A publishes a change, B shows it on the next request.
    const marker = `Marker ${randomUUID().slice(0, 8)}`
    t.notMatch(await (await fetch(`${b.url}/s/atlas`)).text(), marker)
    const batch = await api(a, `/api/v1/themes/${theme.id}/batch`, {
      method: 'POST',
      body: JSON.stringify({
        operations: [
          {
            op: 'createSection',
            target: { template: 'home' },
            index: 0,
            section: { type: 'rich-text', settings: { body: `<p>${marker}</p>` } },
          },
        ],
      }),
    })
    t.equal(batch.status, 200)
    t.equal((await api(a, `/api/v1/themes/${theme.id}/publish`, { method: 'POST', body: '{}' })).status, 200)
    const { seen, staleAfterBound } = await seenWithinFeedBound(
      async () => (await (await fetch(`${b.url}/s/atlas`)).text()).includes(marker),
      performance.now(),
    )
    t.ok(seen, 'B renders the theme A published')
    t.equal(staleAfterBound, 0, 'no request started after the change feed’s bound got the old page')

    // Rate limit: 4 requests so far; 6 more fill the limit of 10 across both instances.
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) statuses.push((await api(i % 2 ? a : b, '/api/v1/themes')).status)
    t.same(statuses, [200, 200, 200, 200, 200, 200, 429, 429], 'one counter for both instances')

    // Exactly one leader of the catch-up loop.
    const leaderOf = async (server: { url: string }) => sample(await scrape(server.url), 'sfts_catch_up_leader')
    const leaders = await eventually(
      async () => [await leaderOf(a), await leaderOf(b)],
      (l) => l[0]! + l[1]! === 1,
      10_000,
    )
    t.same(leaders.sort(), [0, 1], 'one instance leads')
    const locks = await sql<{
      n: number
    }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())`.execute(
      db,
    )
    t.equal(locks.rows[0]!.n, 1, 'one advisory lock held')
    const pool = await scrape(a.url)
    t.ok(sample(pool, 'sfts_db_pool_connections', { state: 'max' }) > 0, 'pool use is reported')

    // SIGKILL the leader: the other takes over within 5 s and runs the catch-up.
    const [leader, follower] = (await leaderOf(a)) === 1 ? [a, b] : [b, a]
    await leader.kill('SIGKILL')
    const killedAt = Date.now()
    const took = await eventually(
      async () => ((await leaderOf(follower)) === 1 ? Date.now() - killedAt : null),
      (ms) => ms !== null,
      10_000,
    )
    t.ok(took !== null && took < 5000, `taken over in ${took} ms`)
    const head = Number((await sql<{ p: number }>`select max(global_position) as p from events`.execute(db)).rows[0]!.p)
    const caughtUp = await eventually(
      async () =>
        (
          await sql<{
            p: number
          }>`select global_position as p from projection_checkpoints where name = 'themes'`.execute(db)
        ).rows[0]?.p ?? 0,
      (p) => Number(p) >= head,
      15_000,
    )
    t.ok(Number(caughtUp) >= head, 'the new leader caught the themes projection up to the head of the log')
  },
)
