import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openPostgres, type OpenedDatabase } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { countPostgresCpu } from './measure.ts'

// Benchmarks always run on real PostgreSQL (never PGlite): a fresh database per run, migrated
// with the service's own migrations, dropped at the end (also on Ctrl-C).
export const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export type BenchDatabase = OpenedDatabase & {
  name: string
  url: string
  // A plain pg pool on the same database for the baselines (int8 parsed as number, like the app).
  plainPool: (max?: number) => pg.Pool
  drop: () => Promise<void>
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

export type BenchDatabaseOptions = {
  poolSize?: number
  // Session settings for every connection of the run, e.g. { synchronous_commit: 'off' } (diagnostics).
  settings?: Record<string, string>
  // Migrations left out (bench/event-log-partitioning.ts runs one of them itself).
  withoutMigrations?: string[]
}

export async function createBenchDatabase(label: string, opts: BenchDatabaseOptions = {}): Promise<BenchDatabase> {
  const name = `sfts_bench_${label}_${process.pid}_${randomBytes(3).toString('hex')}`
  await admin((c) => c.query(`create database ${name}`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const settings = Object.entries(opts.settings ?? {})
  if (settings.length > 0) url.searchParams.set('options', settings.map(([k, v]) => `-c ${k}=${v}`).join(' '))
  const opened = openPostgres(url.toString(), opts.poolSize ?? 10)
  const pools: pg.Pool[] = []
  // One drop per run, shared: a SIGTERM handler of the caller that awaits drop() waits for the
  // forced drop the signal started instead of exiting while it is still in flight.
  let dropping: Promise<unknown> | undefined
  const forceDrop = () => admin((c) => c.query(`drop database if exists ${name} with (force)`))
  // Pools are closed politely but not waited on forever (a client still checked out would hold
  // pool.end()); `with (force)` ends whatever connection is left.
  const drop = async () => {
    dropping ??= (async () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      const closing = Promise.allSettled([...pools.map((p) => p.end()), opened.close()])
      await Promise.race([closing, new Promise((r) => setTimeout(r, 2000).unref())])
      await forceDrop()
    })()
    await dropping
  }
  // Interrupted: the loads still running will fail as their connections go; ignore that, drop the
  // database (which ends those connections) and exit.
  const onSignal = (signal: NodeJS.Signals) => {
    const ignore = () => {}
    process.on('uncaughtException', ignore)
    process.on('unhandledRejection', ignore)
    dropping ??= forceDrop()
    void dropping
      .catch((error) => console.error(`could not drop ${name}: ${error}`))
      .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    await migrateToLatest(opened.db, opts.withoutMigrations)
  } catch (error) {
    await drop()
    throw error
  }
  const plainPool = (max = 10) => {
    const pool = new pg.Pool({
      connectionString: url.toString(),
      max,
      types: {
        getTypeParser: (oid: number, format?: 'text' | 'binary') =>
          oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
      } as pg.CustomTypesConfig,
    })
    pool.on('error', () => {})
    pools.push(pool)
    return pool
  }
  // CPU accounting counts the backends of this database and the shared WAL/checkpoint writers.
  const probe = plainPool(1)
  countPostgresCpu(async () => {
    const { rows } = await probe.query<{ pid: number }>(
      `select pid from pg_stat_activity where (datname = $1 and pid <> pg_backend_pid()) or backend_type in ('walwriter', 'checkpointer', 'background writer')`,
      [name],
    )
    return rows.map((r) => r.pid)
  })
  return { ...opened, name, url: url.toString(), plainPool, drop }
}

// Runs `body` on a fresh database and always drops it afterwards.
export async function withBenchDatabase<T>(
  label: string,
  opts: BenchDatabaseOptions,
  body: (db: BenchDatabase) => Promise<T>,
): Promise<T> {
  const db = await createBenchDatabase(label, opts)
  try {
    return await body(db)
  } finally {
    await db.drop()
  }
}

// Asks PostgreSQL for a checkpoint and fresh statistics, so one phase's dirty pages and stale
// plans do not land on the next phase's clock.
export async function settle(pool: pg.Pool, tables: string[] = []): Promise<void> {
  for (const t of tables) await pool.query(`vacuum analyze ${t}`)
  await pool.query('checkpoint').catch(() => {})
}
