import { z } from 'zod'
import { SCOPES } from '../auth/scopes.ts'
import { PROTOCOL_VERSIONS, SERVER_INFO } from './protocol.ts'
import { CONTEXT_URI, SCHEMA_URI, THEME_URI_TEMPLATE } from './resources.ts'
import { tools } from './tools.ts'
import { MCP_RESOURCE_PATH, PROTECTED_RESOURCE_METADATA_PATH, resourceMetadataUrl } from '../web/challenge.ts'

export { resourceMetadataUrl }
export const MCP_PATH = MCP_RESOURCE_PATH
export const METADATA_PATH = PROTECTED_RESOURCE_METADATA_PATH
export const RESOURCE_METADATA_PATH = `${METADATA_PATH}${MCP_PATH}`
// The challenge on a 401 from the MCP endpoint (MCP authorization spec, RFC 9728 §5.1).
export const mcpChallenge = (baseUrl: string) => `Bearer resource_metadata="${resourceMetadataUrl(baseUrl)}"`

export const JSONRPC_METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'notifications/initialized',
] as const

// RFC 9728 protected-resource metadata of the MCP endpoint.
export const protectedResourceMetadataSchema = z
  .object({
    resource: z.string().meta({ description: 'The MCP endpoint, <BASE_URL>/api/v1/mcp.' }),
    authorization_servers: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.literal('header')),
    resource_name: z.string(),
    resource_documentation: z.string(),
  })
  .meta({ description: 'OAuth 2.0 protected-resource metadata (RFC 9728).' })

export function protectedResourceMetadata(baseUrl: string): z.output<typeof protectedResourceMetadataSchema> {
  return {
    resource: `${baseUrl}${MCP_PATH}`,
    authorization_servers: [baseUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: `${SERVER_INFO.title} MCP endpoint`,
    resource_documentation: `${baseUrl}${MCP_PATH}`,
  }
}

export const discoverySchema = z
  .object({
    name: z.string(),
    title: z.string(),
    version: z.string(),
    endpoint: z.string().meta({ description: 'POST JSON-RPC 2.0 messages here.' }),
    transport: z.object({
      type: z.literal('streamable-http'),
      stateless: z.literal(true).meta({ description: 'No Mcp-Session-Id: every POST stands alone.' }),
      responses: z.literal('application/json').meta({
        description:
          'Every request is answered with one JSON body; no SSE stream (GET with Accept: text/event-stream is 405).',
      }),
      protocolVersions: z
        .array(z.string())
        .meta({ description: 'Negotiated in initialize; send the result as MCP-Protocol-Version on later requests.' }),
      methods: z.array(z.string()),
    }),
    auth: z.object({
      type: z.literal('bearer'),
      header: z.literal('Authorization'),
      credentials: z.array(z.string()),
      protectedResourceMetadata: z.string(),
      authorizationServers: z.array(z.string()),
      scopes: z.array(z.string()),
    }),
    tools: z.array(
      z.object({
        name: z.string(),
        title: z.string(),
        description: z.string(),
        requiredScopes: z.array(z.string()),
        readOnly: z.boolean(),
        operationId: z.string(),
      }),
    ),
    resources: z.array(z.object({ uri: z.string(), description: z.string() })),
    errors: z.string(),
    links: z.object({
      self: z.string(),
      toolList: z.object({ method: z.literal('POST'), href: z.string(), body: z.record(z.string(), z.unknown()) }),
      openapi: z.string(),
      protectedResourceMetadata: z.string(),
    }),
  })
  .meta({ description: 'How to connect to the MCP endpoint.' })

export function discoveryDocument(baseUrl: string): z.output<typeof discoverySchema> {
  const endpoint = `${baseUrl}${MCP_PATH}`
  return {
    name: SERVER_INFO.name,
    title: `${SERVER_INFO.title} — MCP endpoint`,
    version: SERVER_INFO.version,
    endpoint,
    transport: {
      type: 'streamable-http',
      stateless: true,
      responses: 'application/json',
      protocolVersions: [...PROTOCOL_VERSIONS],
      methods: [...JSONRPC_METHODS],
    },
    auth: {
      type: 'bearer',
      header: 'Authorization',
      credentials: ['API key (sk_live_…)', 'OAuth access token (sfat_…)'],
      protectedResourceMetadata: resourceMetadataUrl(baseUrl),
      authorizationServers: [baseUrl],
      scopes: [...SCOPES],
    },
    tools: tools.map((t) => ({
      name: t.name,
      title: t.spec.title,
      description: t.spec.description,
      requiredScopes: [...t.op.scopes],
      readOnly: t.spec.annotations.readOnlyHint === true,
      operationId: t.op.operationId,
    })),
    resources: [
      { uri: CONTEXT_URI, description: 'Store context (store:read)' },
      { uri: SCHEMA_URI, description: 'Theme schema (themes:read)' },
      { uri: THEME_URI_TEMPLATE, description: 'A theme document (themes:read)' },
    ],
    errors:
      'A failed tool call is a result with isError: true and structuredContent { error: { code, message, details?, requestId } } carrying the REST error code. Protocol faults are JSON-RPC errors: -32700 parse error, -32600 invalid request, -32601 unknown method, -32602 unknown tool or bad params, -32002 unknown resource, -32003 resource without the scope. HTTP: 401 without a valid credential (WWW-Authenticate points at the protected-resource metadata), 403 for a foreign Origin or a tools/call without a required scope (WWW-Authenticate: Bearer error="insufficient_scope", scope, resource_metadata), 400 for an unsupported MCP-Protocol-Version, 429 when rate-limited (shared with REST, per credential).',
    links: {
      self: endpoint,
      toolList: { method: 'POST', href: endpoint, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
      openapi: `${baseUrl}/api/v1/openapi.json`,
      protectedResourceMetadata: resourceMetadataUrl(baseUrl),
    },
  }
}
