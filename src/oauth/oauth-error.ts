import type { FastifyReply } from 'fastify'
import type { OAuthError } from '../operations/oauth/oauth-error.ts'

// The one exception to the service's error envelope: OAuth client libraries parse this form.
export function sendOAuthError(reply: FastifyReply, failure: OAuthError, status?: number) {
  const code = status ?? (failure.error === 'invalid_client' ? 401 : 400)
  if (code === 401) reply.header('www-authenticate', 'Basic realm="storefront-oauth", charset="UTF-8"')
  return reply
    .code(code)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .type('application/json; charset=utf-8')
    .send(failure)
}
