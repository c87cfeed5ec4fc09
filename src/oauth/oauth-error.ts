import type { FastifyReply } from 'fastify'

// RFC 6749 §5.2 error codes (and RFC 7591 §3.2.2, RFC 8707 §2) the endpoints answer with.
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'temporarily_unavailable'

export type OAuthError = { error: OAuthErrorCode; error_description: string }

export const oauthError = (error: OAuthErrorCode, description: string): OAuthError => ({
  error,
  error_description: description,
})

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
