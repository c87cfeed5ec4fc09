import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Caller } from '../auth/caller.ts'
import type { Services } from '../services.ts'
import { JSONRPC, type JsonRpcId } from './protocol.ts'
import { runToolCall } from './server.ts'
import { toolByName, toolDefinitions, type CallObserver } from './tools.ts'

// The two messages every agent session sends most — a single `tools/call` and `tools/list` —
// answered without the SDK's per-request machinery: a Server and a transport built per request,
// a zod parse of the message, the result re-validated, the answer serialised into a Response,
// read back as text and written again. The tool's structuredContent is serialised once (its
// JSON is also the text block, so it is spliced in as it is), tools/list is serialised once at
// start-up. Anything unusual in the message (unknown tool, extra params, a task request,
// arguments that are not an object) goes the SDK way, so errors stay the SDK's.

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

// tools/list has no per-caller content: the same bytes for every request.
const TOOLS_LIST_JSON = JSON.stringify({ tools: toolDefinitions })

const envelope = (resultJson: string, id: JsonRpcId) => `{"result":${resultJson},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`

// The text block is the JSON text again, as a JSON string. Escaping a theme document's quotes
// cost about a tenth of MCP's overhead over REST (31 of 283 µs per get_theme, bench:mcp
// profile), and cached reads hand back the very same text again and again: the escaped form of
// recent texts is kept, bounded by count and by characters (oldest first out).
const escapedTexts = new Map<string, string>()
const ESCAPED_MAX_ENTRIES = 256
const ESCAPED_MAX_CHARS = 8 * 1024 * 1024
let escapedChars = 0
export function jsonStringOf(text: string): string {
  const known = escapedTexts.get(text)
  if (known !== undefined) return known
  const escaped = JSON.stringify(text)
  const chars = text.length + escaped.length
  if (chars > ESCAPED_MAX_CHARS / 8) return escaped
  while (escapedTexts.size >= ESCAPED_MAX_ENTRIES || escapedChars + chars > ESCAPED_MAX_CHARS) {
    const [oldest, value] = escapedTexts.entries().next().value!
    escapedTexts.delete(oldest)
    escapedChars -= oldest.length + value.length
  }
  escapedTexts.set(text, escaped)
  escapedChars += chars
  return escaped
}
export const escapedTextsHeld = () => ({ entries: escapedTexts.size, chars: escapedChars })

// A CallToolResult as callTool makes it: the one text block is JSON.stringify(structuredContent).
export function callToolResultJson(result: CallToolResult): string {
  const text = (result.content[0] as { text: string }).text
  return `{"content":[{"type":"text","text":${jsonStringOf(text)}}],"structuredContent":${text}${result.isError ? ',"isError":true' : ''}}`
}

const onlyKeys = (value: Json, allowed: readonly string[]) => Object.keys(value).every((k) => allowed.includes(k))

// The answer's JSON, or null when the message is for the SDK path.
export async function fastAnswer(body: unknown, caller: Caller, services: Services, observe: CallObserver): Promise<string | null> {
  if (!isObject(body) || !('id' in body)) return null
  const id = body.id as JsonRpcId
  const params = body.params
  if (params !== undefined && !isObject(params)) return null
  const meta = params?._meta
  if (meta !== undefined && !isObject(meta)) return null
  if (body.method === 'tools/list') {
    if (params && (!onlyKeys(params, ['cursor', '_meta']) || (params.cursor !== undefined && typeof params.cursor !== 'string'))) return null
    return envelope(TOOLS_LIST_JSON, id)
  }
  if (body.method !== 'tools/call' || !params || !onlyKeys(params, ['name', 'arguments', '_meta'])) return null
  const tool = typeof params.name === 'string' ? toolByName.get(params.name) : undefined
  const args = params.arguments ?? {}
  if (!tool || !isObject(args)) return null
  try {
    return envelope(callToolResultJson(await runToolCall(tool, args, caller, services, observe)), id)
  } catch (error) {
    // As the SDK answers a handler that throws.
    const message = error instanceof Error && error.message ? error.message : 'Internal error'
    return JSON.stringify({ jsonrpc: '2.0', id, error: { code: JSONRPC.INTERNAL_ERROR, message } })
  }
}
