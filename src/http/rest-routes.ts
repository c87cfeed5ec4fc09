import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { authenticate } from '../auth/credentials.ts'
import type { Caller, OperationDefinition, Outcome } from '../operations/operation.ts'
import { parseInput, scopeError } from '../operations/invoke.ts'
import type { Services } from '../services.ts'
import { sendError, STATUS_OF, validationError } from './errors.ts'
import { claim, complete, release, requestHash, validIdempotencyKey, type Scope } from './idempotency.ts'
import { readMultipartUpload } from './multipart.ts'

declare module 'fastify' {
  interface FastifyRequest {
    audit: { credentialId?: string; storeId?: string; operationId?: string; errorCode?: string }
  }
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }

export const WWW_AUTHENTICATE_REST = 'Bearer realm="storefront-api"'

export async function authenticateRequest(services: Services, request: FastifyRequest, reply: FastifyReply, challenge: string): Promise<Omit<Caller, 'channel'> | null> {
  const auth = await authenticate(services.db, request.headers.authorization, services.clock())
  if (!auth.ok) {
    const detail = auth.reason === 'missing' ? '' : ', error="invalid_token"'
    reply.header('www-authenticate', `${challenge}${detail}`)
    request.audit.errorCode = 'UNAUTHENTICATED'
    const message = auth.reason === 'missing' ? 'a bearer credential is required' : `the credential is ${auth.reason === 'unknown' || auth.reason === 'malformed' ? 'not valid' : auth.reason}`
    await sendError(request, reply, 'UNAUTHENTICATED', message)
    return null
  }
  const p = auth.principal
  request.audit.credentialId = p.actor.credentialId ?? undefined
  request.audit.storeId = p.storeId
  return { storeId: p.storeId, scopes: p.scopes, actor: p.actor, requestId: request.id }
}

// "3", W/"3" -> 3; "*" -> no expectation.
function parseIfMatch(header: string | undefined): { ok: true; version: number | undefined } | { ok: false } {
  if (header === undefined || header.trim() === '*') return { ok: true, version: undefined }
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header)
  return match ? { ok: true, version: Number(match[1]) } : { ok: false }
}

// The response as the bytes to send, so an idempotent replay can send exactly the same ones.
function send(request: FastifyRequest, op: OperationDefinition, outcome: Outcome<unknown>): { status: number; body: string; headers: Record<string, string> } {
  if (!outcome.ok) {
    const status = STATUS_OF[outcome.error.code] ?? 500
    request.audit.errorCode = outcome.error.code
    const body = { error: { code: outcome.error.code, message: outcome.error.message, ...(outcome.error.details ? { details: outcome.error.details } : {}), requestId: request.id } }
    return { status, body: JSON.stringify(body), headers: JSON_TYPE }
  }
  const status = outcome.status ?? op.successStatus
  const headers: Record<string, string> = outcome.etag ? { ...JSON_TYPE, etag: outcome.etag } : JSON_TYPE
  return { status, body: JSON.stringify(outcome.pagination ? { data: outcome.data, pagination: outcome.pagination } : { data: outcome.data }), headers }
}

export function registerOperation(app: FastifyInstance, op: OperationDefinition, services: Services) {
  app.route({
    method: op.method,
    url: op.path,
    ...(op.bodyLimit ? { bodyLimit: op.bodyLimit } : {}),
    handler: async (request, reply) => {
      request.audit.operationId = op.operationId
      const base = await authenticateRequest(services, request, reply, WWW_AUTHENTICATE_REST)
      if (!base) return reply
      const denied = scopeError(op, base.scopes)
      if (denied) {
        request.audit.errorCode = denied.code
        return sendError(request, reply, denied.code, denied.message, denied.details)
      }

      let body: unknown = request.body
      if (request.isMultipart() && !op.multipart) {
        return sendError(request, reply, 'UNSUPPORTED_MEDIA_TYPE', `${op.operationId} takes application/json`)
      }
      if (op.multipart && request.isMultipart()) {
        const upload = await readMultipartUpload(request)
        if (!upload.ok) return sendError(request, reply, upload.error.code, upload.error.message, upload.error.details)
        body = upload.body
      }
      const parsed = parseInput(op, { params: request.params, query: request.query, body })
      if (!parsed.ok) {
        request.audit.errorCode = parsed.error.code
        return sendError(request, reply, parsed.error.code, parsed.error.message, parsed.error.details)
      }
      const input = parsed.input
      if (op.ifMatch) {
        const ifMatch = parseIfMatch(request.headers['if-match'])
        if (!ifMatch.ok) return sendError(request, reply, 'VALIDATION_FAILED', 'If-Match must be an ETag returned by getTheme, like "3"', { issues: [{ path: 'If-Match', code: 'VALIDATION_FAILED', message: 'not an ETag' }] })
        if (ifMatch.version !== undefined) {
          if (input.expectedVersion !== undefined && input.expectedVersion !== ifMatch.version) {
            return sendError(request, reply, 'VALIDATION_FAILED', 'If-Match and expectedVersion disagree', validationError([{ path: 'expectedVersion', code: 'VALIDATION_FAILED', message: 'differs from If-Match' }]).details)
          }
          input.expectedVersion = ifMatch.version
        }
      }

      const caller: Caller = { ...base, channel: 'rest' }
      const key = request.headers['idempotency-key']
      if (!op.idempotent || key === undefined) {
        const out = send(request, op, await op.run(input, caller, services))
        return reply.code(out.status).headers(out.headers).send(out.body)
      }
      if (typeof key !== 'string' || !validIdempotencyKey(key)) {
        return sendError(request, reply, 'INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 8 to 256 printable ASCII characters')
      }
      const scope: Scope = { storeId: base.storeId, operation: op.operationId, key }
      const claimed = await claim(services.db, scope, requestHash({ params: request.params, query: request.query, body: input }))
      if (claimed.kind === 'reused') return sendError(request, reply, 'IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used for a different request')
      if (claimed.kind === 'in_use') return sendError(request, reply, 'IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is still running; retry later')
      if (claimed.kind === 'replay') {
        return reply.code(claimed.response.status).headers({ ...claimed.response.headers, 'idempotent-replayed': 'true' }).send(claimed.response.body)
      }
      let out: ReturnType<typeof send>
      try {
        out = send(request, op, await op.run(input, { ...caller, idempotencyKey: key }, services))
      } catch (error) {
        await release(services.db, scope).catch(() => {})
        throw error
      }
      if (out.status >= 500) await release(services.db, scope)
      else await complete(services.db, scope, out)
      return reply.code(out.status).headers(out.headers).send(out.body)
    },
  })
}
