import t from 'tap'
import pg from 'pg'
import { pino } from 'pino'
import { createApiKey, ensureApp } from '../../src/auth/credentials.ts'
import { startSession } from '../../src/auth/merchant-session.ts'
import { SCOPES } from '../../src/auth/scopes.ts'
import { loadConfig } from '../../src/config.ts'
import { openPostgres } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { REPLICA_READ_APPLICATION, replicaName } from '../../src/db/replicas.ts'
import { seedDemoCommerce } from '../../src/seed/seed-commerce.ts'
import { createServices } from '../../src/services.ts'
import { startReplica } from '../support/cluster.ts'
import { testDatabaseKind } from '../support/database.ts'
import { sample, scrape, startCluster, startServer, STORE_A } from './support.ts'

// Reads from a streaming replica (DATABASE_REPLICA_URLS), on a throwaway primary and a replica made
// from it with pg_basebackup -R (the shared server is never touched): reads reach the replica; an
// agent's batch and a merchant's editor save are seen by their next read every time; a replica
// paused in its replay is bypassed for the writer and its lag shows; a stopped replica costs no
// failed read.
// Waits for `check` to hold (it throws while it does not), failing with its last complaint.
async function until(check: () => Promise<void>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}

const skip =
  testDatabaseKind === 'pglite'
    ? 'streaming replication needs PostgreSQL servers (the embedded database has no replicas)'
    : false

t.test('read replicas with read-your-writes', { skip }, async (t) => {
  const primary = await startCluster(t)
  const admin = new pg.Client({ connectionString: primary.url('postgres') })
  await admin.connect()
  await admin.query('create database sfts_replicas')
  await admin.end()

  // Migrated and seeded on the primary (the replica copies it): the demo stores and merchants (no
  // themes, menus or media: the test makes its own drafts), a key and a merchant session.
  const opened = openPostgres(primary.url('sfts_replicas'), 4)
  await migrateToLatest(opened.db)
  const config = loadConfig({ NODE_ENV: 'test', SIGNING_SECRET: 'test-signing-secret-0123456789abcdef' })
  const seeding = createServices({
    config,
    db: opened.db,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
  })
  await seedDemoCommerce(opened.db)
  const appId = await ensureApp(opened.db, { storeId: STORE_A, name: 'Replica test' })
  const { key } = await createApiKey(opened.db, { storeId: STORE_A, appId, name: 'replicas', scopes: SCOPES })
  const { merchant_id: merchantId } = await opened.db
    .selectFrom('stores')
    .select('merchant_id')
    .where('store_id', '=', STORE_A)
    .executeTakeFirstOrThrow()
  const { token: sessionToken } = await startSession(seeding, { merchantId, storeId: STORE_A })
  const { slug } = await opened.db
    .selectFrom('stores')
    .select('slug')
    .where('store_id', '=', STORE_A)
    .executeTakeFirstOrThrow()
  await opened.close()

  const replica = await startReplica(t, primary)
  const onReplica = new pg.Client({ connectionString: replica.url('sfts_replicas') })
  await onReplica.connect()
  t.teardown(() => onReplica.end().catch(() => {}))
  const name = replicaName(replica.url('sfts_replicas'))

  const server = await startServer(t, {
    DATABASE_URL: primary.url('sfts_replicas'),
    DATABASE_REPLICA_URLS: replica.url('sfts_replicas'),
  })
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
  const createDraft = async (themeName: string) => {
    const res = await api('POST', '/api/v1/themes', { name: themeName, provider: 'replica-test' })
    t.equal(res.status, 201)
    return ((await res.json()) as { data: { id: string } }).data.id
  }
  const agentTheme = await createDraft('Agent draft')
  const merchantTheme = await createDraft('Merchant draft')
  const mcpThemeVersion = async (id: string) => {
    const res = await fetch(`${server.url}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_theme', arguments: { id } },
      }),
    })
    const body = (await res.json()) as { result?: { structuredContent?: { version?: number } } }
    return body.result?.structuredContent?.version
  }
  const color = (i: number) => `#${(0x100000 + i).toString(16)}`
  const versionOf = (etag: string | null) => Number(JSON.parse(etag ?? 'null'))
  const replicaReads = async () => sample(await scrape(server.url), 'sfts_db_reads_routed_total', { to: 'replica' })
  const readyz = async () =>
    (await (await fetch(`${server.url}/readyz`)).json()) as {
      replicas?: Record<string, { state: string; lagSeconds: number | null }>
    }

  await t.test('reads reach the replica (its pg_stat_activity shows the service’s read connections)', async (t) => {
    await until(async () => {
      const res = await api('GET', '/api/v1/themes')
      t.equal(res.status, 200)
      const listed = ((await res.json()) as { data: { themes: { id: string }[] } }).data.themes
      if (!listed.some((theme) => theme.id === merchantTheme)) throw new Error('the list misses a draft')
      if ((await replicaReads()) === 0) throw new Error('no read routed to the replica yet')
    })
    const { rows } = await onReplica.query<{ query: string }>(
      'select query from pg_stat_activity where application_name = $1 and datname = current_database()',
      [REPLICA_READ_APPLICATION],
    )
    t.ok(rows.length > 0, `connections named ${REPLICA_READ_APPLICATION} on the replica`)
    t.ok(
      rows.some((r) => /from "themes"/.test(r.query)),
      'one of them last ran a read of the themes (the list above)',
    )
    const ready = await readyz()
    t.equal(ready.replicas?.[name]?.state, 'ok', '/readyz names the replica and its state')
  })

  await t.test("the storefront's page data and the dashboard's lists read the replica too", async (t) => {
    for (const [path, headers] of [
      [`/s/${slug}`, {}],
      ['/dashboard/themes', { cookie: `sf_session=${sessionToken}` }],
    ] as const) {
      const before = await replicaReads()
      const res = await fetch(`${server.url}${path}`, { headers })
      t.equal(res.status, 200, path)
      t.ok((await replicaReads()) > before, `${path}: read routed to the replica`)
    }
  })

  // The agent's and the merchant's 200 rounds run side by side (one store, two themes).
  const agentRounds = async () => {
    let stale = 0
    for (let i = 0; i < 200; i++) {
      const wrote = await api('POST', `/api/v1/themes/${agentTheme}/batch`, {
        operations: [{ op: 'updateTokens', tokens: { primaryColor: color(i) } }],
      })
      if (wrote.status !== 200) t.fail(`batch ${i}: ${wrote.status} ${await wrote.text()}`)
      const written = versionOf(wrote.headers.get('etag'))
      // Every fifth read is the list (a plain read, no cache in front), every fifth the MCP tool.
      const seen =
        i % 5 === 4
          ? (
              (await (await api('GET', '/api/v1/themes')).json()) as {
                data: { themes: { id: string; version: number }[] }
              }
            ).data.themes.find((theme) => theme.id === agentTheme)?.version
          : i % 5 === 2
            ? await mcpThemeVersion(agentTheme)
            : versionOf((await api('GET', `/api/v1/themes/${agentTheme}`)).headers.get('etag'))
      if (seen !== written) stale++
    }
    return stale
  }
  // The editor as the browser drives it: the session cookie, the CSRF token the page hands out.
  const opened2 = await fetch(`${server.url}/dashboard/themes/editor?themeId=${merchantTheme}`, {
    headers: { cookie: `sf_session=${sessionToken}` },
  })
  const page = await opened2.text()
  const csrfSecret = /sf_csrf=([^;]+)/.exec(String(opened2.headers.get('set-cookie')))?.[1]
  const csrfToken = /data-csrf-token="([^"]+)"/.exec(page)?.[1]
  const editor = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/dashboard/themes/editor/api${path}`, {
      method,
      headers: {
        cookie: `sf_session=${sessionToken}; sf_csrf=${csrfSecret}`,
        'x-csrf-token': csrfToken ?? '',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })

  const merchantRounds = async () => {
    let stale = 0
    for (let i = 0; i < 200; i++) {
      const saved = await editor('POST', `/themes/${merchantTheme}/batch`, {
        operations: [{ op: 'updateTokens', tokens: { primaryColor: color(i) } }],
      })
      if (saved.status !== 200) t.fail(`save ${i}: ${saved.status} ${await saved.text()}`)
      const written = versionOf(saved.headers.get('etag'))
      const reloaded = await editor('GET', `/themes/${merchantTheme}`)
      if (versionOf(reloaded.headers.get('etag')) !== written) stale++
    }
    return stale
  }

  await t.test(
    "an agent's batch then get_theme (REST, MCP, the list), a merchant's save then the editor's reload: the new version, 200 times out of 200 each",
    async (t) => {
      t.ok(csrfSecret && csrfToken, 'the editor page hands out its CSRF token')
      const [agentStale, merchantStale] = await Promise.all([agentRounds(), merchantRounds()])
      t.equal(agentStale, 0, "no agent's read showed an older version than the batch before it")
      t.equal(merchantStale, 0, 'no reload showed an older version than the save before it')
    },
  )

  await t.test('a replica paused in its replay is bypassed for the writer, and its lag shows', async (t) => {
    await onReplica.query('select pg_wal_replay_pause()')
    let stale = 0
    for (let i = 0; i < 20; i++) {
      const wrote = await api('POST', `/api/v1/themes/${agentTheme}/batch`, {
        operations: [{ op: 'updateTokens', tokens: { primaryColor: color(1000 + i) } }],
      })
      const read = await api('GET', `/api/v1/themes/${agentTheme}`)
      if (versionOf(read.headers.get('etag')) !== versionOf(wrote.headers.get('etag'))) stale++
    }
    t.equal(stale, 0, 'the writer reads its writes (the paused replica has none of them)')
    // The primary moved past what the replica replayed: its lag grows until it is over 2 s.
    await until(async () => {
      const text = await scrape(server.url)
      if (!(sample(text, 'sfts_db_replica_lag_seconds', { replica: name }) > 2)) throw new Error('lag not over 2 s')
      const ready = await readyz()
      if (ready.replicas?.[name]?.state !== 'behind') throw new Error(JSON.stringify(ready))
    })
    t.pass('/metrics shows the lag over 2 s, /readyz the replica as behind')
    const before = await replicaReads()
    const read = await api('GET', '/api/v1/themes')
    t.equal(read.status, 200, 'reads answer, from the primary')
    t.equal(await replicaReads(), before, 'none went to the replica while it is behind')
    await onReplica.query('select pg_wal_replay_resume()')
    await until(async () => {
      if ((await readyz()).replicas?.[name]?.state !== 'ok') throw new Error('not caught up')
    })
  })

  await t.test('stopping the replica: every read still answers', async (t) => {
    await onReplica.end()
    const failures: string[] = []
    let done = 0
    let stop = false
    const reader = async (n: number) => {
      for (let i = n; !stop; i++) {
        const path = i % 2 === 0 ? '/api/v1/themes' : `/api/v1/themes/${merchantTheme}`
        const res = await api('GET', path).catch((error: Error) => ({ status: 0, statusText: error.message }))
        if (res.status !== 200) failures.push(`${path}: ${res.status} ${res.statusText}`)
        done++
      }
    }
    const readers = [0, 1, 2, 3].map(reader)
    await until(async () => {
      if (done < 40) throw new Error('warming up')
    })
    replica.stop('fast')
    const stoppedAt = done
    await until(async () => {
      if (done < stoppedAt + 100) throw new Error('reading on')
    })
    stop = true
    await Promise.all(readers)
    t.same(failures, [], `${done} reads, none failed`)
    await until(async () => {
      if ((await readyz()).replicas?.[name]?.state !== 'down') throw new Error('not down yet')
    })
    t.pass('/readyz shows the replica down; the service stays ready')
  })
})
