// The MCP protocol surface this service speaks: versions, JSON-RPC error codes, and the
// structural check of an incoming message that runs before the SDK sees it.

// Newest first: an `initialize` asking for anything else is answered with the first one
// (the client then decides whether it can continue), as the lifecycle spec describes.
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number]
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = PROTOCOL_VERSIONS[0]
// A request without MCP-Protocol-Version is taken as 2025-03-26 (transport spec).
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26'
export const isSupportedVersion = (v: unknown): v is ProtocolVersion =>
  typeof v === 'string' && (PROTOCOL_VERSIONS as readonly string[]).includes(v)

export const SERVER_INFO = { name: 'storefront-theme-service', title: 'Storefront theme service', version: '1.1.0' }

export const JSONRPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  // Implementation-defined server errors (-32000..-32099). -32002 is MCP's "resource not found".
  RESOURCE_NOT_FOUND: -32002,
  FORBIDDEN: -32003,
  UNAVAILABLE: -32004,
  RATE_LIMITED: -32029,
} as const

// The versions whose Streamable HTTP transport takes one JSON-RPC message per POST (JSON-RPC
// batching was removed in 2025-06-18); 2025-03-26 still has batches.
export const BATCHING_VERSIONS: readonly ProtocolVersion[] = ['2025-03-26']

export type JsonRpcId = string | number

// An error a request handler throws to become a JSON-RPC error response. The SDK takes `code`
// and `message` as they are (McpError would prefix "MCP error <code>:" to the message).
export class RpcError extends Error {
  readonly code: number
  readonly data: Record<string, unknown> | undefined
  constructor(code: number, message: string, data?: Record<string, unknown>) {
    super(message)
    this.code = code
    this.data = data
  }
}

export type JsonRpcErrorBody = {
  jsonrpc: '2.0'
  id: JsonRpcId | null
  error: { code: number; message: string; data?: Record<string, unknown> }
}

export const rpcError = (
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): JsonRpcErrorBody => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data ? { data } : {}) },
})

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isId = (v: unknown): v is JsonRpcId => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v))

export type MessageCheck = { ok: true } | { ok: false; id: JsonRpcId | null; message: string }

// One JSON-RPC 2.0 message as MCP allows it: a request (id string or integer, never null),
// a notification (no id), or a response. params, when present, is an object.
function checkOne(m: unknown): MessageCheck {
  const fail = (message: string): MessageCheck => ({ ok: false, id: isObject(m) && isId(m.id) ? m.id : null, message })
  if (!isObject(m)) return fail('a JSON-RPC message is an object')
  if (m.jsonrpc !== '2.0') return fail('jsonrpc must be "2.0"')
  if ('method' in m) {
    if (typeof m.method !== 'string' || m.method === '') return fail('method must be a non-empty string')
    if ('id' in m && !isId(m.id)) return fail('id must be a string or an integer (not null)')
    if ('params' in m && m.params !== undefined && !isObject(m.params)) return fail('params must be an object')
    return { ok: true }
  }
  if ('result' in m || 'error' in m) {
    if (!('id' in m) || !(isId(m.id) || m.id === null)) return fail('a response carries the id of its request')
    if ('result' in m && !isObject(m.result)) return fail('result must be an object')
    if ('error' in m && !(isObject(m.error) && Number.isInteger(m.error.code) && typeof m.error.message === 'string'))
      return fail('error must be { code, message }')
    return { ok: true }
  }
  return fail('not a JSON-RPC request, notification or response (no method, result or error)')
}

// A batch (an array, allowed by 2025-03-26) must not be empty and every member must be valid.
export function checkMessage(body: unknown): MessageCheck {
  if (Array.isArray(body)) {
    if (body.length === 0) return { ok: false, id: null, message: 'an empty batch is not a JSON-RPC message' }
    for (const m of body) {
      const c = checkOne(m)
      if (!c.ok) return { ok: false, id: null, message: `batch member: ${c.message}` }
    }
    return { ok: true }
  }
  return checkOne(body)
}

export const hasRequest = (body: unknown): boolean =>
  (Array.isArray(body) ? body : [body]).some((m) => isObject(m) && 'method' in m && 'id' in m)
