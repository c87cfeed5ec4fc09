// HTTP load for the throughput benchmarks: wrk when it is installed (Debian's `wrk` package), else
// autocannon. The load generator shares the machine with the server; autocannon parses responses
// in JavaScript (http-parser-js) and saturates its own core before a server that answers from memory
// does (about 29 µs of client CPU per 4.8 KB page against the server's 23), so it would measure
// itself. wrk, in C, needs a fraction of that and leaves the server as the bottleneck.
// BENCH_LOAD=autocannon forces autocannon.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'
import autocannon from 'autocannon'

export type HttpLoad = { requestsPerSecond: number; total: number; p50Ms: number; p99Ms: number }
export type HttpLoadOptions = { seconds: number; connections: number; headers?: Record<string, string> }

const WRK = process.env.BENCH_LOAD === 'autocannon' ? undefined : ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((path) => existsSync(path))

/** Which generator runs: printed in every benchmark header that uses it. */
export const httpLoadGenerator = WRK ? 'wrk (1 thread)' : 'autocannon'

/** Drives `url` for `seconds`; any non-2xx answer, socket error or timeout fails the run. */
export async function httpLoad(url: string, options: HttpLoadOptions): Promise<HttpLoad> {
  return WRK ? wrk(WRK, url, options) : viaAutocannon(url, options)
}

async function viaAutocannon(url: string, { seconds, connections, headers }: HttpLoadOptions): Promise<HttpLoad> {
  const result = await autocannon({ url, connections, duration: seconds, ...(headers ? { headers } : {}) })
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) throw new Error(`autocannon ${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`)
  return { requestsPerSecond: result.requests.average, total: result.requests.total, p50Ms: result.latency.p50, p99Ms: result.latency.p99 }
}

const run = promisify(execFile)

async function wrk(binary: string, url: string, { seconds, connections, headers = {} }: HttpLoadOptions): Promise<HttpLoad> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]), url]
  const { stdout } = await run(binary, args)
  const failed = /Non-2xx or 3xx responses: (\d+)/.exec(stdout)
  const socket = /Socket errors: (.*)/.exec(stdout)
  if (failed || socket) throw new Error(`wrk ${url}: ${failed ? `${failed[1]} non-2xx or 3xx responses` : ''} ${socket ? `socket errors: ${socket[1]}` : ''}`.trim())
  const total = /(\d+) requests in/.exec(stdout)
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout)
  if (!total || !rps) throw new Error(`wrk ${url}: unreadable output\n${stdout}`)
  return { requestsPerSecond: Number(rps[1]), total: Number(total[1]), p50Ms: latency(stdout, '50%'), p99Ms: latency(stdout, '99%') }
}

// "    99%    1.20ms" in wrk's latency distribution, in milliseconds.
function latency(stdout: string, percentile: string): number {
  const match = new RegExp(`^\\s+${percentile}\\s+([\\d.]+)(us|ms|s)$`, 'm').exec(stdout)
  if (!match) return NaN
  const value = Number(match[1])
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value
}
