import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely'
import pg from 'pg'
import { PGlite } from '@electric-sql/pglite'
import type { Database } from './database.ts'
import { preparedStatements } from './prepared.ts'

export type DatabaseKind = 'postgres' | 'pglite'
export type OpenedDatabase = {
  db: Kysely<Database>
  kind: DatabaseKind
  close: () => Promise<void>
  pool?: pg.Pool
  pglite?: PGlite
}

// int8 as number, like PGlite: positions and versions stay far below 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (value: string) => Number(value)
    return pg.types.getTypeParser(oid, format)
  },
}

export function openPostgres(connectionString: string, poolSize = 10): OpenedDatabase {
  const pool = newPool({ connectionString, max: poolSize })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return { db, kind: 'postgres', close: () => db.destroy(), pool }
}

// A pool as the service's: int8 as number, named statements (prepared.ts). A connection attempt
// that gets no answer fails after 5 s (a 503 to the client) instead of queueing the request
// forever; keep-alive lets a dead peer be noticed on idle connections. Replica pools
// (src/db/replicas.ts) pass their own name and a shorter timeout.
export function newPool(options: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({
    types: pgTypes as pg.CustomTypesConfig,
    connectionTimeoutMillis: 5000,
    keepAlive: true,
    ...options,
  })
  // A client that loses its server must not crash the process: idle ones report on the pool,
  // checked-out ones between queries (the catch-up leader's lock connection) on themselves; the
  // next query on it fails and is answered as UNAVAILABLE.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    client.on('error', () => {})
    preparedStatements(client)
  })
  return pool
}

// dataDir undefined: in memory (tests), empty or started from a dump of another PGlite's data
// directory (dumpDataDir; the tests' template databases, test/support/template-database.ts).
// Otherwise persisted under dataDir/pglite.
export async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<OpenedDatabase> {
  let pglite: PGlite
  if (dataDir === undefined) {
    pglite = new PGlite(loadDataDir ? { loadDataDir } : {})
  } else {
    const dir = resolve(join(dataDir, 'pglite'))
    mkdirSync(dir, { recursive: true })
    pglite = new PGlite(dir)
  }
  await pglite.waitReady
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) })
  return { db, kind: 'pglite', close: () => db.destroy(), pglite }
}

export async function openDatabase(opts: {
  databaseUrl: string | undefined
  dataDir: string
}): Promise<OpenedDatabase> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir)
}
