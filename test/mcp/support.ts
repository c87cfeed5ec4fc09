import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { testApp, type TestApp } from '../support/app.ts'

type T = { teardown: (fn: () => unknown) => void }

export type LiveApp = TestApp & { url: string; mcpUrl: string }

// A seeded app listening on a loopback port, for real HTTP clients.
export async function liveApp(t: T, options: Parameters<typeof testApp>[1] = {}): Promise<LiveApp> {
  const app = await testApp(t, options)
  await app.app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  const url = `http://127.0.0.1:${address.port}`
  return { ...app, url, mcpUrl: `${url}/api/v1/mcp` }
}

// The official SDK client over Streamable HTTP with a bearer credential.
export async function sdkClient(
  t: T,
  mcpUrl: string,
  key: string,
  opts: { protocolVersion?: string } = {},
): Promise<Client> {
  const client = new Client({ name: 'storefront-tests', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  })
  await client.connect(transport)
  void opts
  t.teardown(() => client.close())
  return client
}

// A raw JSON-RPC POST (for protocol faults the SDK client would never send).
export async function rpc(
  app: TestApp,
  body: unknown,
  headers: Record<string, string> = {},
  key: string | null = app.keyA,
) {
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/v1/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return res
}

let nextId = 1
export async function callTool(
  app: TestApp,
  key: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  const res = await rpc(
    app,
    { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } },
    { 'mcp-protocol-version': '2025-11-25' },
    key,
  )
  if (res.statusCode !== 200) throw new Error(`tools/call ${name}: HTTP ${res.statusCode} ${res.body}`)
  const body = res.json()
  if (body.error) throw new Error(`tools/call ${name}: JSON-RPC ${JSON.stringify(body.error)}`)
  return body.result as CallToolResult
}

export const errorOf = (result: CallToolResult) =>
  (
    result.structuredContent as {
      error: { code: string; message: string; details?: Record<string, unknown>; requestId: string }
    }
  ).error
