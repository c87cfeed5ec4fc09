import type { FastifyInstance } from 'fastify'
import type { Services } from '../services.ts'

// MCP endpoint (issue 4): registered inside /api, rate-limited with REST.
export async function mcpApiPlugin(_app: FastifyInstance, _services: Services): Promise<void> {}
// Protected-resource metadata at the root.
export async function mcpSitePlugin(_app: FastifyInstance, _services: Services): Promise<void> {}
export const mcpRoutes: { method: string; path: string }[] = []
