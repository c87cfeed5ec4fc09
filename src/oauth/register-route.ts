import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { validateRedirectUri } from '../auth/redirect-uri.ts'
import { registerClient } from '../operations/oauth/clients.ts'
import { oauthError } from '../operations/oauth/oauth-error.ts'
import { registrationsFrom } from '../queries/oauth/clients.ts'
import type { Services } from '../services.ts'
import { privateRedirectHost } from './metadata-document.ts'
import { REGISTER_PATH } from './metadata.ts'
import { sendOAuthError } from './oauth-error.ts'
import { unstorablePath } from './storable-text.ts'

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

export const REGISTRATION_BODY_LIMIT = 64 * 1024

export async function registerRegistrationRoute(api: FastifyInstance, services: Services): Promise<void> {
  const { dynamicRegistration, registrationsPerHour } = services.config.oauth
  // A registration is a few hundred bytes; 64 KiB holds ten 2 KiB redirect URIs with room to spare.
  api.post(REGISTER_PATH, { bodyLimit: REGISTRATION_BODY_LIMIT }, async (request, reply) => {
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
    const recent = await registrationsFrom(services.db, request.ip, hourAgo)
    if (recent.count >= registrationsPerHour) {
      request.audit.errorCode = 'RATE_LIMITED'
      const retry = recent.oldest
        ? Math.max(1, Math.ceil((recent.oldest.getTime() + 3600_000 - services.clock().getTime()) / 1000))
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
    const unstorable = unstorablePath(request.body)
    if (unstorable !== null) {
      request.audit.errorCode = 'invalid_client_metadata'
      return sendOAuthError(
        reply,
        oauthError(
          'invalid_client_metadata',
          `${unstorable}: contains a NUL character or a lone UTF-16 surrogate (not valid text)`,
        ),
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
    const registered = await registerClient(services, {
      name: body.client_name ?? 'Unnamed app',
      redirectUris: [...new Set(kept)],
      tokenEndpointAuthMethod: body.token_endpoint_auth_method,
      grantTypes: body.grant_types,
      responseTypes: body.response_types,
      registeredFrom: request.ip,
    })
    request.audit.credentialId = registered.clientId
    return reply
      .code(201)
      .type('application/json; charset=utf-8')
      .send({
        client_id: registered.clientId,
        ...(registered.secret ? { client_secret: registered.secret, client_secret_expires_at: 0 } : {}),
        client_id_issued_at: Math.floor(registered.issuedAt.getTime() / 1000),
        ...registered.metadata,
      })
  })
}
