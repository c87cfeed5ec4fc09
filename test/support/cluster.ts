import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// A throwaway PostgreSQL cluster (initdb + pg_ctl on a free port) for tests that need a second
// server or must stop or break PostgreSQL: the shared one is never touched. initdb refuses to run
// as root, so it runs as `postgres` then.

// The newest PostgreSQL installed from Debian's packages.
export const PG_BIN = join(
  '/usr/lib/postgresql',
  readdirSync('/usr/lib/postgresql')
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))[0] ?? '15',
  'bin',
)

type Teardown = { teardown: (fn: () => unknown) => void }
export type Cluster = {
  port: number
  dir: string
  url: (database: string) => string
  // Runs one of the cluster's binaries (pg_dump, createdb, ...) as the cluster's owner.
  run: (bin: string, args: string[]) => string
  stop: (mode?: 'fast' | 'immediate') => void
  start: () => void
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

export async function startCluster(t: Teardown): Promise<Cluster> {
  return makeCluster(t, (run, data) =>
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']),
  )
}

// A streaming replica of `primary` (pg_basebackup -R: a standby.signal and primary_conninfo), on
// a free port of its own, in hot standby (it answers reads). initdb's default pg_hba lets local
// replication connections in with trust, as the throwaway primary is made.
export async function startReplica(t: Teardown, primary: Cluster): Promise<Cluster> {
  return makeCluster(t, (run, data) =>
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      data,
      '-R',
      '-X',
      'stream',
      // A spread checkpoint would wait minutes for the primary's checkpoint schedule.
      '--checkpoint=fast',
      '--no-sync',
    ]),
  )
}

async function makeCluster(t: Teardown, create: (run: Cluster['run'], data: string) => unknown): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'sfts-cluster-'))
  const data = join(dir, 'data')
  const asRoot = process.getuid?.() === 0
  const run = (bin: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(PG_BIN, bin)
    const argv = asRoot ? ['-u', 'postgres', '--', join(PG_BIN, bin), ...args] : args
    return execFileSync(command, argv, { stdio: 'pipe', timeout: 60_000 }).toString()
  }
  if (asRoot) {
    chmodSync(dir, 0o755)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    )
  }
  const port = await freePort()
  create(run, data)
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`
  let running = false
  const start = () => {
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start'])
    running = true
  }
  const stop = (mode: 'fast' | 'immediate' = 'fast') => {
    run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop'])
    running = false
  }
  start()
  t.teardown(() => {
    if (running) {
      try {
        stop('immediate')
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true })
  })
  return { port, dir, url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`, run, start, stop }
}
