import { z } from 'zod'
import type { DocumentedRoute } from '../web/documented-route.ts'

// The OAuth endpoints in the OpenAPI document (the composition root hands them to the REST app). Their errors are RFC 6749
// §5.2 objects, the one exception to the { error: { code, … } } envelope, because every OAuth
// client library parses that form.
const oauthErrorSchema = z
  .object({
    error: z.string().meta({
      description:
        'invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope, invalid_target, invalid_redirect_uri, invalid_client_metadata',
    }),
    error_description: z.string(),
  })
  .meta({ description: 'RFC 6749 §5.2 error (not the API envelope).' })
const errors = {
  '400': {
    description: 'RFC 6749 error (invalid_request, invalid_grant, invalid_scope, …).',
    schema: oauthErrorSchema,
  },
  '401': {
    description: 'invalid_client, with WWW-Authenticate: Basic. A client that registered itself should register again.',
    schema: oauthErrorSchema,
  },
  '413': { description: 'invalid_request: the body is larger than 64 KiB.', schema: oauthErrorSchema },
}
const clientAuth = {
  client_id: z.string().optional().meta({ description: 'Required unless sent with HTTP Basic (client_secret_basic).' }),
  client_secret: z.string().optional().meta({ description: 'client_secret_post; confidential clients only.' }),
}
const tokenSchema = z.object({
  access_token: z.string().meta({ description: 'sfat_…, 1 hour' }),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string().meta({ description: 'sfrt_…, 30 days, rotated on every use' }),
  scope: z.string(),
})

const tokenRoute: DocumentedRoute = {
  operationId: 'oauthToken',
  method: 'POST',
  path: '/api/oauth/token',
  tag: 'OAuth',
  summary: 'Exchange an authorization code, or refresh a token',
  description:
    'grant_type=authorization_code (code, redirect_uri, code_verifier; PKCE S256) or refresh_token (refresh_token, optional narrower scope). Client authentication: client_secret_basic, client_secret_post, or none for public clients. Optional resource (RFC 8707): <BASE_URL>/api/v1/mcp or <BASE_URL>/api/v1. Codes are single-use and live 5 minutes; a second use revokes the tokens issued from it. Refresh tokens rotate on every use; the previous one still works for 60 seconds, later it revokes the whole grant. Responses carry Cache-Control: no-store.\n\nIdempotency-Key is accepted and checked (8 to 256 printable ASCII characters, else 400 invalid_request) but never replayed: replaying would mean storing the tokens, which are kept only as hashes. A retried request gets what the grant rules give it: a refresh retried within 60 seconds gets a valid new pair; a code is single-use, so a retried exchange is invalid_grant and revokes the tokens issued from it (start the authorization again).',
  security: false,
  parameters: [
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Checked (8 to 256 printable ASCII characters), never replayed: tokens are never stored in clear. See the description.',
      schema: { type: 'string', minLength: 8, maxLength: 256 },
    },
  ],
  requestBody: {
    contentType: 'application/x-www-form-urlencoded',
    schema: z.object({
      grant_type: z.enum(['authorization_code', 'refresh_token']),
      code: z.string().optional(),
      redirect_uri: z.string().optional(),
      code_verifier: z.string().optional(),
      refresh_token: z.string().optional(),
      scope: z.string().optional(),
      resource: z.string().optional(),
      ...clientAuth,
    }),
  },
  responses: { '200': { description: 'Tokens.', schema: tokenSchema }, ...errors },
}

const revokeRoute: DocumentedRoute = {
  operationId: 'oauthRevoke',
  method: 'POST',
  path: '/api/oauth/revoke',
  tag: 'OAuth',
  summary: 'Revoke a token (RFC 7009)',
  description:
    'A refresh token ends the whole grant; an access token ends alone. An unknown token is a 200 that changes nothing. Same client authentication as the token endpoint.',
  security: false,
  requestBody: {
    contentType: 'application/x-www-form-urlencoded',
    schema: z.object({
      token: z.string(),
      token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
      ...clientAuth,
    }),
  },
  responses: { '200': { description: 'Revoked (or unknown).' }, ...errors },
}

const registerRoute: DocumentedRoute = {
  operationId: 'oauthRegister',
  method: 'POST',
  path: '/api/oauth/register',
  tag: 'OAuth',
  summary: 'Register a client (RFC 7591)',
  description:
    'Dynamic client registration, on unless OAUTH_DYNAMIC_REGISTRATION=off. token_endpoint_auth_method none (public; the default) or client_secret_basic / client_secret_post (a client_secret sfcs_… is returned once). Redirect URIs follow the dashboard rules: https, http on loopback only, or a private-use scheme in reverse-domain form; no fragments. Registration grants no scope: the merchant decides on the consent page, where such clients are labelled unverified. Rate-limited per client address.',
  security: false,
  requestBody: {
    contentType: 'application/json',
    schema: z.object({
      redirect_uris: z.array(z.string()).min(1).max(10),
      client_name: z.string().max(100).optional(),
      token_endpoint_auth_method: z.enum(['none', 'client_secret_basic', 'client_secret_post']).optional(),
      grant_types: z.array(z.string()).optional(),
      response_types: z.array(z.string()).optional(),
      scope: z.string().optional(),
    }),
  },
  responses: {
    '201': {
      description: 'The registered client.',
      schema: z.object({
        client_id: z.string(),
        client_secret: z.string().optional(),
        client_id_issued_at: z.number().int(),
        client_secret_expires_at: z.number().int().optional(),
        client_name: z.string(),
        redirect_uris: z.array(z.string()),
        token_endpoint_auth_method: z.string(),
        grant_types: z.array(z.string()),
        response_types: z.array(z.string()),
      }),
    },
    ...errors,
  },
}

export const oauthDocumentedRoutes: readonly DocumentedRoute[] = [tokenRoute, revokeRoute, registerRoute]
