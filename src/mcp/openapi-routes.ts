import { z } from 'zod'
import type { DocumentedRoute } from '../web/documented-route.ts'
import { discoverySchema, JSONRPC_METHODS, MCP_PATH } from './discovery.ts'
import { PROTOCOL_VERSIONS } from './protocol.ts'
import { tools } from './tools.ts'

// The two MCP routes in the OpenAPI document (they are not operations of the catalogue).

const id = z
  .union([z.string(), z.int()])
  .meta({ description: 'Request id (string or integer, never null); absent on notifications.' })

const jsonRpcMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: id.optional(),
    method: z.string().meta({ description: `One of ${JSONRPC_METHODS.join(', ')}.`, examples: ['tools/call'] }),
    params: z.record(z.string(), z.unknown()).optional().meta({
      description:
        'tools/call: { name, arguments }; resources/read: { uri }; initialize: { protocolVersion, capabilities, clientInfo }.',
    }),
  })
  .meta({ description: 'A JSON-RPC 2.0 request or notification. A batch (array) is accepted for protocol 2025-03-26.' })

const jsonRpcResponse = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: id.nullable(),
    result: z.record(z.string(), z.unknown()).optional().meta({
      description:
        'tools/call: { content: [{ type: "text", text }], structuredContent, isError? }. structuredContent is the REST data (paginated lists add `pagination`); a failure has isError: true and structuredContent { error: { code, message, details?, requestId } }.',
    }),
    error: z
      .object({
        code: z.int().meta({
          description:
            '-32700 parse error, -32600 invalid request, -32601 unknown method, -32602 unknown tool or bad params, -32002 unknown resource, -32003 resource without the scope.',
        }),
        message: z.string(),
        data: z
          .record(z.string(), z.unknown())
          .optional()
          .meta({ description: 'requestId, and for resource errors the REST error code.' }),
      })
      .optional(),
  })
  .meta({ description: 'A JSON-RPC 2.0 response (an array of them for a batch).' })

const toolNames = tools.map((t) => t.name).join(', ')

const mcpJsonRpcRoute: DocumentedRoute = {
  operationId: 'mcpJsonRpc',
  method: 'POST',
  path: MCP_PATH,
  tag: 'MCP',
  summary: 'MCP endpoint (JSON-RPC 2.0, Streamable HTTP, stateless)',
  description: `Model Context Protocol over Streamable HTTP, stateless (no Mcp-Session-Id), every request answered with one JSON body. Protocol versions ${PROTOCOL_VERSIONS.join(', ')} (negotiated in initialize; send MCP-Protocol-Version afterwards; another value is 400 UNSUPPORTED_PROTOCOL_VERSION). Methods: ${JSONRPC_METHODS.join(', ')}. Notifications are answered 202 with no body.\n\nTools (${tools.length}), each the MCP twin of a REST operation with the same scopes, input and errors: ${toolNames}. Resources: storefront://context, storefront://schema, storefront://themes/{id}.\n\nA missing or bad credential is 401 with WWW-Authenticate: Bearer resource_metadata="<base>/.well-known/oauth-protected-resource/api/v1/mcp". A browser Origin other than the service's own or a loopback one is 403 FORBIDDEN_ORIGIN. The rate limit is the REST one, shared per credential; every message of a batch counts, and a batch that goes past the budget runs none of its messages (429, a JSON-RPC error -32029 per request, by id). Batches are accepted under 2025-03-26 only (also the version of a request without MCP-Protocol-Version); under 2025-06-18 and 2025-11-25 a batch is -32600. No Idempotency-Key.`,
  security: true,
  parameters: [
    {
      name: 'MCP-Protocol-Version',
      in: 'header',
      required: false,
      description: 'The version negotiated in initialize (2025-03-26 when absent).',
      schema: { type: 'string', enum: [...PROTOCOL_VERSIONS] },
    },
    {
      name: 'Origin',
      in: 'header',
      required: false,
      description: 'When present: the service’s own origin or a loopback origin.',
      schema: { type: 'string' },
    },
  ],
  requestBody: { contentType: 'application/json', schema: z.union([jsonRpcMessage, z.array(jsonRpcMessage).min(1)]) },
  responses: {
    '200': {
      description:
        'JSON-RPC response(s). Tool failures are results with isError: true; unknown methods, unknown tools and bad params are JSON-RPC errors.',
      schema: z.union([jsonRpcResponse, z.array(jsonRpcResponse)]),
    },
    '202': { description: 'Notifications (or responses) only: accepted, no body.' },
    '400': {
      description:
        'JSON-RPC -32700 (body not JSON, id null) or -32600 (not a JSON-RPC message); or the error envelope UNSUPPORTED_PROTOCOL_VERSION, or VALIDATION_FAILED for a body that is not well-formed UTF-8.',
      schema: z.union([
        jsonRpcResponse,
        z.object({
          error: z.object({
            code: z.string(),
            message: z.string(),
            details: z.record(z.string(), z.unknown()).optional(),
            requestId: z.string(),
          }),
        }),
      ]),
    },
    '401': {
      description: 'UNAUTHENTICATED (error envelope) with WWW-Authenticate: Bearer resource_metadata="…".',
      schema: z.object({
        error: z.object({ code: z.literal('UNAUTHENTICATED'), message: z.string(), requestId: z.string() }),
      }),
      headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
    },
    '403': {
      description:
        'Error envelope. FORBIDDEN_ORIGIN: a browser Origin that is neither the service’s nor loopback. INSUFFICIENT_SCOPE: a tools/call whose tool needs a scope the credential lacks, with WWW-Authenticate: Bearer error="insufficient_scope", scope="…", resource_metadata="…" (step up and retry).',
      schema: z.object({
        error: z.object({
          code: z.enum(['FORBIDDEN_ORIGIN', 'INSUFFICIENT_SCOPE']),
          message: z.string(),
          details: z.record(z.string(), z.unknown()).optional(),
          requestId: z.string(),
        }),
      }),
      headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
    },
  },
}

const mcpDiscoveryRoute: DocumentedRoute = {
  operationId: 'mcpDiscovery',
  method: 'GET',
  path: MCP_PATH,
  tag: 'MCP',
  summary: 'MCP endpoint discovery',
  description:
    'A JSON document describing the MCP endpoint: transport, protocol versions, authentication (with the RFC 9728 protected-resource metadata URL), the tools with their scopes, the resources, and links to the tool list and this OpenAPI document. A client asking for text/event-stream gets 405 with Allow: POST (the endpoint is stateless and opens no SSE stream).',
  security: false,
  parameters: [
    {
      name: 'Accept',
      in: 'header',
      required: false,
      description: 'text/event-stream is refused with 405.',
      schema: { type: 'string' },
    },
  ],
  responses: {
    '200': { description: 'Discovery document.', schema: discoverySchema },
    '405': {
      description: 'METHOD_NOT_ALLOWED: an SSE stream was asked for. Allow: POST.',
      schema: z.object({
        error: z.object({ code: z.literal('METHOD_NOT_ALLOWED'), message: z.string(), requestId: z.string() }),
      }),
      headers: { Allow: { description: 'POST', schema: { type: 'string' } } },
    },
  },
}

export const mcpDocumentedRoutes: readonly DocumentedRoute[] = [mcpJsonRpcRoute, mcpDiscoveryRoute]
