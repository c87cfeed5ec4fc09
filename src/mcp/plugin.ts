import type { FastifyInstance } from 'fastify'
import type { Services } from '../services.ts'
import { MCP_PATH } from './discovery.ts'
import { registerMcpEndpoint, registerProtectedResourceMetadata } from './http.ts'
export { mcpDocumentedRoutes } from './openapi-routes.ts'

// MCP endpoint (issue 4): registered inside /api, rate-limited with REST.
export async function mcpApiPlugin(app: FastifyInstance, services: Services): Promise<void> {
  await registerMcpEndpoint(app, services)
}
// Protected-resource metadata at the root.
export async function mcpSitePlugin(app: FastifyInstance, services: Services): Promise<void> {
  await registerProtectedResourceMetadata(app, services)
}
// For the API's 405 handling (DELETE /api/v1/mcp is 405 with Allow: POST, GET, HEAD).
export const mcpRoutes: { method: string; path: string }[] = [
  { method: 'POST', path: MCP_PATH },
  { method: 'GET', path: MCP_PATH },
]
