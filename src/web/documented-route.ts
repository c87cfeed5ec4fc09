import type { z } from 'zod'

// A route that is not an operation of the catalogue (MCP, OAuth) but belongs in the OpenAPI
// document. Each adapter exports its own; the composition root hands them to the REST app.
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
  responses: Record<
    string,
    { description: string; schema?: z.ZodType; contentType?: string; headers?: Record<string, unknown> }
  >
}
