import { z } from 'zod'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { Caller } from '../auth/caller.ts'
import { errorEnvelope, zodIssues, type AppError, type Issue } from '../errors.ts'
import { operations } from '../operations/catalog.ts'
import { invoke, scopeError, splitToolArguments, toolInputSchema } from '../operations/invoke.ts'
import type { McpToolSpec, OperationDefinition, Outcome } from '../operations/operation.ts'
import type { Services } from '../services.ts'
import { inputJsonSchema, outputJsonSchema } from './tool-schemas.ts'
import { mcpToolCalls } from '../metrics/registry.ts'
import { getThemeReviewOperation } from '../operations/theme-review-operation.ts'
import { publishThemeOperation } from '../operations/theme-operations.ts'
import { REVIEW_META_KEY } from './theme-review/review-meta.ts'
import { REVIEW_TOOLS, reviewToolMeta } from './theme-review/resource.ts'

// The MCP tools, generated from the operation catalog: each tool is its REST twin's
// operation (same scopes, same zod input schemas, same `run`) with the MCP spec's name,
// title, description and annotations.

type Json = Record<string, unknown>

export type McpTool = {
  name: string
  op: OperationDefinition
  spec: McpToolSpec
  readonly definition: Tool
  // Keys of the REST input that MCP does not take (the multipart `file` part).
  excluded: readonly string[]
  // Path and query parameter names (for operations without a body).
  known: ReadonlySet<string>
}

// The hints clients act on. Top-level `title` names the tool (annotations.title would repeat it);
// idempotentHint and destructiveHint mean something only for tools that write (MCP spec).
function annotationsOf(spec: McpToolSpec): Tool['annotations'] {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = spec.annotations
  return readOnlyHint
    ? { readOnlyHint, openWorldHint }
    : { readOnlyHint: false, destructiveHint, idempotentHint, openWorldHint }
}

function buildTool(op: OperationDefinition, spec: McpToolSpec): McpTool {
  const excluded = op.multipart ? ['file'] : []
  const full = toolInputSchema(op)
  const input =
    excluded.length > 0
      ? z.strictObject(Object.fromEntries(Object.entries(full.shape).filter(([k]) => !excluded.includes(k))))
      : full
  const scopes = `Scope: ${op.scopes.join(' + ')}.`
  // Made on first use (a tools/list): the JSON Schemas cost 0.12 s of start-up in every process
  // that loads the service, and most (CLIs, the REST-only test files) never list the tools.
  let definition: Tool | undefined
  const known = new Set([...Object.keys(op.params?.shape ?? {}), ...Object.keys(op.query?.shape ?? {})])
  return {
    name: spec.name,
    op,
    spec,
    get definition() {
      return (definition ??= {
        name: spec.name,
        title: spec.title,
        description: `${spec.description} ${scopes}`,
        inputSchema: inputJsonSchema(input),
        outputSchema: outputJsonSchema(op),
        annotations: annotationsOf(spec),
        ...(REVIEW_TOOLS.has(spec.name) ? { _meta: reviewToolMeta } : {}),
      })
    },
    excluded,
    known,
  }
}

export const tools: readonly McpTool[] = operations.flatMap((op) =>
  op.mcp ? (Array.isArray(op.mcp) ? op.mcp : [op.mcp]).map((spec) => buildTool(op, spec)) : [],
)
export const toolByName: ReadonlyMap<string, McpTool> = new Map(tools.map((t) => [t.name, t]))
let definitions: Tool[] | undefined
/** Every tool's definition, as tools/list gives them. */
export const toolDefinitions = (): Tool[] => (definitions ??= tools.map((t) => t.definition))

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
    if (key in args)
      issues.push({
        path: key,
        code: 'VALIDATION_FAILED',
        message: `${key} is a multipart upload field of the REST API; over MCP send dataBase64 (base64 image bytes) or url`,
      })
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

export type CallObserver = (event: { operationId: string; error?: AppError | undefined }) => void

// tools/call: `invoke` with MCP's own argument checks; a failure is a tool result, not an HTTP error.
// Both paths of src/mcp (the SDK's and fast-path.ts) come here, so the count is taken here.
export async function callTool(
  tool: McpTool,
  args: Record<string, unknown>,
  caller: Caller,
  services: Services,
  observe?: CallObserver,
): Promise<CallToolResult> {
  const op = tool.op
  const without =
    tool.excluded.length > 0
      ? Object.fromEntries(Object.entries(args).filter(([k]) => !tool.excluded.includes(k)))
      : args
  const outcome = await invoke(op, services, {
    authentication: { ok: true, caller },
    input: splitToolArguments(op, without),
    argumentIssues: extraArgumentIssues(tool, args),
    logError: (error) =>
      services.logger.error({ err: error, requestId: caller.requestId, tool: tool.name }, 'MCP tool failed'),
  })
  // The call's one report: the audit row's operation and error (observe), and the metrics' count.
  observe?.({ operationId: op.operationId, error: outcome.ok ? undefined : outcome.error })
  mcpToolCalls.inc({ tool: tool.name, outcome: outcome.ok ? 'ok' : outcome.error.code })
  if (!outcome.ok) return toolError(outcome.error, caller.requestId)
  // Data the read returned as JSON text (getTheme's document) is the text block as it is; the
  // object is parsed only if a caller asks for it (the SDK path does, the fast path splices text).
  if (outcome.json !== undefined && !outcome.pagination) {
    const text = outcome.json
    let parsed: Json | undefined
    return {
      content: [{ type: 'text', text }],
      get structuredContent(): Json {
        return (parsed ??= JSON.parse(text) as Json)
      },
    }
  }
  const structured = (
    outcome.pagination ? { ...(outcome.data as Json), pagination: outcome.pagination } : outcome.data
  ) as Json
  const result: CallToolResult = {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
  }
  if (REVIEW_TOOLS.has(tool.name) && typeof args.id === 'string') {
    const review = await themeReview(args.id, caller, services)
    if (review) result._meta = { [REVIEW_META_KEY]: review }
  }
  return result
}

// The review view's data beside a linked tool's result (src/mcp/theme-review): in `_meta`, so the
// tool's text and structured content stay what every other client gets.
async function themeReview(id: string, caller: Caller, services: Services): Promise<Json | null> {
  const outcome = (await invoke(getThemeReviewOperation as OperationDefinition, services, {
    authentication: { ok: true, caller },
    input: { params: { id } },
    logError: (error) => services.logger.error({ err: error, requestId: caller.requestId }, 'theme review failed'),
  })) as Outcome<Json>
  if (!outcome.ok) return null
  return {
    ...outcome.data,
    canPublish: scopeError(publishThemeOperation as OperationDefinition, caller.scopes) === null,
  }
}
