import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { hashCredential } from '../auth/credentials.ts'
import { validateRedirectUri } from '../auth/redirect-uri.ts'
import { base62 } from '../ids.ts'
import type { Services } from '../services.ts'
import { privateRedirectHost } from './metadata-document.ts'
import { REGISTER_PATH } from './metadata.ts'
import { oauthError, sendOAuthError } from './oauth-error.ts'

export const CLIENT_ID_PREFIX = 'sfc_'
export const CLIENT_SECRET_PREFIX = 'sfcs_'

// RFC 7591 client metadata we act on; other fields (logo_uri, client_uri, …) are ignored, never echoed.
const registrationSchema = z.looseObject({
  redirect_uris: z.array(z.string().max(2048)).min(1, 'at least one redirect URI').max(10, 'at most 10 redirect URIs'),
  client_name: z.string().trim().min(1).max(100).optional(),
  token_endpoint_auth_method: z
    .enum(['none', 'client_secret_basic', 'client_secret_post'])
    .default('client_secret_basic'),
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token']))
    .min(1)
    .default(['authorization_code', 'refresh_token']),
  response_types: z.array(z.literal('code')).min(1).default(['code']),
  // Asked-for scopes are accepted and ignored: registration grants nothing, the merchant does.
  scope: z.string().max(2000).optional(),
})

// Desktop clients register several callbacks at once, some in a private-use scheme that is not in
// reverse-domain form (Cursor: cursor://anysphere.cursor-mcp/oauth/callback, next to an https and
// a loopback one). Those are left out of the registration (RFC 7591 §3.2.1 lets the server replace
// requested values; the response lists what was kept). Anything that could reach a web page or a
// script (javascript:, data:, file:, plain http elsewhere, fragments) refuses the whole request.
const WEB_OR_DANGEROUS = new Set([
  'http:',
  'https:',
  'javascript:',
  'data:',
  'file:',
  'vbscript:',
  'blob:',
  'about:',
  'ftp:',
  'ws:',
  'wss:',
  'filesystem:',
])
function droppable(uri: string): boolean {
  if (uri.includes('#') || !/^[a-z][a-z0-9+.-]*:\/\/[a-z0-9.-]+\//i.test(uri)) return false
  try {
    return !WEB_OR_DANGEROUS.has(new URL(uri).protocol)
  } catch {
    return false
  }
}

export async function registerRegistrationRoute(api: FastifyInstance, services: Services): Promise<void> {
  const { dynamicRegistration, registrationsPerHour } = services.config.oauth
  api.post(REGISTER_PATH, async (request, reply) => {
    request.audit.operationId = 'oauthRegister'
    reply.header('cache-control', 'no-store')
    if (!dynamicRegistration) {
      request.audit.errorCode = 'access_denied'
      return sendOAuthError(
        reply,
        oauthError(
          'access_denied',
          'dynamic client registration is turned off on this service; the merchant creates apps in the dashboard',
        ),
        403,
      )
    }
    // Per address, counted from the registrations themselves: shared by every instance, no extra state.
    const hourAgo = new Date(services.clock().getTime() - 3600_000)
    const recent = await services.db
      .selectFrom('oauth_clients')
      .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('created_at').as('oldest')])
      .where('registered_from', '=', request.ip)
      .where('created_at', '>', hourAgo)
      .executeTakeFirstOrThrow()
    if (Number(recent.n) >= registrationsPerHour) {
      request.audit.errorCode = 'RATE_LIMITED'
      const retry = recent.oldest
        ? Math.max(1, Math.ceil((new Date(recent.oldest).getTime() + 3600_000 - services.clock().getTime()) / 1000))
        : 3600
      reply.header('retry-after', String(retry))
      return sendOAuthError(
        reply,
        oauthError(
          'temporarily_unavailable',
          `at most ${registrationsPerHour} registrations per hour from one address; retry in ${retry} s`,
        ),
        429,
      )
    }
    const parsed = registrationSchema.safeParse(request.body ?? {})
    if (!parsed.success) {
      request.audit.errorCode = 'invalid_client_metadata'
      const issue = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')
      const code = parsed.error.issues.some((i) => i.path[0] === 'redirect_uris')
        ? 'invalid_redirect_uri'
        : 'invalid_client_metadata'
      return sendOAuthError(reply, oauthError(code, issue))
    }
    const body = parsed.data
    const kept: string[] = []
    for (const uri of body.redirect_uris) {
      const checked = privateRedirectHost(uri)
        ? { ok: false as const, message: 'a redirect URI may not point at a private network address' }
        : validateRedirectUri(uri)
      if (checked.ok) kept.push(uri)
      else if (!droppable(uri)) {
        request.audit.errorCode = 'invalid_redirect_uri'
        return sendOAuthError(reply, oauthError('invalid_redirect_uri', `${uri}: ${checked.message}`))
      }
    }
    if (kept.length === 0) {
      request.audit.errorCode = 'invalid_redirect_uri'
      return sendOAuthError(
        reply,
        oauthError(
          'invalid_redirect_uri',
          'none of the redirect URIs is accepted: use https, http on loopback, or a private-use scheme in reverse-domain form (com.example.app:/callback)',
        ),
      )
    }
    const confidential = body.token_endpoint_auth_method !== 'none'
    const clientId = `${CLIENT_ID_PREFIX}${base62(24)}`
    const secret = confidential ? `${CLIENT_SECRET_PREFIX}${base62(43)}` : null
    const name = body.client_name ?? 'Unnamed app'
    const redirectUris = [...new Set(kept)]
    const now = services.clock()
    const metadata = {
      client_name: name,
      redirect_uris: redirectUris,
      token_endpoint_auth_method: body.token_endpoint_auth_method,
      grant_types: body.grant_types,
      response_types: body.response_types,
    }
    await services.db
      .insertInto('oauth_clients')
      .values({
        client_id: clientId,
        kind: 'registered',
        client_name: name,
        client_secret_hash: secret ? hashCredential(secret) : null,
        token_endpoint_auth_method: body.token_endpoint_auth_method,
        redirect_uris: redirectUris,
        metadata: JSON.stringify(metadata),
        registered_from: request.ip,
        created_at: now,
      })
      .execute()
    request.audit.credentialId = clientId
    return reply
      .code(201)
      .type('application/json; charset=utf-8')
      .send({
        client_id: clientId,
        ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
        client_id_issued_at: Math.floor(now.getTime() / 1000),
        ...metadata,
      })
  })
}
