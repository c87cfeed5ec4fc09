import type { FastifyInstance, FastifyRequest } from 'fastify'
import { authenticateBearer } from '../auth/authenticate.ts'
import { errorEnvelope } from '../errors.ts'
import type { OperationDefinition, Outcome } from '../operations/operation.ts'
import { invoke } from '../operations/invoke.ts'
import type { Services } from '../services.ts'
import { insufficientScopeChallenge } from '../web/challenge.ts'
import { STATUS_OF } from '../web/errors.ts'
import { ifMatchError } from '../web/if-match.ts'
import { notModified } from './conditional.ts'
import { claim, complete, release, requestHash, validIdempotencyKey, type Scope } from './idempotency.ts'
import { readMultipartUpload } from './multipart.ts'
import { Utf8Memo } from '../web/utf8-memo.ts'

import '../web/audit.ts'

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }

export const WWW_AUTHENTICATE_REST = 'Bearer realm="storefront-api"'

type Response = { status: number; body: string | Buffer; headers: Record<string, string> }
type Replayed = { replayed: Response }

const DATA_OPEN = Buffer.from('{"data":')
const CLOSE = Buffer.from('}')
const dataTexts = new Utf8Memo(256, 32 * 1024 * 1024)

// The response as the bytes to send, so an idempotent replay can send exactly the same ones.
function send(request: FastifyRequest, op: OperationDefinition, outcome: Outcome<unknown>, baseUrl: string): Response {
  if (!outcome.ok) {
    request.audit.errorCode = outcome.error.code
    // The step-up challenge names every scope the operation needs.
    const headers =
      outcome.error.code === 'INSUFFICIENT_SCOPE'
        ? { ...JSON_TYPE, 'www-authenticate': insufficientScopeChallenge(baseUrl, op.scopes) }
        : JSON_TYPE
    return {
      status: STATUS_OF[outcome.error.code],
      body: JSON.stringify(errorEnvelope(outcome.error, request.id)),
      headers,
    }
  }
  const status = outcome.status ?? op.successStatus
  const headers: Record<string, string> = outcome.etag ? { ...JSON_TYPE, etag: outcome.etag } : JSON_TYPE
  if (outcome.etag && op.method === 'GET' && op.etag && notModified(request.headers['if-none-match'], outcome.etag))
    return { status: 304, body: '', headers: { etag: outcome.etag } }
  // Data the read returned as JSON text is joined into the envelope as bytes, not parsed and
  // re-serialised; a cached read's text is encoded once (src/web/utf8-memo.ts).
  const body =
    outcome.json !== undefined
      ? Buffer.concat([
          DATA_OPEN,
          dataTexts.of(outcome.json, Buffer.from),
          outcome.pagination ? Buffer.from(`,"pagination":${JSON.stringify(outcome.pagination)}}`) : CLOSE,
        ])
      : JSON.stringify(
          outcome.pagination ? { data: outcome.data, pagination: outcome.pagination } : { data: outcome.data },
        )
  return { status, body, headers }
}

// REST's wrapping of `invoke`: the bearer challenge, multipart bodies, If-Match, Idempotency-Key.
export function registerOperation(app: FastifyInstance, op: OperationDefinition, services: Services) {
  app.route({
    method: op.method,
    url: op.path,
    ...(op.bodyLimit ? { bodyLimit: op.bodyLimit } : {}),
    handler: async (request, reply) => {
      request.audit.operationId = op.operationId
      const authentication = await authenticateBearer(
        services.db,
        request.headers.authorization,
        { channel: 'rest', requestId: request.id, now: services.clock(), baseUrl: services.baseUrl },
        services,
      )
      if (authentication.ok) {
        request.audit.credentialId = authentication.caller.actor.credentialId ?? undefined
        request.audit.storeId = authentication.caller.storeId
      } else {
        reply.header(
          'www-authenticate',
          `${WWW_AUTHENTICATE_REST}${authentication.refusal.reason === 'missing' ? '' : ', error="invalid_token"'}`,
        )
      }
      const result = await invoke<Replayed>(op, services, {
        authentication,
        known: { params: request.params, query: request.query },
        input: async () => {
          if (request.isMultipart() && !op.multipart)
            return {
              ok: false,
              error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: `${op.operationId} takes application/json` },
            }
          if (!(op.multipart && request.isMultipart()))
            return { ok: true, parts: { params: request.params, query: request.query, body: request.body } }
          const upload = await readMultipartUpload(request, op.multipart.maxFileBytes)
          return upload.ok
            ? { ok: true, parts: { params: request.params, query: request.query, body: upload.body } }
            : upload
        },
        check: op.ifMatch ? (input) => ifMatchError(request, input) : undefined,
        around: async (input, caller, run) => {
          const key = request.headers['idempotency-key']
          if (!op.idempotent || key === undefined) return run(caller)
          if (typeof key !== 'string' || !validIdempotencyKey(key))
            return {
              ok: false,
              error: {
                code: 'INVALID_IDEMPOTENCY_KEY',
                message: 'Idempotency-Key must be 8 to 256 printable ASCII characters',
              },
            }
          const scope: Scope = { storeId: caller.storeId, operation: op.operationId, key }
          const claimed = await claim(
            services.db,
            scope,
            requestHash({ params: request.params, query: request.query, body: input }),
          )
          if (claimed.kind === 'reused')
            return {
              ok: false,
              error: {
                code: 'IDEMPOTENCY_KEY_REUSED',
                message: 'this Idempotency-Key was used for a different request',
              },
            }
          if (claimed.kind === 'in_use')
            return {
              ok: false,
              error: {
                code: 'IDEMPOTENCY_KEY_IN_USE',
                message: 'a request with this Idempotency-Key is still running; retry later',
              },
            }
          if (claimed.kind === 'replay')
            return {
              replayed: {
                ...claimed.response,
                headers: { ...claimed.response.headers, 'idempotent-replayed': 'true' },
              },
            }
          let out: Response
          try {
            out = send(request, op, await run({ ...caller, idempotencyKey: key }), services.baseUrl)
          } catch (error) {
            await release(services.db, scope).catch(() => {})
            throw error
          }
          if (out.status >= 500) await release(services.db, scope)
          else await complete(services.db, scope, { ...out, body: out.body.toString() })
          return { replayed: out }
        },
        logError: (error) => request.log.error({ err: error, requestId: request.id }, 'request failed'),
        exact: request.headers['if-none-match'] !== undefined,
      })
      const out = 'replayed' in result ? result.replayed : send(request, op, result, services.baseUrl)
      return reply.code(out.status).headers(out.headers).send(out.body)
    },
  })
}
