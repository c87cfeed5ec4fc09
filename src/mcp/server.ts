import { z } from 'zod'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type ServerCapabilities,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js'
import type { Caller } from '../auth/caller.ts'
import type { Services } from '../services.ts'
import { isSupportedVersion, JSONRPC, LATEST_PROTOCOL_VERSION, RpcError, SERVER_INFO } from './protocol.ts'
import { listResources, listResourceTemplates, readResource } from './resources.ts'
import { callTool, toolByName, toolDefinitions, type CallObserver, type McpTool } from './tools.ts'

export const CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: false },
  resources: { subscribe: false, listChanged: false },
}

export const INSTRUCTIONS = [
  'Storefront theme service: you design private storefront themes; commerce (price, stock, cart, checkout, orders) is read-only and never part of a theme.',
  'Workflow: call get_context once (products, collections, themes and workflow.next tell you what to do); call get_theme_schema once; create_theme only when no draft exists;',
  'design with apply_theme_batch (one all-or-nothing batch rather than many single calls; reference products and collections only by ids read from get_products / get_collections);',
  'preview_theme after each round; before publishing, diff_theme from live to draft and show the merchant; publish_theme only with their explicit permission (scope themes:publish) and with expectedVersion = the version you previewed, otherwise ask the merchant to publish.',
  'A failure is a tool result with isError: true and structuredContent { error: { code, message, details } } with the REST API’s codes (INVALID_PRODUCT_REFERENCE carries a hint).',
].join(' ')

const InitializeSchema = z.object({
  method: z.literal('initialize'),
  params: InitializeRequestSchema.shape.params
    .partial({ protocolVersion: true, capabilities: true, clientInfo: true })
    .optional(),
})

type Handler = (request: { method: string; params?: unknown }) => Promise<ServerResult> | ServerResult
type SdkSchema = {
  safeParse: (
    v: unknown,
  ) =>
    | { success: true; data: unknown }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }
}

// Built once: zod compiles a schema on its first parse, which must not happen per request.
const looseSchemas = new Map<string, z.ZodType>()
const looseSchema = (method: string) => {
  let schema = looseSchemas.get(method)
  if (!schema)
    looseSchemas.set(method, (schema = z.looseObject({ method: z.literal(method), params: z.unknown().optional() })))
  return schema
}

// The request is taken loosely by the SDK and checked here against the SDK's own schema, so
// that bad params are -32602 (the SDK would answer a failed parse with -32603).
function handle<T>(
  server: Server,
  method: string,
  schema: SdkSchema,
  fn: (request: T) => Promise<ServerResult> | ServerResult,
): void {
  const loose = looseSchema(method)
  const handler: Handler = (request) => {
    // tools/call: the SDK's Server has already checked the request against CallToolRequestSchema
    // (a failure is -32602 there too); the other methods are checked here.
    if (method === 'tools/call') return fn(request as T)
    const parsed = schema.safeParse(request)
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (i) => `${['params', ...i.path.map(String).filter((p) => p !== 'params')].join('.')}: ${i.message}`,
      )
      throw new RpcError(JSONRPC.INVALID_PARAMS, `Invalid params for ${method}: ${problems.join('; ')}`)
    }
    return fn(parsed.data as T)
  }
  server.setRequestHandler(loose as never, handler as never)
}

// A tool call as both paths run it (the SDK's and the fast path of fast-path.ts): the audit
// row names the tool.
export const runToolCall = (
  tool: McpTool,
  args: Record<string, unknown>,
  mcpCaller: Caller,
  services: Services,
  observe?: CallObserver,
) => callTool(tool, args, { ...mcpCaller, tool: tool.name }, services, observe)

// A fresh server per HTTP request (stateless transport): it answers with the tools and
// resources of the caller's credential. The tool list itself is computed once at start-up.
// The SDK server would build an Ajv instance (for elicitation, which this server never uses)
// in every constructor: a quarter of the CPU of a tool call. One is shared instead.
const jsonSchemaValidator = new AjvJsonSchemaValidator()

export function createMcpServer(mcpCaller: Caller, services: Services, observe?: CallObserver): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: CAPABILITIES,
    instructions: INSTRUCTIONS,
    jsonSchemaValidator,
  })

  // Only the three versions of the contract are negotiated (the SDK would also echo 2024-*). The
  // contract lets `params` be an empty object: what is missing takes its default (the latest
  // version, no client capabilities); what is there is checked as the SDK's schema says.
  handle<z.infer<typeof InitializeSchema>>(server, 'initialize', InitializeSchema, (request) => ({
    protocolVersion: isSupportedVersion(request.params?.protocolVersion)
      ? request.params.protocolVersion
      : LATEST_PROTOCOL_VERSION,
    capabilities: CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
  }))
  handle(server, 'tools/list', ListToolsRequestSchema, () => ({ tools: toolDefinitions() }))
  handle<z.infer<typeof CallToolRequestSchema>>(server, 'tools/call', CallToolRequestSchema, (request) => {
    const tool = toolByName.get(request.params.name)
    if (!tool)
      throw new RpcError(JSONRPC.INVALID_PARAMS, `Unknown tool: ${request.params.name}`, {
        code: 'UNKNOWN_TOOL',
        tools: [...toolByName.keys()],
      })
    return runToolCall(tool, request.params.arguments ?? {}, mcpCaller, services, observe)
  })
  handle(server, 'resources/list', ListResourcesRequestSchema, () => listResources(mcpCaller, services))
  handle(server, 'resources/templates/list', ListResourceTemplatesRequestSchema, () => listResourceTemplates())
  handle<z.infer<typeof ReadResourceRequestSchema>>(server, 'resources/read', ReadResourceRequestSchema, (request) =>
    readResource(request.params.uri, mcpCaller, services),
  )
  return server
}
