import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

// The service's Prometheus series, one registry per process. Hot paths only increment a counter
// or observe a histogram (a label lookup and an addition); everything that needs a query (lag,
// pool use) is read when /metrics is scraped.

export const registry = new Registry()
collectDefaultMetrics({ register: registry, prefix: 'sfts_' })

export const httpDuration = new Histogram({
  name: 'sfts_http_request_duration_seconds',
  help: 'HTTP request latency by operation (operationId, or the route pattern) and status',
  labelNames: ['operation', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
})

export const mcpToolCalls = new Counter({
  name: 'sfts_mcp_tool_calls_total',
  help: 'MCP tools/call by tool and outcome (ok, or the error code)',
  labelNames: ['tool', 'outcome'] as const,
  registers: [registry],
})

export const commands = new Counter({
  name: 'sfts_commands_total',
  help: 'Commands by type (operation) and outcome (applied, or the refusal code)',
  labelNames: ['command', 'outcome'] as const,
  registers: [registry],
})

export const eventsAppended = new Counter({
  name: 'sfts_events_appended_total',
  help: 'Events appended (committed) by event type',
  labelNames: ['type'] as const,
  registers: [registry],
})

export const catchUpEvents = new Counter({
  name: 'sfts_catch_up_events_total',
  help: 'Events applied by the catch-up runner and rebuilds, by projection (rate() is the throughput)',
  labelNames: ['projection', 'mode'] as const,
  registers: [registry],
})

export const catchUpSeconds = new Counter({
  name: 'sfts_catch_up_seconds_total',
  help: 'Time spent applying catch-up and rebuild batches, by projection',
  labelNames: ['projection', 'mode'] as const,
  registers: [registry],
})

export const catchUpLeader = new Gauge({
  name: 'sfts_catch_up_leader',
  help: '1 on the instance that holds the catch-up leadership (PostgreSQL advisory lock), else 0',
  registers: [registry],
})

export const projectionLagEvents = new Gauge({
  name: 'sfts_projection_lag_events',
  help: 'Events past the projection checkpoint (head position minus checkpoint position)',
  labelNames: ['projection'] as const,
  registers: [registry],
})

export const projectionLagSeconds = new Gauge({
  name: 'sfts_projection_lag_seconds',
  help: 'Age of the oldest event past the projection checkpoint (0 when caught up)',
  labelNames: ['projection'] as const,
  registers: [registry],
})

export const rateLimitRefusals = new Counter({
  name: 'sfts_rate_limit_refusals_total',
  help: 'Requests refused with 429, by limit (api, login)',
  labelNames: ['limit'] as const,
  registers: [registry],
})

export const rateLimitBackendErrors = new Counter({
  name: 'sfts_rate_limit_backend_errors_total',
  help: 'Rate-limit checks that Redis could not answer (counted by this instance alone instead)',
  registers: [registry],
})

export const renderCache = new Counter({
  name: 'sfts_render_cache_requests_total',
  help: 'Storefront render cache lookups by result (hit, miss)',
  labelNames: ['result'] as const,
  registers: [registry],
})

export const mediaDerivatives = new Counter({
  name: 'sfts_media_derivatives_total',
  help: 'Responsive image copies served, by where they came from (made: encoded now; stored: read from the database; memory)',
  labelNames: ['source'] as const,
  registers: [registry],
})

export const renderCacheHitRatio = new Gauge({
  name: 'sfts_render_cache_hit_ratio',
  help: 'Storefront render cache hits / lookups since start',
  registers: [registry],
  async collect() {
    const values = (await renderCache.get()).values
    const hits = values.filter((v) => v.labels.result === 'hit').reduce((n, v) => n + v.value, 0)
    const all = values.reduce((n, v) => n + v.value, 0)
    this.set(all === 0 ? 0 : hits / all)
  },
})

export type PoolStats = { totalCount: number; idleCount: number; waitingCount: number }
let pool: { stats: () => PoolStats; max: number } | null = null

// The process's PostgreSQL pool (main.ts registers it; PGlite has none).
export function observePool(stats: () => PoolStats, max: number): void {
  pool = { stats, max }
}

export const dbPool = new Gauge({
  name: 'sfts_db_pool_connections',
  help: 'PostgreSQL pool connections by state (total, idle, in_use, waiting requests, max)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    if (!pool) return
    const s = pool.stats()
    this.set({ state: 'total' }, s.totalCount)
    this.set({ state: 'idle' }, s.idleCount)
    this.set({ state: 'in_use' }, s.totalCount - s.idleCount)
    this.set({ state: 'waiting' }, s.waitingCount)
    this.set({ state: 'max' }, pool.max)
  },
})

export function countCommand(command: string, outcome: string): void {
  commands.inc({ command, outcome })
}

export const changeFeedHealthy = new Gauge({
  name: 'sfts_change_feed_healthy',
  help: '1 while the change feed (LISTEN connection, or PGlite in process) is healthy: the in-memory credential cache and storefront probes are trusted; 0: they are bypassed',
  registers: [registry],
})

export const changeFeedFlushes = new Counter({
  name: 'sfts_change_feed_flushes_total',
  help: 'Times the change feed (re)started listening and told every cache to drop what it held',
  registers: [registry],
})

export const credentialCache = new Counter({
  name: 'sfts_credential_cache_requests_total',
  help: 'Bearer credentials checked, by result: hit (no statement), miss (looked up, then cached), bypass (looked up: change feed unhealthy)',
  labelNames: ['result'] as const,
  registers: [registry],
})

export const storefrontProbes = new Counter({
  name: 'sfts_storefront_probe_requests_total',
  help: "Live storefront requests by how the store's versions were known: hit (memory, no statement), miss (queried, then kept), bypass (queried: change feed unhealthy)",
  labelNames: ['result'] as const,
  registers: [registry],
})

export const readCache = new Counter({
  name: 'sfts_read_cache_requests_total',
  help: "API reads answered from an in-process cache, by cache (product_pages, catalog_parts: emptied by the change feed; theme_json, context_json: checked against stream versions in the read's one statement) and result: hit, miss, bypass (change feed unhealthy)",
  labelNames: ['cache', 'result'] as const,
  registers: [registry],
})

// The replicas of DATABASE_REPLICA_URLS (src/db/replicas.ts; main.ts registers them).
type ReplicaGauges = () => readonly { name: string; up: boolean; lagSeconds: number | null; state: string }[]
let replicas: ReplicaGauges | null = null
export function observeReplicas(states: ReplicaGauges): void {
  replicas = states
}

export const replicaLag = new Gauge({
  name: 'sfts_db_replica_lag_seconds',
  help: "Seconds a read replica is behind the primary (from the primary's WAL positions sampled every 150 ms against the replica's replay position; 0: it has replayed every sampled position). Past 2 s it gets no reads",
  labelNames: ['replica'] as const,
  registers: [registry],
  collect() {
    this.reset()
    for (const r of replicas?.() ?? []) if (r.lagSeconds !== null) this.set({ replica: r.name }, r.lagSeconds)
  },
})

export const replicaUp = new Gauge({
  name: 'sfts_db_replica_up',
  help: 'Replicas by whether their last poll answered (1) or not (0: reads skip it and go to the primary)',
  labelNames: ['replica'] as const,
  registers: [registry],
  collect() {
    this.reset()
    // An idle replica (not polled: no reads in the last minute) has no sample.
    for (const r of replicas?.() ?? []) if (r.state !== 'idle') this.set({ replica: r.name }, r.up ? 1 : 0)
  },
})

export const readRoutes = new Counter({
  name: 'sfts_db_reads_routed_total',
  help: 'Reads routed by where they went: replica, or primary (no replicas, a write of the store not yet replayed, lag, feed unhealthy)',
  labelNames: ['to'] as const,
  registers: [registry],
})
