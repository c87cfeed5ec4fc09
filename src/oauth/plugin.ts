import type { FastifyInstance } from 'fastify'
import type { Services } from '../services.ts'
import { AS_METADATA_PATH, authorizationServerMetadata, REGISTER_PATH, REVOKE_PATH, TOKEN_PATH } from './metadata.ts'
import { registerAuthorizeRoutes } from './authorize-routes.ts'
import { merchantSessions } from './merchant-sessions.ts'
import { registerTokenRoutes } from './token-routes.ts'
export { oauthDocumentedRoutes } from './openapi-routes.ts'

// The authorization server. Its API endpoints (token, revocation, registration) sit inside /api,
// rate-limited like the rest; the authorization page and the metadata sit at the root.
export async function oauthApiPlugin(api: FastifyInstance, services: Services): Promise<void> {
  await registerTokenRoutes(api, services)
}

// The authorization page, signed in through the merchant's real session (src/auth).
export async function oauthSitePlugin(app: FastifyInstance, services: Services): Promise<void> {
  const metadata = authorizationServerMetadata(services.baseUrl, services.config.oauth.dynamicRegistration)
  app.get(AS_METADATA_PATH, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*').send(metadata),
  )
  await registerAuthorizeRoutes(app, services, merchantSessions(services))
}

export const oauthRoutes: { method: string; path: string }[] = [
  { method: 'POST', path: TOKEN_PATH },
  { method: 'POST', path: REVOKE_PATH },
  { method: 'POST', path: REGISTER_PATH },
]
