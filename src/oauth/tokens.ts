import { oauthError, refused, type OAuthResult } from '../operations/oauth/oauth-error.ts'
import {
  redeemCode,
  refreshTokens,
  revokeToken,
  type GrantClient,
  type TokenResponse,
} from '../operations/oauth/tokens.ts'
import type { Services } from '../services.ts'

// The token endpoint's grant types as the form carries them: a missing parameter is the
// request's fault (invalid_request); the grant's own checks are the application's
// (src/operations/oauth/tokens.ts).

// Codes are issued by the authorization page (authorize-routes.ts), and by tests that skip it.
export { issueCode } from '../operations/oauth/tokens.ts'

export async function exchangeCode(
  services: Services,
  client: GrantClient,
  form: Record<string, string>,
  requestId: string,
): Promise<OAuthResult<TokenResponse>> {
  const { code, redirect_uri: redirectUri, code_verifier: verifier } = form
  if (!code) return refused(oauthError('invalid_request', 'code is required'))
  if (!redirectUri) return refused(oauthError('invalid_request', 'redirect_uri is required'))
  if (!verifier) return refused(oauthError('invalid_request', 'code_verifier is required (PKCE)'))
  return redeemCode(services, client, { code, redirectUri, verifier, resource: form.resource }, requestId)
}

export async function refresh(
  services: Services,
  client: GrantClient,
  form: Record<string, string>,
  requestId: string,
): Promise<OAuthResult<TokenResponse>> {
  const token = form.refresh_token
  if (!token) return refused(oauthError('invalid_request', 'refresh_token is required'))
  return refreshTokens(services, client, { refreshToken: token, scope: form.scope, resource: form.resource }, requestId)
}

export async function revoke(
  services: Services,
  client: GrantClient,
  form: Record<string, string>,
  requestId: string,
): Promise<OAuthResult<null>> {
  const token = form.token
  if (!token) return refused(oauthError('invalid_request', 'token is required'))
  return revokeToken(services, client, token, requestId)
}
