import type { z } from 'zod'

// Routes that are not operations of the catalog (MCP, OAuth) but belong in the OpenAPI document.
// Their adapters push their zod-described shapes here when their modules load.
export type DocumentedRoute = {
  operationId: string
  method: 'GET' | 'POST'
  path: string
  tag: string
  summary: string
  description: string
  security: boolean
  parameters?: Record<string, unknown>[]
  requestBody?: { contentType: string; schema: z.ZodType }
  responses: Record<string, { description: string; schema?: z.ZodType; contentType?: string; headers?: Record<string, unknown> }>
}

export const documentedRoutes: DocumentedRoute[] = []

export function documentRoute(route: DocumentedRoute): void {
  if (!documentedRoutes.some((r) => r.operationId === route.operationId)) documentedRoutes.push(route)
}
