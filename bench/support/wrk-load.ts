// wrk driven from a benchmark with what autocannon gave bench/api.ts: several paths (one wrk
// thread and connection per path, so each connection keeps its own resource), a request body that
// differs per request, every failed answer counted (wrk counts a status of 400 or more), and the
// latency distribution as quantiles. support/http-load.ts drives its single GET paths through it too.
//
// Why not autocannon there: it parses every response in JavaScript on the cores the server shares.
// In a profile of the bench:api server under applyThemeBatch, 18.5 % of the server's wall time
// (about 430 µs per request) went to the one write of each HTTP response, where the server was
// switched out for the load generator (bench/results/2026-11-25-1703-wrk-for-bench-api.md). wrk does
// the same work in C with a fraction of the CPU; the batch's p99 did not move with the switch (same file).
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

// wrk's path when Debian's package (or a local build) is installed and BENCH_LOAD=autocannon does
// not ask for the JavaScript generator instead.
export const installedWrk: string | undefined =
  process.env.BENCH_LOAD === 'autocannon'
    ? undefined
    : ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((path) => existsSync(path))

export type WrkOptions = {
  method: 'GET' | 'POST'
  // One connection per path (each on a wrk thread of its own), or `connections` on the only one.
  paths: string[]
  connections: number
  seconds: number
  headers: Record<string, string>
  // The body, with every `{i}` replaced by the request's number (unique across connections).
  bodyTemplate?: string
}

// Latencies as 1,000 quantiles of the run (each stands for a thousandth of its requests).
// non2xx: answers of status 400 or more (a 3xx passes, as in wrk's own count).
export type WrkRun = {
  requests: number
  non2xx: number
  errors: number
  bytes: number
  seconds: number
  quantilesMs: number[]
  maxMs: number
}

const QUANTILES = 1000

// Lua strings in long brackets: nothing inside is escaped (a body never holds "]==]").
const long = (s: string) => {
  if (s.includes(']==]')) throw new Error('wrk: text holds the closing long bracket')
  return `[==[${s}]==]`
}

function script(options: WrkOptions): string {
  const headers = Object.entries(options.headers)
    .map(([k, v]) => `wrk.headers[ ${long(k)} ] = ${long(v)}`)
    .join('\n')
  return `
local paths = { ${options.paths.map(long).join(', ')} }
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("index", threads)
  thread:set("count", #paths)
end
wrk.method = ${long(options.method)}
${headers}
local body = ${options.bodyTemplate === undefined ? 'nil' : long(options.bodyTemplate)}
local n = 0
function request()
  local path = paths[((index - 1) % #paths) + 1]
  if body == nil then return wrk.format(nil, path) end
  n = n + 1
  local i = tostring(n * count + index)
  return wrk.format(nil, path, nil, (body:gsub("{i}", i)))
end
function done(summary, latency, requests)
  local q = {}
  for k = 1, ${QUANTILES} do q[k] = latency:percentile(k * ${100 / QUANTILES}) end
  io.write(string.format('WRK {"requests":%d,"duration":%d,"bytes":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"max":%d,"quantiles":[%s]}\\n',
    summary.requests, summary.duration, summary.bytes, summary.errors.status, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.timeout, latency.max, table.concat(q, ",")))
end
`
}

export async function wrkLoad(binary: string, base: string, options: WrkOptions): Promise<WrkRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'))
  try {
    const file = join(dir, 'load.lua')
    writeFileSync(file, script(options))
    const perPath = options.paths.length > 1
    const threads = perPath ? options.paths.length : 1
    const connections = perPath ? options.paths.length : options.connections
    const { stdout } = await run(
      binary,
      [`-t${threads}`, `-c${connections}`, `-d${options.seconds}s`, '--timeout', '10s', '-s', file, base],
      { maxBuffer: 16 * 1024 * 1024 },
    )
    const line = stdout.split('\n').find((l) => l.startsWith('WRK '))
    if (!line) throw new Error(`wrk: no summary in its output\n${stdout}`)
    const r = JSON.parse(line.slice(4)) as {
      requests: number
      duration: number
      bytes: number
      status: number
      connect: number
      read: number
      write: number
      timeout: number
      max: number
      quantiles: number[]
    }
    return {
      requests: r.requests,
      non2xx: r.status,
      errors: r.connect + r.read + r.write + r.timeout,
      bytes: r.bytes,
      seconds: r.duration / 1e6,
      quantilesMs: r.quantiles.map((us) => us / 1000),
      maxMs: r.max / 1000,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
