import { z } from 'zod'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { classifyError, validationError, zodIssues, type Issue } from '../http/errors.ts'
import { operations } from '../operations/catalog.ts'
import { parseInput, scopeError, splitToolArguments, toolInputSchema } from '../operations/invoke.ts'
import type { ApiError, Caller, McpToolSpec, OperationDefinition } from '../operations/operation.ts'
import type { DomainError } from '../commands/errors.ts'
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

export const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json
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

export type ToolFailure = { code: string; message: string; details?: Record<string, unknown> | undefined }

export function toolError(error: ApiError | DomainError | ToolFailure, requestId: string): CallToolResult {
  const structured = { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}), requestId } }
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

// tools/call: the REST steps in the REST order — scope check, input parsing, the operation.
export async function callTool(tool: McpTool, args: Record<string, unknown>, caller: Caller, services: Services, observe?: CallObserver): Promise<CallToolResult> {
  const op = tool.op
  const fail = (error: ApiError | DomainError | ToolFailure) => {
    observe?.({ operationId: op.operationId, errorCode: error.code })
    return toolError(error, caller.requestId)
  }
  const denied = scopeError(op, caller.scopes)
  if (denied) return fail(denied)
  const own = extraArgumentIssues(tool, args)
  const without = tool.excluded.length > 0 ? Object.fromEntries(Object.entries(args).filter(([k]) => !tool.excluded.includes(k))) : args
  const parsed = parseInput(op, splitToolArguments(op, without))
  if (!parsed.ok || own.length > 0) {
    const issues = [...own, ...(!parsed.ok ? ((parsed.error.details?.issues ?? []) as Issue[]) : [])]
    return fail(validationError(issues))
  }
  let outcome: Awaited<ReturnType<OperationDefinition['run']>>
  try {
    outcome = await op.run(parsed.input, caller, services)
  } catch (error) {
    const classified = classifyError(error as never)
    if (classified.log) services.logger.error({ err: error, requestId: caller.requestId, tool: tool.name }, 'MCP tool failed')
    return fail({ code: classified.code, message: classified.message })
  }
  if (!outcome.ok) return fail(outcome.error)
  observe?.({ operationId: op.operationId })
  const structured = (outcome.pagination ? { ...(outcome.data as Json), pagination: outcome.pagination } : outcome.data) as Json
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }
}
