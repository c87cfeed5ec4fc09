import { z } from 'zod'
import { themeDocumentSchema } from '../theme/document.ts'
import { SECTION_TYPES, sectionSchema } from '../theme/sections.ts'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { Caller } from '../auth/caller.ts'
import { errorEnvelope, zodIssues, type AppError, type Issue } from '../errors.ts'
import { operations } from '../operations/catalog.ts'
import { invoke, splitToolArguments, toolInputSchema } from '../operations/invoke.ts'
import type { McpToolSpec, OperationDefinition } from '../operations/operation.ts'
import { paginationSchema } from '../queries/pagination.ts'
import type { Services } from '../services.ts'

// The 32 MCP tools, generated from the operation catalog: each tool is its REST twin's
// operation (same scopes, same zod input schemas, same `run`) with the MCP spec's name,
// title, description and annotations.

type Json = Record<string, unknown>

export type McpTool = {
  name: string
  op: OperationDefinition
  spec: McpToolSpec
  definition: Tool
  // Keys of the REST input that MCP does not take (the multipart `file` part).
  excluded: readonly string[]
  // Path and query parameter names (for operations without a body).
  known: ReadonlySet<string>
}

// Output schemas name the theme document and its sections instead of repeating their full schema
// (17 section definitions) in every theme tool: agents load tool lists into their context, and
// that schema is one get_theme_schema call away (the workflow asks for it once per session).
const COMPACT = new Map<unknown, Record<string, unknown>>([
  [
    themeDocumentSchema,
    {
      type: 'object',
      required: ['version', 'theme', 'navigation', 'templates', 'pages'],
      description: 'The theme document: version, theme (tokens), navigation, templates { home, product, collection, blogPost } and pages, each layout a list of sections. Its full schema: get_theme_schema (or the storefront://schema resource).',
    },
  ],
  [
    sectionSchema,
    {
      type: 'object',
      required: ['id', 'type', 'settings'],
      properties: { id: { type: 'string' }, type: { enum: [...SECTION_TYPES] }, settings: { type: 'object' }, blocks: { type: 'array', items: { type: 'object' } } },
      description: 'A section. The settings and blocks of each type: get_theme_schema.',
    },
  ],
])
const compact = (ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) => {
  const replacement = COMPACT.get(ctx.zodSchema)
  if (!replacement) return
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key]
  Object.assign(ctx.jsonSchema, replacement)
}

// Definitions nothing refers to any more (after compacting) are dropped.
function pruneDefinitions(schema: Json): Json {
  const defs = schema.$defs as Record<string, unknown> | undefined
  if (!defs) return schema
  const used = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
        const name = value.slice('#/$defs/'.length)
        if (!used.has(name)) {
          used.add(name)
          visit(defs[name])
        }
      } else if (key !== '$defs') visit(value)
    }
  }
  visit(schema)
  const { $defs: _unused, ...rest } = schema
  return used.size > 0 ? { ...rest, $defs: Object.fromEntries(Object.entries(defs).filter(([name]) => used.has(name))) } : rest
}

export const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', ...(io === 'output' ? { override: compact } : {}) }) as Json
  const out = io === 'output' ? pruneDefinitions(generated) : generated
  // 2020-12 is MCP's default dialect; without "$schema" draft-07 validators (the SDK
  // client's Ajv) compile the schemas too.
  delete out.$schema
  return out
}

// What a failed call carries in structuredContent (and, as JSON, in its text block): the
// REST error envelope, code and message identical to REST.
export const toolErrorSchema = z.strictObject({
  error: z.strictObject({
    code: z.string().meta({ description: 'The REST error code, e.g. VALIDATION_FAILED, INVALID_PRODUCT_REFERENCE, NOT_FOUND, INSUFFICIENT_SCOPE, THEME_NOT_EDITABLE, VERSION_CONFLICT.' }),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional().meta({ description: 'issues [{ path, code, message, hint? }], hint, requiredScopes/grantedScopes, currentVersion — as in REST.' }),
    requestId: z.string(),
  }),
})
const TOOL_ERROR_JSON = jsonSchema(toolErrorSchema, 'output')

// Paginated lists: structuredContent is the REST `data` object with the REST `pagination`
// object beside its list ({ products: [...], pagination: { nextCursor, hasMore, limit } }).
export const structuredDataSchema = (op: OperationDefinition): z.ZodType => (op.paginated ? (op.data as z.ZodObject).extend({ pagination: paginationSchema }) : op.data)

// The output schema admits the success shape and the error shape. A tool error carries
// structuredContent { error }, and SDK v1 clients validate structuredContent against the
// output schema even when isError is true (typescript-sdk issue #1943).
function outputSchemaOf(op: OperationDefinition): Tool['outputSchema'] {
  const { $defs, ...data } = jsonSchema(structuredDataSchema(op), 'output')
  return {
    type: 'object',
    description: `On success: the data of the REST response of ${op.operationId}${op.paginated ? ', with its pagination object as `pagination`' : ''}. On failure (isError: true): { error: { code, message, details?, requestId } }.`,
    anyOf: [data, TOOL_ERROR_JSON],
    ...($defs ? { $defs } : {}),
  } as Tool['outputSchema']
}

function buildTool(op: OperationDefinition, spec: McpToolSpec): McpTool {
  const excluded = op.multipart ? ['file'] : []
  const full = toolInputSchema(op)
  const input = excluded.length > 0 ? z.strictObject(Object.fromEntries(Object.entries(full.shape).filter(([k]) => !excluded.includes(k)))) : full
  const scopes = op.scopes.length > 1 ? `Required scopes (all of them): ${op.scopes.join(', ')}.` : `Required scope: ${op.scopes[0]}.`
  const definition: Tool = {
    name: spec.name,
    title: spec.title,
    description: `${spec.description}\n\n${scopes}`,
    inputSchema: jsonSchema(input, 'input') as Tool['inputSchema'],
    outputSchema: outputSchemaOf(op),
    annotations: { title: spec.title, ...spec.annotations },
  }
  const known = new Set([...Object.keys(op.params?.shape ?? {}), ...Object.keys(op.query?.shape ?? {})])
  return { name: spec.name, op, spec, definition, excluded, known }
}

export const tools: readonly McpTool[] = operations.flatMap((op) => (op.mcp ? (Array.isArray(op.mcp) ? op.mcp : [op.mcp]).map((spec) => buildTool(op, spec)) : []))
export const toolByName: ReadonlyMap<string, McpTool> = new Map(tools.map((t) => [t.name, t]))
export const toolDefinitions: Tool[] = tools.map((t) => t.definition)

export function toolError(error: AppError, requestId: string): CallToolResult {
  const structured = errorEnvelope(error, requestId)
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }
}

// Arguments the REST twin would not read: the advertised input schema has
// additionalProperties: false, so they are reported, not silently dropped.
const NO_KEYS = z.strictObject({})
function extraArgumentIssues(tool: McpTool, args: Record<string, unknown>): Issue[] {
  const issues: Issue[] = []
  for (const key of tool.excluded) {
    if (key in args) issues.push({ path: key, code: 'VALIDATION_FAILED', message: `${key} is a multipart upload field of the REST API; over MCP send dataBase64 (base64 image bytes) or url` })
  }
  // With a body, its strict schema already reports unknown keys (splitToolArguments puts them there).
  if (!tool.op.body) {
    const extra = Object.keys(args).filter((k) => !tool.known.has(k))
    if (extra.length > 0) {
      const strict = NO_KEYS.safeParse(Object.fromEntries(extra.map((k) => [k, args[k]])))
      if (!strict.success) issues.push(...zodIssues(strict.error))
    }
  }
  return issues
}

export type CallObserver = (event: { operationId: string; errorCode?: string | undefined }) => void

// tools/call: `invoke` with MCP's own argument checks; a failure is a tool result, not an HTTP error.
export async function callTool(tool: McpTool, args: Record<string, unknown>, caller: Caller, services: Services, observe?: CallObserver): Promise<CallToolResult> {
  const op = tool.op
  const without = tool.excluded.length > 0 ? Object.fromEntries(Object.entries(args).filter(([k]) => !tool.excluded.includes(k))) : args
  const outcome = await invoke(op, services, {
    authentication: { ok: true, caller },
    input: splitToolArguments(op, without),
    argumentIssues: extraArgumentIssues(tool, args),
    logError: (error) => services.logger.error({ err: error, requestId: caller.requestId, tool: tool.name }, 'MCP tool failed'),
  })
  if (!outcome.ok) {
    observe?.({ operationId: op.operationId, errorCode: outcome.error.code })
    return toolError(outcome.error, caller.requestId)
  }
  observe?.({ operationId: op.operationId })
  const structured = (outcome.pagination ? { ...(outcome.data as Json), pagination: outcome.pagination } : outcome.data) as Json
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }
}
