import t from 'tap'
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { projections } from '../../src/projections/index.ts'
import { rebuildProjection } from '../../src/projections/rebuild.ts'
import { createPostgresEventStore } from '../../src/events/postgres-event-store.ts'
import { testDatabaseKind } from '../support/database.ts'
import { seededDatabase, startServer } from './support.ts'

// A server is SIGKILLed while 8 clients write; after a restart every command it acknowledged
// (2xx) is in the log and in the projections, and the projections equal a rebuild from the log.
const skip =
  testDatabaseKind === 'pglite'
    ? 'needs a server process and the test on one PostgreSQL database (PGlite is opened by one process)'
    : false

t.test(
  'SIGKILL under 8 writers: every acknowledged command survives; projections equal a rebuild',
  { skip },
  async (t) => {
    const { url: databaseUrl, db, key } = await seededDatabase(t)
    const env = { DATABASE_URL: databaseUrl }
    const first = await startServer(t, env)
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const themes: string[] = []
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${first.url}/api/v1/themes`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `Writer ${i}`, provider: 'ops-test' }),
      })
      t.equal(res.status, 201)
      themes.push(((await res.json()) as { data: { id: string } }).data.id)
    }

    type Ack = { requestId: string; themeId: string; version: number }
    const acked: Ack[] = []
    let stop = false
    const writer = async (themeId: string) => {
      while (!stop) {
        const requestId = `sigkill-${randomUUID()}`
        const color = `#${Math.floor(Math.random() * 0xffffff)
          .toString(16)
          .padStart(6, '0')}`
        try {
          const res = await fetch(`${first.url}/api/v1/themes/${themeId}/batch`, {
            method: 'POST',
            headers: { ...headers, 'x-request-id': requestId },
            body: JSON.stringify({ operations: [{ op: 'updateTokens', tokens: { primaryColor: color } }] }),
            signal: AbortSignal.timeout(10_000),
          })
          if (res.status >= 200 && res.status < 300)
            acked.push({
              requestId,
              themeId,
              version: ((await res.json()) as { data: { theme: { version: number } } }).data.theme.version,
            })
          else await res.body?.cancel()
        } catch {
          // The server died under this request: not acknowledged, so it may or may not be there.
          if (stop) return
        }
      }
    }
    const writers = themes.map(writer)
    const started = Date.now()
    while (acked.length < 40 && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 20))
    await first.kill('SIGKILL')
    stop = true
    await Promise.all(writers)
    t.ok(acked.length >= 40, `${acked.length} commands acknowledged before the kill`)

    const second = await startServer(t, env)
    const ids = acked.map((a) => a.requestId)
    const inLog = await sql<{
      n: number
    }>`select count(distinct metadata->>'requestId')::int as n from events where metadata->>'requestId' = any(${ids})`.execute(
      db,
    )
    t.equal(inLog.rows[0]!.n, acked.length, 'every acknowledged command is in the event log')
    const inActivity = await db
      .selectFrom('developer_activity')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('request_id', 'in', ids)
      .executeTakeFirstOrThrow()
    t.equal(Number(inActivity.n), acked.length, 'and in the developer-activity view')
    for (const themeId of themes) {
      const highest = Math.max(0, ...acked.filter((a) => a.themeId === themeId).map((a) => a.version))
      const res = await fetch(`${second.url}/api/v1/themes/${themeId}`, { headers })
      const version = ((await res.json()) as { data: { version: number } }).data.version
      t.ok(version >= highest, `theme ${themeId} at version ${version} after restart (acknowledged up to ${highest})`)
    }
    await second.kill('SIGTERM')

    // Projections as the service left them, then rebuilt from the log: the same rows.
    const snapshot = async () => {
      const tables: Record<string, string[]> = {}
      for (const p of projections) {
        for (const table of p.tables)
          tables[table] = (
            await sql<{ r: string }>`select to_jsonb(x)::text as r from ${sql.table(table)} x order by 1`.execute(db)
          ).rows.map((r) => r.r)
      }
      return tables
    }
    const before = await snapshot()
    const eventStore = createPostgresEventStore(db, [])
    for (const p of projections) await rebuildProjection(db, eventStore, p)
    const after = await snapshot()
    for (const table of Object.keys(before))
      t.same(after[table], before[table], `${table} equals its rebuild (${before[table]!.length} rows)`)
  },
)
