import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { documentRoute } from './documented-routes.ts'
import { sendError } from './errors.ts'

// The OAuth token endpoint belongs to the OAuth work, which is not built yet. Until then it exists,
// needs no bearer, and refuses every grant in the contract's envelope, so clients fail clearly.
const tokenRequestSchema = z.object({
  grant_type: z.enum(['authorization_code', 'refresh_token']),
  code: z.string().optional(),
  redirect_uri: z.string().optional(),
  code_verifier: z.string().optional(),
  refresh_token: z.string().optional(),
  client_id: z.string(),
  client_secret: z.string().optional(),
})

documentRoute({
  operationId: 'oauthToken',
  method: 'POST',
  path: '/api/oauth/token',
  tag: 'OAuth',
  summary: 'Exchange an authorization code or refresh a token',
  description: 'Code exchange (PKCE S256) and refresh with rotating refresh tokens. Not available in this version of the service: every request is refused with 400 UNSUPPORTED_GRANT_TYPE; use an API key (sk_live_…) meanwhile.',
  security: false,
  requestBody: { contentType: 'application/x-www-form-urlencoded', schema: tokenRequestSchema },
  responses: { '200': { description: 'Tokens (once OAuth is available).', schema: z.object({ access_token: z.string(), refresh_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int(), scope: z.string() }) } },
})

// Its own plugin, so the form parser applies to this route only.
export async function registerOAuthTokenRoute(parent: FastifyInstance) {
  await parent.register(async (app) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))))
  app.post('/api/oauth/token', async (request, reply) => {
    request.audit.operationId = 'oauthToken'
    request.audit.errorCode = 'UNSUPPORTED_GRANT_TYPE'
    return sendError(request, reply, 'UNSUPPORTED_GRANT_TYPE', 'OAuth authorization is not available on this service yet; use an API key (sk_live_…) as the bearer credential', { issues: [{ path: 'grant_type', code: 'UNSUPPORTED_GRANT_TYPE', message: 'no grant type is enabled' }] })
  })
  })
}
