import { Kysely, PostgresDialect } from 'kysely'
import type pg from 'pg'
import type { Database } from './database.ts'
import { newPool } from './connect.ts'
import { parseLsn, PRIMARY, ReplicaRouting, type ReplicaState } from './replica-routing.ts'

// The streaming replicas of DATABASE_REPLICA_URLS: a pool and a Kysely per replica for reads, and
// the poll that feeds the routing rule (replica-routing.ts) with WAL positions
// (docs/decisions/0162-read-replicas-by-wal-position.md).
//
// Polls, not a statement per read: every `pollMs` (150 ms) one statement on the primary
// (`pg_current_wal_insert_lsn()`) and one on each replica (`pg_last_wal_replay_lsn()`, on a
// connection of its own), only while reads asked in the last `idleAfterMs` (60 s), as the change
// feed's heartbeats: an idle server polls nothing, and its first read after a quiet spell goes to
// the primary.
//
// A replica that cannot be reached costs no error: a read whose connection attempt fails, or whose
// statement loses its connection or is cancelled by a recovery conflict (SQLSTATE 40001 on a hot
// standby), runs again on the primary, and the replica is skipped until a poll answers again.

// Connections show up in the replica's pg_stat_activity under these names.
export const REPLICA_READ_APPLICATION = 'sfts-replica-read'
export const REPLICA_POLL_APPLICATION = 'sfts-replica-lag'

export type ReplicaReads = {
  readonly routing: ReplicaRouting
  /** Index-aligned with the routing's replicas. */
  readonly dbs: readonly Kysely<Database>[]
  /** Where a read of the store goes now: PRIMARY (-1) or a replica's index. */
  choose(storeId: string | null, feedHealthy: boolean): number
  states(): ReplicaState[]
  close(): Promise<void>
}

// 'postgres://user:secret@db-2:5432/app' → 'db-2:5432': a name for metrics and logs without the secret.
export function replicaName(url: string): string {
  const u = new URL(url)
  return `${u.hostname}:${u.port || '5432'}`
}

export function openReplicas(
  urls: readonly string[],
  primary: pg.Pool,
  options: { pollMs?: number; idleAfterMs?: number; poolSize?: number; onRoute?: (to: number) => void } = {},
): ReplicaReads {
  const pollMs = options.pollMs ?? 150
  const idleAfterMs = options.idleAfterMs ?? 60_000
  const routing = new ReplicaRouting(urls.map(replicaName))
  const readPools = urls.map((url) =>
    newPool({
      connectionString: url,
      max: options.poolSize ?? 10,
      application_name: REPLICA_READ_APPLICATION,
      // A replica that does not answer is given up quickly: the read goes to the primary.
      connectionTimeoutMillis: 1000,
    }),
  )
  const pollPools = urls.map((url) =>
    newPool({
      connectionString: url,
      max: 1,
      application_name: REPLICA_POLL_APPLICATION,
      connectionTimeoutMillis: 1000,
      query_timeout: 1000,
    }),
  )
  const dbs = readPools.map(
    (pool, index) =>
      new Kysely<Database>({
        dialect: new PostgresDialect({ pool: orPrimary(pool, primary, () => routing.replicaFailed(index)) }),
      }),
  )

  let lastDemand = 0
  let primaryInFlight = false
  const replicaInFlight = urls.map(() => false)
  const poll = () => {
    if (Date.now() - lastDemand > idleAfterMs) return
    if (!primaryInFlight) {
      primaryInFlight = true
      const startedAt = routing.primaryPollStarts()
      primary
        .query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn')
        .then((r) => routing.primarySampled(startedAt, parseLsn(r.rows[0]!.lsn)))
        // No sample: the primary's last one ages and reads stay on the primary.
        .catch(() => {})
        .finally(() => (primaryInFlight = false))
    }
    pollPools.forEach((pool, index) => {
      if (replicaInFlight[index]) return
      replicaInFlight[index] = true
      pool
        // Not in recovery (promoted, or a primary listed by mistake): not a replica of this primary.
        .query<{ lsn: string | null }>(
          'select case when pg_is_in_recovery() then pg_last_wal_replay_lsn()::text end as lsn',
        )
        .then((r) => routing.replicaSampled(index, r.rows[0]?.lsn ? parseLsn(r.rows[0].lsn) : null))
        .catch(() => routing.replicaSampled(index, null))
        .finally(() => (replicaInFlight[index] = false))
    })
  }
  const timer = setInterval(poll, pollMs)
  timer.unref()

  return {
    routing,
    dbs,
    choose(storeId, feedHealthy) {
      const now = Date.now()
      // Back from a quiet spell: this read goes to the primary, the polls start again.
      if (now - lastDemand > idleAfterMs) {
        lastDemand = now
        poll()
      } else lastDemand = now
      const to = routing.choose(storeId, feedHealthy)
      options.onRoute?.(to)
      return to
    },
    // Asking for the states is no read: it does not wake the polls (a load balancer's /readyz
    // every few seconds would keep an idle server polling).
    states: () =>
      Date.now() - lastDemand > idleAfterMs
        ? routing.states().map((r) => ({ ...r, up: false, lagSeconds: null, state: 'idle' as const }))
        : routing.states(),
    async close() {
      clearInterval(timer)
      await Promise.all([...dbs.map((db) => db.destroy()), ...pollPools.map((p) => p.end())])
    },
  }
}

// A pool for Kysely that hands out the replica's connections, or the primary's when the replica
// cannot be reached; and whose statements run again on the primary when the replica's connection
// is lost under them (outside a transaction: a statement alone is safe to repeat, and reads are
// all the replicas get).
function orPrimary(replica: pg.Pool, primary: pg.Pool, failed: () => void) {
  return {
    async connect(): Promise<pg.PoolClient> {
      let client: pg.PoolClient
      try {
        client = await replica.connect()
      } catch {
        failed()
        return primary.connect()
      }
      return fallingBack(client, primary, failed)
    },
    end: () => replica.end(),
    options: replica.options,
  }
}

function fallingBack(client: pg.PoolClient, primary: pg.Pool, failed: () => void): pg.PoolClient {
  let inTransaction = false
  let broken = false
  const query = client.query.bind(client) as (text: unknown, values?: unknown) => Promise<pg.QueryResult>
  const wrapped = Object.create(client) as pg.PoolClient
  Object.assign(wrapped, {
    async query(text: unknown, values?: unknown) {
      if (typeof text === 'string') {
        const head = text.slice(0, 10).toLowerCase()
        if (head.startsWith('begin') || head.startsWith('start')) inTransaction = true
        else if (head.startsWith('commit') || head.startsWith('rollback')) inTransaction = false
      }
      try {
        return await query(text, values)
      } catch (error) {
        if (inTransaction || !lostReplica(error)) throw error
        broken = true
        failed()
        return (primary.query as (text: unknown, values?: unknown) => Promise<pg.QueryResult>)(text, values)
      }
    },
    // A connection that failed is destroyed, not handed out again.
    release: (error?: Error | boolean) => client.release(broken || error),
  })
  return wrapped
}

// The connection is gone (shut down, refused, reset), the server is not accepting reads now, or a
// hot standby cancelled the statement for a conflict with recovery.
function lostReplica(error: unknown): boolean {
  const e = error as { code?: string; message?: string }
  if (typeof e?.code === 'string') {
    if (/^(08|57P)/.test(e.code) || e.code === '40001') return true
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(e.code)) return true
  }
  return typeof e?.message === 'string' && /Connection terminated|not queryable|connection timeout/i.test(e.message)
}

export { PRIMARY }
