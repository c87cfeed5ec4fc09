import { redirectUriMatches } from '../auth/redirect-uri.ts'
import { oauthResources } from '../auth/oauth-access.ts'
import type { Services } from '../services.ts'
import { findClient, type OAuthClient } from './clients.ts'
import type { OAuthErrorCode } from '../operations/oauth/oauth-error.ts'
import { validChallenge } from '../operations/oauth/pkce.ts'
import { parseScope } from '../operations/oauth/scope-parameter.ts'

// GET /oauth/authorize, checked in the order RFC 6749 §4.1.2.1 asks: the client and its redirect
// URI first (a failure there is shown to the merchant, never sent to an unverified address),
// then everything else (sent back to the client with error, error_description, state and iss).

export type AuthorizationRequest = {
  client: OAuthClient
  redirectUri: string
  state: string
  codeChallenge: string
  scopes: string[]
  resource: string
}

export type Checked =
  | { ok: true; request: AuthorizationRequest }
  | { ok: false; kind: 'page'; title: string; message: string; status?: 400 | 429; retryAfterSeconds?: number }
  | {
      ok: false
      kind: 'redirect'
      client: OAuthClient
      redirectUri: string
      state: string | undefined
      error: OAuthErrorCode
      description: string
    }

const PARAMETERS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const

export async function checkAuthorizationRequest(
  services: Services,
  rawQuery: string,
  mayFetch?: Parameters<typeof findClient>[2],
): Promise<Checked> {
  const params = new URLSearchParams(rawQuery)
  const repeated = PARAMETERS.filter((name) => params.getAll(name).length > 1)
  const get = (name: (typeof PARAMETERS)[number]) => params.get(name) ?? undefined
  const clientId = get('client_id')
  if (!clientId)
    return {
      ok: false,
      kind: 'page',
      title: 'This link is incomplete',
      message: 'The app did not say who it is (client_id is missing). Go back to the app and connect again.',
    }
  if (repeated.includes('client_id') || repeated.includes('redirect_uri'))
    return {
      ok: false,
      kind: 'page',
      title: 'This link is not valid',
      message: 'client_id and redirect_uri must appear once.',
    }
  const found = await findClient(services, clientId, mayFetch)
  if (!found.ok && found.reason === 'fetch_limited')
    return {
      ok: false,
      kind: 'page',
      status: 429,
      retryAfterSeconds: found.retryAfterSeconds,
      title: 'Too many connection attempts',
      message: `Too many apps were looked up from your network in the last minute. Wait ${found.retryAfterSeconds} seconds and connect again.`,
    }
  if (!found.ok) {
    // One message whatever went wrong with a metadata document: the reason is in the log.
    const message =
      found.reason === 'metadata_document'
        ? "The app's description (its client metadata document) could not be fetched or is not acceptable, so it cannot connect. Go back to the app and try again later."
        : 'No app is registered with this client id. It may have been deleted; go back to the app and connect again.'
    return { ok: false, kind: 'page', title: 'Unknown app', message }
  }
  const client = found.client
  const redirectUri = get('redirect_uri')
  if (!redirectUri)
    return {
      ok: false,
      kind: 'page',
      title: 'This link is incomplete',
      message: `${client.name} did not say where to return (redirect_uri is missing).`,
    }
  if (!client.redirectUris.some((registered) => redirectUriMatches(registered, redirectUri))) {
    return {
      ok: false,
      kind: 'page',
      title: 'Unexpected return address',
      message: `${client.name} asked to return to an address it has not registered, so nothing was sent there.`,
    }
  }

  const state = get('state')
  const back = (error: OAuthErrorCode, description: string): Checked => ({
    ok: false,
    kind: 'redirect',
    client,
    redirectUri,
    state,
    error,
    description,
  })
  if (repeated.length > 0) return back('invalid_request', `parameters must not repeat: ${repeated.join(', ')}`)
  if (get('response_type') !== 'code') return back('unsupported_response_type', 'response_type must be code')
  if (state === undefined || state.length < 8 || state.length > 512)
    return back('invalid_request', 'state is required: 8 to 512 characters')
  const challenge = get('code_challenge')
  if (!challenge) return back('invalid_request', 'code_challenge is required (PKCE)')
  if (get('code_challenge_method') !== 'S256') return back('invalid_request', 'code_challenge_method must be S256')
  if (!validChallenge(challenge))
    return back('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)')
  const scope = parseScope(get('scope'))
  if (!scope.ok) return back('invalid_scope', scope.message)
  const resources = oauthResources(services.baseUrl) as readonly string[]
  const resource = get('resource') ?? `${services.baseUrl}/api/v1`
  if (!resources.includes(resource)) return back('invalid_target', `resource must be ${resources.join(' or ')}`)
  return { ok: true, request: { client, redirectUri, state, codeChallenge: challenge, scopes: scope.scopes, resource } }
}

// The client's redirect URI with the response appended (its own query is kept), plus iss (RFC 9207).
export function redirectWith(redirectUri: string, issuer: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(key, value)
  url.searchParams.append('iss', issuer)
  return url.toString()
}
