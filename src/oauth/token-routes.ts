import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { validIdempotencyKey } from '../web/idempotency-key.ts'
import type { Services } from '../services.ts'
import { authenticateClient, type OAuthClient } from './clients.ts'
import { addFormParser, DUPLICATE_PARAMETERS, type Form } from './form.ts'
import { REVOKE_PATH, TOKEN_PATH } from './metadata.ts'
import { oauthError, type OAuthError } from '../operations/oauth/oauth-error.ts'
import { sendOAuthError } from './oauth-error.ts'
import { registerRegistrationRoute } from './register-route.ts'
import { storableText } from './storable-text.ts'
import { exchangeCode, refresh, revoke } from './tokens.ts'

function formOf(request: FastifyRequest): { ok: true; form: Form } | { ok: false; error: OAuthError } {
  const body = request.body
  if (
    body === null ||
    typeof body !== 'object' ||
    Array.isArray(body) ||
    !request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded')
  ) {
    return {
      ok: false,
      error: oauthError('invalid_request', 'send the parameters as application/x-www-form-urlencoded'),
    }
  }
  const form = body as Form
  const unstorable = Object.entries(form).find(([k, v]) => !storableText(k) || !storableText(v))
  if (unstorable)
    return {
      ok: false,
      error: oauthError('invalid_request', `${unstorable[0]}: contains a NUL character (not valid text)`),
    }
  const duplicates = form[DUPLICATE_PARAMETERS]
  if (duplicates)
    return { ok: false, error: oauthError('invalid_request', `parameters must not repeat: ${duplicates.join(', ')}`) }
  return { ok: true, form }
}

// Never a bearer credential in the query string, nor the token endpoint's parameters.
function queryRefused(request: FastifyRequest): OAuthError | null {
  const query = request.query as Record<string, unknown> | undefined
  return query && Object.keys(query).length > 0
    ? oauthError('invalid_request', 'parameters go in the form body, not the query string')
    : null
}

// Idempotency-Key (decision 0112): checked like every POST's, never replayed. Replaying would
// mean keeping the tokens to send again, and tokens are never stored in clear; a retry gets what
// the grant rules give it (a refresh retried within 60 s: a valid new pair; a code used twice:
// invalid_grant, and the tokens from that code are revoked).
function idempotencyKeyRefused(request: FastifyRequest): OAuthError | null {
  const key = request.headers['idempotency-key']
  if (key === undefined) return null
  return typeof key === 'string' && validIdempotencyKey(key)
    ? null
    : oauthError('invalid_request', 'Idempotency-Key must be 8 to 256 printable ASCII characters, sent once')
}

async function handle(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  operationId: string,
  run: (form: Form, client: OAuthClient) => Promise<{ ok: true; value: unknown } | { ok: false; error: OAuthError }>,
) {
  request.audit.operationId = operationId
  const refused = queryRefused(request) ?? idempotencyKeyRefused(request)
  const parsed = formOf(request)
  const failure = refused ?? (parsed.ok ? null : parsed.error)
  if (failure || !parsed.ok) return fail(request, reply, failure!)
  const client = await authenticateClient(services, parsed.form, request.headers.authorization)
  if (!client.ok) return fail(request, reply, client.error)
  request.audit.credentialId = client.client.clientId
  const result = await run(parsed.form, client.client)
  if (!result.ok) return fail(request, reply, result.error)
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
  return result.value === null
    ? reply.code(200).send()
    : reply.code(200).type('application/json; charset=utf-8').send(result.value)

  async function fail(request: FastifyRequest, reply: FastifyReply, error: OAuthError) {
    request.audit.errorCode = error.error
    return sendOAuthError(reply, error)
  }
}

// POST /api/oauth/token and /api/oauth/revoke, inside /api (rate limits and X-Request-Id apply).
export async function registerTokenRoutes(api: FastifyInstance, services: Services): Promise<void> {
  await api.register(async (scope) => {
    addFormParser(scope)
    // Whatever the framework refuses (body too large, unknown content type) still answers in RFC 6749 form.
    scope.setErrorHandler(async (error: { statusCode?: number }, request, reply) => {
      if (error.statusCode === 429) throw error
      if (error.statusCode === 413) {
        request.audit.errorCode = 'invalid_request'
        return sendOAuthError(
          reply,
          oauthError('invalid_request', 'the request body is too large for this endpoint (at most 64 KiB)'),
          413,
        )
      }
      if (!error.statusCode || error.statusCode >= 500) {
        request.log.error({ err: error, requestId: request.id }, 'oauth endpoint failed')
        return reply
          .code(500)
          .header('cache-control', 'no-store')
          .send({ error: 'server_error', error_description: `internal error; quote request id ${request.id}` })
      }
      return sendOAuthError(
        reply,
        oauthError('invalid_request', 'the request is malformed; send application/x-www-form-urlencoded parameters'),
      )
    })
    scope.post(TOKEN_PATH, (request, reply) =>
      handle(request, reply, services, 'oauthToken', async (form, client) => {
        switch (form.grant_type) {
          case 'authorization_code':
            return exchangeCode(services, client, form, request.id)
          case 'refresh_token':
            return refresh(services, client, form, request.id)
          case undefined:
            return { ok: false, error: oauthError('invalid_request', 'grant_type is required') }
          default:
            return {
              ok: false,
              error: oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token'),
            }
        }
      }),
    )
    await registerRegistrationRoute(scope, services)
    scope.post(REVOKE_PATH, (request, reply) =>
      handle(request, reply, services, 'oauthRevoke', async (form, client) =>
        revoke(services, client, form, request.id),
      ),
    )
  })
}
