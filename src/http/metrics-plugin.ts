import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { projectionStatus } from '../operations/ops/projections.ts'
import type { Services } from '../services.ts'
import {
  httpDuration,
  projectionLagEvents,
  projectionLagSeconds,
  rateLimitRefusals,
  registry,
  renderCache,
} from '../metrics/registry.ts'

// GET /metrics (Prometheus text) on the main port, and the per-request hook that feeds the HTTP
// series. Open to loopback clients; from elsewhere only with `Authorization: Bearer
// <METRICS_TOKEN>` when that variable is set, else 404 (the endpoint does not exist for them).

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

function allowed(request: FastifyRequest, token: string | undefined): boolean {
  // The client's address (request.ip): behind a proxy named in TRUST_PROXY, a visitor the proxy
  // forwards is not taken for a loopback client.
  if (LOOPBACK.test(request.ip)) return true
  if (!token) return false
  const given = Buffer.from(request.headers.authorization ?? '')
  const expected = Buffer.from(`Bearer ${token}`)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

const limitOf = (url: string) =>
  url.startsWith('/api/') ? 'api' : url.startsWith('/dashboard/login') ? 'login' : 'other'

function observe(request: FastifyRequest, reply: FastifyReply): void {
  const route = request.routeOptions.url
  // MCP requests name the tool's operation: kept apart from the REST twin's latency.
  const operation = request.audit?.operationId
    ? route === '/api/v1/mcp'
      ? `mcp:${request.audit.operationId}`
      : request.audit.operationId
    : (route ?? 'unmatched')
  const status = reply.statusCode
  httpDuration.observe({ operation, status }, reply.elapsedTime / 1000)
  if (status === 429) rateLimitRefusals.inc({ limit: limitOf(request.url) })
  const cache = reply.getHeader('x-storefront-cache')
  if (cache === 'hit' || cache === 'miss') renderCache.inc({ result: cache })
}

// Lag needs the database; a scrape while it is down still answers, with the last values.
async function refreshLag(services: Services): Promise<void> {
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000).unref())
  const states = await Promise.race([projectionStatus(services).catch(() => null), timeout])
  for (const s of states ?? []) {
    projectionLagEvents.set({ projection: s.name }, s.behindEvents)
    projectionLagSeconds.set({ projection: s.name }, s.behindSeconds)
  }
}

export async function metricsPlugin(app: FastifyInstance, services: Services): Promise<void> {
  app.addHook('onResponse', async (request, reply) => observe(request, reply))
  app.get('/metrics', async (request, reply) => {
    if (!allowed(request, services.config.metricsToken)) {
      return reply
        .code(404)
        .type('application/json; charset=utf-8')
        .send({ error: { code: 'NOT_FOUND', message: `no route for GET /metrics`, requestId: request.id } })
    }
    await refreshLag(services)
    return reply
      .header('content-type', registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics())
  })
}
