// HTTP load for the throughput benchmarks: wrk when it is installed (Debian's `wrk` package), else
// autocannon. The load generator shares the machine with the server; autocannon parses responses
// in JavaScript (http-parser-js) and saturates its own core before a server that answers from memory
// does (about 29 µs of client CPU per 4.8 KB page against the server's 23), so it would measure
// itself. wrk, in C, needs a fraction of that and leaves the server as the bottleneck.
// BENCH_LOAD=autocannon forces autocannon.
import autocannon from 'autocannon'
import { installedWrk, wrkLoad } from './wrk-load.ts'

export type HttpLoad = { requestsPerSecond: number; total: number; p50Ms: number; p99Ms: number }
export type HttpLoadOptions = { seconds: number; connections: number; headers?: Record<string, string> }

/** Which generator runs: printed in every benchmark header that uses it. */
export const httpLoadGenerator = installedWrk ? 'wrk (1 thread)' : 'autocannon'

/** Drives `url` for `seconds`; any non-2xx answer, socket error or timeout fails the run. */
export async function httpLoad(url: string, options: HttpLoadOptions): Promise<HttpLoad> {
  return installedWrk ? wrk(installedWrk, url, options) : viaAutocannon(url, options)
}

async function viaAutocannon(url: string, { seconds, connections, headers }: HttpLoadOptions): Promise<HttpLoad> {
  const result = await autocannon({ url, connections, duration: seconds, ...(headers ? { headers } : {}) })
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(`autocannon ${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`)
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  }
}

// One GET path on one wrk thread (support/wrk-load.ts); every answer must be 2xx.
async function wrk(
  binary: string,
  url: string,
  { seconds, connections, headers = {} }: HttpLoadOptions,
): Promise<HttpLoad> {
  const { origin, pathname, search } = new URL(url)
  const r = await wrkLoad(binary, origin, {
    method: 'GET',
    paths: [`${pathname}${search}`],
    connections,
    seconds,
    headers,
  })
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`wrk ${url}: ${r.non2xx} non-2xx responses, ${r.errors} socket errors or timeouts`)
  const at = (p: number) => r.quantilesMs[Math.round((p / 100) * r.quantilesMs.length) - 1]!
  return { requestsPerSecond: r.requests / r.seconds, total: r.requests, p50Ms: at(50), p99Ms: at(99) }
}
