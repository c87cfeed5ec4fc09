import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Caller } from '../auth/caller.ts'
import type { Services } from '../services.ts'
import { JSONRPC, type JsonRpcId } from './protocol.ts'
import { runToolCall } from './server.ts'
import { toolByName, toolDefinitions, type CallObserver } from './tools.ts'
import { Utf8Memo } from '../web/utf8-memo.ts'

// The two messages every agent session sends most — a single `tools/call` and `tools/list` —
// answered without the SDK's per-request machinery: a Server and a transport built per request,
// a zod parse of the message, the result re-validated, the answer serialised into a Response,
// read back as text and written again. The tool's structuredContent is serialised once (its
// JSON is also the text block, so it is spliced in as it is), tools/list is serialised once at
// start-up, and answers go out as bytes. Anything unusual in the message (unknown tool, extra
// params, a task request, arguments that are not an object) goes the SDK way, so errors stay the
// SDK's.

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

// tools/list has no per-caller content: the same bytes for every request, made at the first.
let toolsListBytes: Buffer | undefined
const toolsList = () => (toolsListBytes ??= Buffer.from(JSON.stringify({ tools: toolDefinitions() })))

const RESULT_OPEN = Buffer.from('{"result":')
const envelope = (result: Buffer, id: JsonRpcId) =>
  Buffer.concat([RESULT_OPEN, result, Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`)])

// A CallToolResult as callTool makes it: the one text block is JSON.stringify(structuredContent),
// so the text is spliced in as the structured content and, escaped, as the text block. Cached
// reads hand back the same text again and again: its result is kept as the bytes to send
// (src/web/utf8-memo.ts). Escaping a theme's quotes was 31 µs and counting and encoding the
// answer's 14 KB another 20 of the 283 µs get_theme cost over REST (bench:mcp profiles).
const results = new Utf8Memo(256, 16 * 1024 * 1024)
const resultBytes = (text: string, isError = false) =>
  Buffer.from(
    `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}${isError ? ',"isError":true' : ''}}`,
  )
function callToolResultBytes(result: CallToolResult): Buffer {
  const text = (result.content[0] as { text: string }).text
  // A review view's data (src/mcp/theme-review) is the caller's own: never kept.
  if (result._meta)
    return Buffer.from(
      `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text},"_meta":${JSON.stringify(result._meta)}}`,
    )
  // Errors are rare and carry a request id: not kept.
  return result.isError ? resultBytes(text, true) : results.of(text, resultBytes)
}

const onlyKeys = (value: Json, allowed: readonly string[]) => Object.keys(value).every((k) => allowed.includes(k))

// The answer's JSON (as bytes, or text for an error), or null when the message is for the SDK path.
export async function fastAnswer(
  body: unknown,
  caller: Caller,
  services: Services,
  observe: CallObserver,
): Promise<Buffer | string | null> {
  if (!isObject(body) || !('id' in body)) return null
  const id = body.id as JsonRpcId
  const params = body.params
  if (params !== undefined && !isObject(params)) return null
  const meta = params?._meta
  if (meta !== undefined && !isObject(meta)) return null
  if (body.method === 'tools/list') {
    if (
      params &&
      (!onlyKeys(params, ['cursor', '_meta']) || (params.cursor !== undefined && typeof params.cursor !== 'string'))
    )
      return null
    return envelope(toolsList(), id)
  }
  if (body.method !== 'tools/call' || !params || !onlyKeys(params, ['name', 'arguments', '_meta'])) return null
  const tool = typeof params.name === 'string' ? toolByName.get(params.name) : undefined
  const args = params.arguments ?? {}
  if (!tool || !isObject(args)) return null
  try {
    return envelope(callToolResultBytes(await runToolCall(tool, args, caller, services, observe)), id)
  } catch (error) {
    // As the SDK answers a handler that throws.
    const message = error instanceof Error && error.message ? error.message : 'Internal error'
    return JSON.stringify({ jsonrpc: '2.0', id, error: { code: JSONRPC.INTERNAL_ERROR, message } })
  }
}
