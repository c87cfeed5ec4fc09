import { spawn, type ChildProcess } from 'node:child_process'
import type { Kysely } from 'kysely'
import { pino } from 'pino'
import { createApiKey, ensureApp } from '../../src/auth/credentials.ts'
import { loadConfig } from '../../src/config.ts'
import { openPostgres } from '../../src/db/connect.ts'
import type { Database } from '../../src/db/database.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { SCOPES } from '../../src/auth/scopes.ts'
import { seedDemo } from '../../src/seed/seed-demo.ts'
import { createServices } from '../../src/services.ts'
import { freshDatabase } from '../support/database.ts'
import { freePort } from '../support/cluster.ts'
import { SERVICE_ARGV } from '../../src/service-node-flags.ts'

export { freePort, startCluster, type Cluster } from '../support/cluster.ts'

// Prometheus text: the value of one sample, matched by name and a subset of its labels (0 when absent).
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0
  let found = false
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const open = line.indexOf('{')
    const space = line.lastIndexOf(' ')
    const labelText = open === name.length ? line.slice(open + 1, line.lastIndexOf('}')) : ''
    const have = Object.fromEntries([...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]))
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) {
      total += Number(line.slice(space + 1))
      found = true
    }
  }
  return found ? total : 0
}

type Teardown = { teardown: (fn: () => unknown) => void }

export type Server = {
  url: string
  port: number
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
  kill: (signal?: NodeJS.Signals) => Promise<void>
}

// `node src/main.ts` as a real process on its own port, against the given PostgreSQL database.
export async function startServer(
  t: Teardown,
  env: Record<string, string>,
  opts: { port?: number } = {},
): Promise<Server> {
  const port = opts.port ?? (await freePort())
  const childEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOST: '127.0.0.1',
    PORT: String(port),
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
    RATE_LIMIT_MAX: '100000',
    ...env,
  }
  const child = spawn(process.execPath, SERVICE_ARGV, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let gone = false
  void exited.then(() => (gone = true))
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (gone) return
    child.kill(signal)
    await exited
  }
  t.teardown(() => kill())
  const url = `http://127.0.0.1:${port}`
  // A bound for a server that never starts, not a speed limit: with other files' servers and
  // browsers on the machine a start took more than the 60 s this once was.
  const deadline = Date.now() + 240_000
  for (;;) {
    if (gone) throw new Error(`server exited:\n${out}`)
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`)
    const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    await new Promise((r) => setTimeout(r, 100))
  }
  return { url, port, child, output: () => out, exited, kill }
}

export async function scrape(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) })
  if (!res.ok) throw new Error(`/metrics: ${res.status}`)
  return res.text()
}

// A fresh PostgreSQL database (test/support/database.ts), migrated and seeded with the demo
// stores, and an API key with every scope for the first demo store.
export async function seededDatabase(
  t: Teardown,
  url?: string,
): Promise<{ url: string; db: Kysely<Database>; key: string; close: () => Promise<void> }> {
  const opened = url ? { ...openPostgres(url, 4), url } : await freshDatabase(t, { poolSize: 4, seed: 'demo' })
  if (!opened.url) throw new Error('needs PostgreSQL')
  if (url) {
    await migrateToLatest(opened.db)
    const config = loadConfig({ NODE_ENV: 'test', SIGNING_SECRET: 'test-signing-secret-0123456789abcdef' })
    const services = createServices({
      config,
      db: opened.db,
      signingSecret: config.signingSecret!,
      logger: pino({ level: 'silent' }),
    })
    await seedDemo(services)
  }
  const appId = await ensureApp(opened.db, { storeId: STORE_A, name: 'Ops test' })
  const { key } = await createApiKey(opened.db, { storeId: STORE_A, appId, name: 'ops', scopes: SCOPES })
  return { url: opened.url, db: opened.db, key, close: opened.close }
}

export const STORE_A = 'st_demo_atlas'
