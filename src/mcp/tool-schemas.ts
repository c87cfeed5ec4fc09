import { z } from 'zod'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { OperationDefinition } from '../operations/operation.ts'
import { paginationSchema } from '../queries/pagination.ts'
import { themeDocumentSchema } from '../theme/document.ts'

// The JSON Schemas of the MCP tools, derived from the operations' zod schemas. Agents load the
// whole tool list into their context on every session, so it has a byte budget (48,000 bytes
// for tools/list, test/mcp/tool-list-budget.e2e.test.ts):
// - input schemas are complete (every property, constraint and description zod gives), minus
//   what JSON Schema already implies (string property names, ±2^53 integer bounds);
// - output schemas describe the top level only (each property's JSON type), name where the
//   full shape is (the theme schema resource, the OpenAPI operation), and admit the error shape.

type Json = Record<string, unknown>

export const THEME_SCHEMA_RESOURCE = 'storefront://schema'

const SAFE = Number.MAX_SAFE_INTEGER
const isEmptyObject = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0

// What JSON Schema already implies, dropped: `propertyNames: { type: string }` (names are
// strings), `additionalProperties: {}` (the default), z.int()'s ±2^53-1 bounds. A description
// is given once per tool: apply_theme_batch repeats the section schema in five operations, and
// the agent reads the whole schema anyway.
function withoutImplied(node: unknown, described = new Set<string>()): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutImplied(item, described))
  if (!node || typeof node !== 'object') return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue
    if (key === 'propertyNames' && (value as Json).type === 'string' && Object.keys(value as Json).length === 1)
      continue
    if (key === 'additionalProperties' && isEmptyObject(value)) continue
    if ((key === 'maximum' && value === SAFE) || (key === 'minimum' && value === -SAFE)) continue
    if (key === 'description' && typeof value === 'string') {
      if (described.has(value)) continue
      described.add(value)
    }
    out[key] = withoutImplied(value, described)
  }
  return out
}

// 2020-12 is MCP's default dialect; without "$schema" draft-07 validators (the SDK client's
// Ajv) compile the schemas too.
export const inputJsonSchema = (schema: z.ZodType): Tool['inputSchema'] =>
  withoutImplied(
    z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }),
  ) as Tool['inputSchema']

// The theme document, wherever it appears in an output, is named rather than expanded.
const DOCUMENT_NOTE = `theme document; its schema: get_theme_schema or ${THEME_SCHEMA_RESOURCE}`
const nameDocument = (ctx: { zodSchema: unknown; jsonSchema: Json }) => {
  if (ctx.zodSchema !== themeDocumentSchema) return
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key]
  Object.assign(ctx.jsonSchema, { type: 'object', description: DOCUMENT_NOTE })
}

const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'])

// A property reduced to its JSON type(s); small enums and constants are kept (they are the
// values an agent branches on), and the theme document keeps its pointer to the full schema.
function shallow(node: Json, defs: Record<string, Json>): Json {
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/'))
    return shallow({ ...defs[node.$ref.slice(8)], ...node, $ref: undefined }, defs)
  const out: Json = {}
  if (node.description === DOCUMENT_NOTE) out.description = DOCUMENT_NOTE
  if (node.const !== undefined) return { ...out, const: node.const }
  if (Array.isArray(node.enum) && node.enum.length <= 8) return { ...out, enum: node.enum }
  const types = new Set<string>()
  const collect = (n: Json): boolean => {
    if (typeof n.$ref === 'string') return collect(defs[n.$ref.slice(8)] ?? {})
    if (typeof n.type === 'string' || Array.isArray(n.type)) {
      for (const x of [n.type].flat()) types.add(String(x))
      return true
    }
    const branches = (n.anyOf ?? n.oneOf) as Json[] | undefined
    if (Array.isArray(branches)) return branches.every(collect)
    if (n.const !== undefined) {
      types.add(n.const === null ? 'null' : typeof n.const)
      return true
    }
    return false
  }
  // A type that cannot be named in one word (any value) stays unconstrained.
  if (!collect(node) || [...types].some((x) => !JSON_TYPES.has(x))) return out
  const list = [...types]
  return { ...out, type: list.length === 1 ? list[0] : list }
}

// What a failed call carries in structuredContent (and, as JSON, in its text block): the REST
// error envelope. SDK v1 clients validate structuredContent against the output schema even when
// isError is true (typescript-sdk issue #1943); the output schemas name no required property and
// forbid no other one, so { error } conforms to every one of them.
export const toolErrorSchema = z.strictObject({
  error: z.strictObject({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    requestId: z.string(),
  }),
})

// Paginated lists: structuredContent is the REST `data` object with the REST `pagination`
// object beside its list ({ products: [...], pagination: { nextCursor, hasMore, limit } }).
export const structuredDataSchema = (op: OperationDefinition): z.ZodType =>
  op.paginated ? (op.data as z.ZodObject).extend({ pagination: paginationSchema }) : op.data

export function outputJsonSchema(op: OperationDefinition): Tool['outputSchema'] {
  const full = z.toJSONSchema(structuredDataSchema(op), {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: nameDocument,
  }) as Json
  const defs = (full.$defs ?? {}) as Record<string, Json>
  const properties = Object.entries((full.properties ?? {}) as Record<string, Json>)
  return {
    type: 'object',
    description: `REST ${op.operationId} data${op.paginated ? ' + pagination' : ''}, top level`,
    ...(properties.length > 0
      ? { properties: Object.fromEntries(properties.map(([k, v]) => [k, shallow(v, defs)])) }
      : {}),
  } as Tool['outputSchema']
}
