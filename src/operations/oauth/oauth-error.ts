// RFC 6749 §5.2 error codes (and RFC 7591 §3.2.2, RFC 8707 §2): the authorization server's
// refusals, in the form OAuth client libraries parse (src/oauth/oauth-error.ts sends them).
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

export type OAuthResult<T> = { ok: true; value: T } | { ok: false; error: OAuthError }

export const refused = (error: OAuthError): { ok: false; error: OAuthError } => ({ ok: false, error })
