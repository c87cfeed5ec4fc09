import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import cors from '@fastify/cors'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { authenticateBearer } from '../auth/authenticate.ts'
import type { Caller } from '../auth/caller.ts'
import '../web/audit.ts'
import { insufficientScopeChallenge } from '../web/challenge.ts'
import { sendAppError, sendError } from '../web/errors.ts'
import { decodeUtf8 } from '../web/edge-errors.ts'
import { type AppError, invalidUtf8Body } from '../errors.ts'
import type { Services } from '../services.ts'
import { discoveryDocument, mcpChallenge, MCP_PATH, METADATA_PATH, protectedResourceMetadata } from './discovery.ts'
import { originAllowed } from './origin.ts'
import {
  checkMessage,
  DEFAULT_PROTOCOL_VERSION,
  hasRequest,
  BATCHING_VERSIONS,
  isSupportedVersion,
  JSONRPC,
  LATEST_PROTOCOL_VERSION,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  rpcError,
  type JsonRpcId,
} from './protocol.ts'
import { createMcpServer } from './server.ts'
import { fastAnswer } from './fast-path.ts'
import type { CallObserver } from './tools.ts'

// Tool arguments may carry an image as base64 (up to 5 MiB of bytes, about 6.7 MiB encoded).
export const MCP_BODY_LIMIT = 8 * 1024 * 1024

const CORS_EXPOSED_HEADERS =
  'WWW-Authenticate, Mcp-Protocol-Version, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After'
const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Last-Event-ID, X-Request-Id'
const CORS_METHODS = 'GET, HEAD, POST, OPTIONS'

const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name]
  return Array.isArray(v) ? v.join(', ') : v
}

// We always answer JSON: a client must accept it (a missing Accept accepts anything).
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]!.trim().toLowerCase()
    return type === 'application/json' || type === 'application/*' || type === '*/*'
  })
}
const asksForEventStream = (accept: string | undefined) => (accept ?? '').toLowerCase().includes('text/event-stream')
const isJsonContentType = (ct: string | undefined) => ct !== undefined && /^application\/json\s*(;|$)/i.test(ct.trim())

function sendRpcError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  id: JsonRpcId | null,
  code: number,
  message: string,
) {
  request.audit.errorCode = `JSONRPC_${code}`
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(rpcError(id, code, message, { requestId: request.id }))
}

function initializeVersion(body: unknown): string | undefined {
  const messages = Array.isArray(body) ? body : [body]
  const init = messages.find(
    (m) => m && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize',
  ) as { params?: { protocolVersion?: unknown } } | undefined
  if (!init) return undefined
  const asked = init.params?.protocolVersion
  return isSupportedVersion(asked) ? asked : LATEST_PROTOCOL_VERSION
}

// What the SDK transport reads of a Request when the body is already parsed: method, url and
// headers.get/entries. Headers here are already checked, so undici's validating Request (a
// tenth of the CPU of a tool call) is not built.
function transportRequest(url: string, headers: Record<string, string>): Request {
  return {
    method: 'POST',
    url,
    headers: {
      get: (name: string) => headers[name.toLowerCase()] ?? null,
      entries: () => Object.entries(headers)[Symbol.iterator](),
    },
  } as unknown as Request
}

// Counts one more message against the credential's API rate limit (the limiter's own counter).
export type CountMessage = (
  request: FastifyRequest,
) => Promise<{ exceeded: boolean; remaining: number; max: number; ttlInSeconds: number }>

// Every message of a batch counts against the rate limit (the request itself, the first message,
// was counted by the API's limiter before this runs, within the budget). Past the budget the whole
// batch is refused and none of it runs: 429, with a JSON-RPC error for each request in it, by id.
async function countBatch(
  request: FastifyRequest,
  reply: FastifyReply,
  batch: unknown[],
  count: CountMessage,
): Promise<boolean> {
  let within = batch.length
  let last: Awaited<ReturnType<CountMessage>> | undefined
  for (let i = 1; i < batch.length; i++) {
    last = await count(request)
    if (last.exceeded && within === batch.length) within = i
  }
  if (!last) return true
  reply.header('x-ratelimit-remaining', String(last.remaining)).header('x-ratelimit-reset', String(last.ttlInSeconds))
  if (within === batch.length) return true
  const retry = Math.max(1, last.ttlInSeconds)
  request.audit.errorCode = 'RATE_LIMITED'
  const data = { code: 'RATE_LIMITED', requestId: request.id, retryAfterSeconds: retry }
  const answers = batch.flatMap((m, i) => {
    const id = (m as { id?: JsonRpcId }).id
    if (id === undefined || !('method' in (m as object))) return []
    const message =
      i >= within
        ? `rate limit of ${last.max} messages exceeded; retry in ${retry} s (nothing in this batch ran)`
        : `not run: this batch goes past the rate limit at message ${within + 1} of ${batch.length}; retry in ${retry} s`
    return [rpcError(id, JSONRPC.RATE_LIMITED, message, data)]
  })
  await reply.code(429).header('retry-after', String(retry)).type('application/json; charset=utf-8').send(answers)
  return false
}

async function handlePost(services: Services, request: FastifyRequest, reply: FastifyReply, count: CountMessage) {
  request.audit.operationId = 'mcpJsonRpc'
  const authentication = await authenticateBearer(
    services.db,
    request.headers.authorization,
    { channel: 'mcp', requestId: request.id, now: services.clock(), baseUrl: services.baseUrl },
    services,
  )
  if (!authentication.ok) {
    // MCP's challenge points to the protected-resource metadata (RFC 9728).
    reply.header(
      'www-authenticate',
      `${mcpChallenge(services.baseUrl)}${authentication.refusal.reason === 'missing' ? '' : ', error="invalid_token"'}`,
    )
    request.audit.errorCode = 'UNAUTHENTICATED'
    return sendAppError(request, reply, authentication.refusal.error)
  }
  const caller: Caller = authentication.caller
  request.audit.credentialId = caller.actor.credentialId ?? undefined
  request.audit.storeId = caller.storeId

  const version = header(request, 'mcp-protocol-version')
  if (version !== undefined && !isSupportedVersion(version)) {
    request.audit.errorCode = 'UNSUPPORTED_PROTOCOL_VERSION'
    return sendError(
      request,
      reply,
      'UNSUPPORTED_PROTOCOL_VERSION',
      `MCP-Protocol-Version ${JSON.stringify(version)} is not supported; use one of ${PROTOCOL_VERSIONS.join(', ')}`,
      { supportedVersions: [...PROTOCOL_VERSIONS] },
    )
  }
  if (!acceptsJson(header(request, 'accept'))) {
    request.audit.errorCode = 'NOT_ACCEPTABLE'
    return sendError(
      request,
      reply,
      'NOT_ACCEPTABLE',
      'this endpoint answers application/json; accept application/json (and text/event-stream)',
    )
  }
  if (!isJsonContentType(header(request, 'content-type'))) {
    request.audit.errorCode = 'UNSUPPORTED_MEDIA_TYPE'
    return sendError(request, reply, 'UNSUPPORTED_MEDIA_TYPE', 'send JSON-RPC messages as application/json')
  }

  const text = Buffer.isBuffer(request.body) ? decodeUtf8(request.body) : ''
  if (text === undefined) {
    request.audit.errorCode = invalidUtf8Body.code
    return sendAppError(request, reply, invalidUtf8Body)
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return sendRpcError(request, reply, 400, null, JSONRPC.PARSE_ERROR, 'Parse error: the body is not valid JSON')
  }
  const check = checkMessage(body)
  if (!check.ok)
    return sendRpcError(request, reply, 400, check.id, JSONRPC.INVALID_REQUEST, `Invalid Request: ${check.message}`)
  if (Array.isArray(body)) {
    // Without MCP-Protocol-Version a request is 2025-03-26, where batches exist.
    const asked = version ?? DEFAULT_PROTOCOL_VERSION
    if (!BATCHING_VERSIONS.includes(asked as ProtocolVersion))
      return sendRpcError(
        request,
        reply,
        400,
        null,
        JSONRPC.INVALID_REQUEST,
        `Invalid Request: protocol version ${asked} takes one JSON-RPC message per POST, not a batch`,
      )
    if (!(await countBatch(request, reply, body, count))) return reply
  }
  // MCP authorization, "scope challenge handling": a tools/call the credential lacks a scope for
  // is HTTP 403 with the step-up challenge (the same as REST's), not a tool result, so an OAuth
  // client can ask the merchant for the scope and retry. The scope is checked once, by invoke;
  // its refusal is answered here. Batches keep per-message answers.
  let missingScope: AppError | undefined
  const observe: CallObserver = (event) => {
    request.audit.operationId = event.operationId
    if (!event.error) return
    request.audit.errorCode = event.error.code
    if (event.error.code === 'INSUFFICIENT_SCOPE' && !Array.isArray(body)) missingScope = event.error
  }
  const challenge = (error: AppError) => {
    const required = (error.details?.requiredScopes ?? []) as string[]
    reply.header('www-authenticate', insufficientScopeChallenge(services.baseUrl, required))
    return sendAppError(request, reply, error)
  }
  const negotiated = initializeVersion(body) ?? version ?? DEFAULT_PROTOCOL_VERSION
  const fast = await fastAnswer(body, caller, services, observe)
  if (missingScope) return challenge(missingScope)
  if (fast !== null)
    return reply.header('mcp-protocol-version', negotiated).type('application/json; charset=utf-8').send(fast)

  // A fresh SDK server and stateless Streamable HTTP transport per request. The transport is the
  // web-standard one (the Node one wraps it, converting the request through @hono/node-server)
  // and the reply stays Fastify's, not hijacked: X-Request-Id, rate-limit and CORS headers,
  // the error handler and the request log apply to MCP exactly as to REST.
  const server = createMcpServer(caller, services, observe)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  transport.onerror = (error) => request.log.debug({ err: error, requestId: request.id }, 'MCP transport error')
  let complete = false
  try {
    await server.connect(transport)
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    }
    if (version !== undefined) headers['mcp-protocol-version'] = version
    const response = await transport.handleRequest(transportRequest(`${services.baseUrl}${MCP_PATH}`, headers), {
      parsedBody: body,
    })
    if (missingScope) {
      complete = true
      return challenge(missingScope)
    }
    reply.code(response.status).header('mcp-protocol-version', negotiated)
    const text = response.status === 202 || !hasRequest(body) ? undefined : await response.text()
    complete = true
    return text === undefined
      ? reply.send()
      : reply.type(response.headers.get('content-type') ?? 'application/json').send(text)
  } finally {
    // In JSON-response mode a finished exchange leaves nothing open (no stream, no timer), and
    // the server and transport are garbage once this returns; closing them costs a stack trace
    // (the SDK rejects pending requests with a new McpError) on every request. Close on failure.
    if (!complete) await server.close().catch(() => {})
  }
}

function handleGet(services: Services, request: FastifyRequest, reply: FastifyReply) {
  request.audit.operationId = 'mcpDiscovery'
  // No standalone SSE stream: the server never sends requests or notifications of its own.
  if (asksForEventStream(header(request, 'accept'))) {
    reply.header('allow', 'POST')
    request.audit.errorCode = 'METHOD_NOT_ALLOWED'
    return sendError(
      request,
      reply,
      'METHOD_NOT_ALLOWED',
      'this MCP endpoint is stateless and offers no SSE stream; POST JSON-RPC messages instead',
    )
  }
  return reply.header('cache-control', 'no-cache').send(discoveryDocument(services.baseUrl))
}

// POST and GET /api/v1/mcp, inside /api (the REST rate limiter counts them per credential).
export async function registerMcpEndpoint(api: FastifyInstance, services: Services): Promise<void> {
  // The API limiter's own store and key (no options: the global ones), one count per call.
  const limiter = api.createRateLimit()
  const count: CountMessage = async (request) => {
    const counted = await limiter(request)
    return counted.isAllowed
      ? { exceeded: false, remaining: 0, max: 0, ttlInSeconds: 0 }
      : {
          exceeded: counted.isExceeded,
          remaining: counted.remaining,
          max: counted.max,
          ttlInSeconds: counted.ttlInSeconds,
        }
  }
  await api.register(
    async (mcp) => {
      // CORS, for browser clients (MCP Inspector, pages of this service): one allowlist
      // (origin.ts), so these two hooks are the whole of it. A foreign origin is refused before
      // anything else happens; an allowed one's preflight is answered here, before
      // authentication (browsers send no credentials with it). Both hooks take callbacks, not
      // promises: they run on every MCP message. (@fastify/cors, used here before, rebuilt its
      // options per request and still needed the onSend hook: the API's rate limiter sends its
      // 429 before this room's onRequest hooks run.)
      mcp.addHook('onRequest', (request, reply, done) => {
        const origin = header(request, 'origin')
        if (origin === undefined) return done()
        if (!originAllowed(origin, services.baseUrl)) {
          request.audit.errorCode = 'FORBIDDEN_ORIGIN'
          return sendError(request, reply, 'FORBIDDEN_ORIGIN', `requests from the origin ${origin} are not accepted`)
        }
        if (request.method !== 'OPTIONS') return done()
        reply
          .code(204)
          .header('access-control-allow-methods', CORS_METHODS)
          .header('access-control-allow-headers', CORS_ALLOWED_HEADERS)
          .header('access-control-max-age', '600')
          .header('content-length', '0')
          .send()
      })
      // Every answer varies by Origin; an allowed origin may read it and the headers it needs
      // (Retry-After on a 429 included).
      mcp.addHook('onSend', (request, reply, payload, done) => {
        const vary = reply.getHeader('vary')
        reply.header('vary', vary === undefined ? 'Origin' : `${String(vary)}, Origin`)
        const origin = header(request, 'origin')
        if (origin !== undefined && originAllowed(origin, services.baseUrl))
          reply
            .header('access-control-allow-origin', origin)
            .header('access-control-expose-headers', CORS_EXPOSED_HEADERS)
        done(null, payload)
      })
      // The body is read as bytes and parsed here: malformed UTF-8 is a 400, bad JSON a JSON-RPC -32700.
      mcp.removeAllContentTypeParsers()
      mcp.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MCP_BODY_LIMIT }, (_request, body, done) =>
        done(null, body),
      )
      mcp.post('/', { bodyLimit: MCP_BODY_LIMIT, prefixTrailingSlash: 'both' }, (request, reply) =>
        handlePost(services, request, reply, count),
      )
      mcp.get('/', { prefixTrailingSlash: 'both' }, async (request, reply) => handleGet(services, request, reply))
      mcp.options('/', { prefixTrailingSlash: 'both' }, async (_request, reply) =>
        reply.code(204).header('allow', 'GET, HEAD, POST, OPTIONS').send(),
      )
    },
    { prefix: MCP_PATH },
  )
}

// RFC 9728 metadata at the root, readable from any origin (it is public).
export async function registerProtectedResourceMetadata(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(
    async (site) => {
      await site.register(cors, {
        origin: '*',
        methods: ['GET', 'HEAD', 'OPTIONS'],
        exposedHeaders: ['X-Request-Id'],
        maxAge: 3600,
        strictPreflight: false,
      })
      const send = async (_request: FastifyRequest, reply: FastifyReply) =>
        reply.header('cache-control', 'public, max-age=300').send(protectedResourceMetadata(services.baseUrl))
      site.get('/', { prefixTrailingSlash: 'no-slash' }, send)
      site.get(MCP_PATH, send)
      site.options('/', { prefixTrailingSlash: 'no-slash' }, async (_request, reply) =>
        reply.code(204).header('allow', 'GET, HEAD, OPTIONS').send(),
      )
    },
    { prefix: METADATA_PATH },
  )
}
