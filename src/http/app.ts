import { randomUUID } from 'node:crypto'
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyBaseLogger,
} from 'fastify'
import multipart from '@fastify/multipart'
import rateLimit from '@fastify/rate-limit'
import type { Redis } from 'ioredis'
import type { Services } from '../services.ts'
import type { OperationDefinition } from '../operations/operation.ts'
import { operations } from '../operations/catalog.ts'
import { classifyError } from '../errors.ts'
import { pingDatabase } from '../queries/health.ts'
import { sendError } from '../web/errors.ts'
import { answerClientError, decodeUtf8, MAX_PARAM_LENGTH, sendFrameworkError } from '../web/edge-errors.ts'
import { registerOperation } from './rest-routes.ts'
import { rateLimitKey } from './rate-limit-key.ts'
import { openApiDocument } from './openapi.ts'
import { registerMediaRoute } from './media-route.ts'
import { redisWithLocalFallback } from './rate-limit-store.ts'
import type { DocumentedRoute } from '../web/documented-route.ts'

export type AppOptions = {
  logger?: FastifyBaseLogger
  redis?: Redis | null
  // Adapters that live outside this file register here: `plugins` inside /api (rate-limited,
  // with the API's 404/405 handling), `sitePlugins` at the root (storefront, previews, metadata).
  plugins?: ((app: FastifyInstance, services: Services) => Promise<void>)[]
  sitePlugins?: ((app: FastifyInstance, services: Services) => Promise<void>)[]
  extraApiRoutes?: { method: string; path: string }[]
  // Their routes in the OpenAPI document.
  documentedRoutes?: readonly DocumentedRoute[]
}

const REQUEST_ID = /^[\x21-\x7e]{1,200}$/

export const loggerOptions = (level: string) => ({
  level,
  // Credentials never reach the logs, whatever a handler logs by mistake.
  redact: {
    paths: [
      'secret',
      'password',
      'client_secret',
      'access_token',
      'refresh_token',
      'authorization',
      'req.headers.authorization',
      'req.headers.cookie',
      'req.headers["x-api-key"]',
      'headers.authorization',
      '*.password',
      '*.secret',
      '*.client_secret',
      '*.access_token',
      '*.refresh_token',
      '*.key',
      '*.token',
    ],
    censor: '[redacted]',
  },
})

const pathPattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`)

export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    // Our onResponse hook writes one structured line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 2 * 1024 * 1024,
    // request.ip is the client's: X-Forwarded-For is believed only from the TRUST_PROXY list.
    trustProxy: services.config.trustProxy.length > 0 ? services.config.trustProxy : false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // The envelope at the edges: a bad URL or an oversize path parameter (before routing) and
    // what Node's HTTP parser refuses (before fastify sees a request).
    frameworkErrors: sendFrameworkError,
    clientErrorHandler(error, socket) {
      answerClientError(error, socket, (details) => options.logger?.info(details, 'client error'))
    },
  })

  // A stop (SIGTERM, app.close()) lets in-flight requests finish. Node closes the connections that
  // are idle when it stops listening, but a keep-alive connection whose request was still running
  // then stays open after its response until keepAliveTimeout (72 s): a drain after any burst of
  // browser requests took that long. While closing, idle connections are closed as they appear.
  let sweep: NodeJS.Timeout | undefined
  app.addHook('preClose', (done) => {
    sweep = setInterval(() => app.server.closeIdleConnections(), 100).unref()
    done()
  })
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweep)
    done()
  })

  app.decorateRequest('audit', null as never)
  app.addHook('onRequest', async (request, reply) => {
    request.audit = {}
    reply.header('x-request-id', request.id)
  })
  app.addHook('onResponse', async (request, reply) => {
    const a = request.audit ?? {}
    request.log.info(
      {
        requestId: request.id,
        method: request.method,
        url: request.routeOptions.url ?? 'unmatched',
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        credentialId: a.credentialId,
        storeId: a.storeId,
        operationId: a.operationId,
        errorCode: a.errorCode,
      },
      'request completed',
    )
  })

  // An empty JSON body is an empty input (POST /publish with no body), not a parse error.
  // Only JSON (and multipart, for uploads) is accepted; text/plain and the rest are 415.
  // Malformed UTF-8 is refused, not turned into U+FFFD and stored.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const text = decodeUtf8(body as Buffer)?.trim()
    if (text === undefined)
      return done(Object.assign(new Error('invalid UTF-8'), { code: 'INVALID_UTF8_BODY', statusCode: 400 }), undefined)
    if (text === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text))
    } catch {
      const error = new Error('invalid JSON') as Error & { code: string; statusCode: number }
      error.code = 'FST_ERR_CTP_INVALID_JSON_BODY'
      error.statusCode = 400
      done(error, undefined)
    }
  })
  // Each upload's own cap is its operation's (multipart.ts reads the parts with it).
  await app.register(multipart, { limits: { files: 1 } })

  app.setErrorHandler(async (error, request, reply) => {
    const classified = classifyError(error as never)
    if (classified.log) request.log.error({ err: error, requestId: request.id }, 'request failed')
    request.audit = { ...request.audit, errorCode: classified.code }
    if (classified.code === 'RATE_LIMITED')
      reply.header('retry-after', reply.getHeader('retry-after') ?? String(services.config.rateLimit.windowSeconds))
    return sendError(request, reply, classified.code, classified.message, classified.details)
  })

  // Per credential (the hash of the bearer token), or per client address without one; the same
  // counter covers REST and MCP. Redis for several instances (this instance's own counters while
  // Redis is down), memory for one.
  let lastFallbackLog = 0
  const onFallback = (error: Error) => {
    if (Date.now() - lastFallbackLog < 10_000) return
    lastFallbackLog = Date.now()
    app.log.warn({ err: error.message }, 'rate limit: redis unavailable, counting on this instance')
  }
  await app.register(rateLimit, {
    global: false,
    max: services.config.rateLimit.max,
    timeWindow: services.config.rateLimit.windowSeconds * 1000,
    keyGenerator: rateLimitKey,
    ...(options.redis ? { store: redisWithLocalFallback(options.redis, 'storefront-rl:', onFallback) } : {}),
    skipOnError: false,
    errorResponseBuilder: (_request, context) => {
      const error = new Error(
        `rate limit of ${context.max} requests per ${services.config.rateLimit.windowSeconds} s exceeded; retry in ${context.after}`,
      ) as Error & { statusCode: number }
      error.statusCode = 429
      return error
    },
  })
  const limit = app.rateLimit()

  const apiRoutes: { method: string; pattern: RegExp }[] = []
  await app.register(async (api) => {
    api.addHook('onRequest', limit)
    for (const op of operations as OperationDefinition[]) {
      registerOperation(api, op, services)
      apiRoutes.push({ method: op.method, pattern: pathPattern(op.path) })
    }
    const documented = options.documentedRoutes ?? []
    api.get('/api/v1/openapi.json', async (_request, reply) =>
      reply.header('cache-control', 'no-cache').send(openApiDocument(services.baseUrl, documented)),
    )
    apiRoutes.push({ method: 'GET', pattern: pathPattern('/api/v1/openapi.json') })
    for (const plugin of options.plugins ?? []) await plugin(api, services)
  })
  for (const r of options.extraApiRoutes ?? []) apiRoutes.push({ method: r.method, pattern: pathPattern(r.path) })

  app.setNotFoundHandler(
    {
      preHandler: async (request: FastifyRequest, reply: FastifyReply) =>
        request.url.startsWith('/api/') ? limit.call(app, request, reply) : undefined,
    },
    async (request, reply) => {
      const path = request.url.split('?')[0]!
      const allowed = [...new Set(apiRoutes.filter((r) => r.pattern.test(path)).map((r) => r.method))]
      if (allowed.length > 0) {
        if (allowed.includes('GET')) allowed.push('HEAD')
        reply.header('allow', allowed.join(', '))
        request.audit.errorCode = 'METHOD_NOT_ALLOWED'
        return sendError(
          request,
          reply,
          'METHOD_NOT_ALLOWED',
          `${request.method} is not allowed here; use ${allowed.join(', ')}`,
        )
      }
      request.audit.errorCode = 'NOT_FOUND'
      return sendError(request, reply, 'NOT_FOUND', `no route for ${request.method} ${path}`)
    },
  )

  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async (request, reply) => {
    const checks: Record<string, 'ok' | 'down'> = {}
    try {
      await pingDatabase(services.db)
      checks.database = 'ok'
    } catch {
      checks.database = 'down'
    }
    if (options.redis) {
      try {
        await options.redis.ping()
        checks.redis = 'ok'
      } catch {
        checks.redis = 'down'
      }
    }
    // Replicas are detail, not readiness: reads skip one that is down or behind and use the primary.
    const replicas = Object.fromEntries(
      services.replicaStates().map((r) => [r.name, { state: r.state, lagSeconds: r.lagSeconds }]),
    )
    const detail = Object.keys(replicas).length > 0 ? { checks, replicas } : { checks }
    const ready = Object.values(checks).every((c) => c === 'ok')
    if (!ready) return sendError(request, reply, 'UNAVAILABLE', 'not ready', detail)
    return { status: 'ready', ...detail }
  })
  registerMediaRoute(app, services)
  for (const plugin of options.sitePlugins ?? []) await plugin(app, services)
  return app
}
