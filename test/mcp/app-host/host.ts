// A chat host as the MCP Apps extension describes one, for the review view's browser test: the
// official MCP SDK client connected to the service, the package's AppBridge and
// PostMessageTransport, and the view in a sandboxed frame (scripts, no same origin) with the
// policy its resource declares. Served from an origin other than the service's, as real hosts are.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

type Csp = { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[] }
type HostLog = { messages: unknown[]; links: string[]; calls: string[]; errors: string[] }

declare global {
  interface Window {
    host: HostLog & {
      open(tool: string, args: Record<string, unknown>): Promise<CallToolResult>
      call(tool: string, args: Record<string, unknown>): Promise<CallToolResult>
      setTheme(theme: 'light' | 'dark'): void
      resource: { mimeType?: string; meta?: unknown }
    }
  }
}

const params = new URLSearchParams(location.hash.slice(1))
const mcpUrl = params.get('mcp')!
const key = params.get('key')!

const log: HostLog = { messages: [], links: [], calls: [], errors: [] }

const client = new Client({ name: 'review-test-host', version: '1.0.0' })
await client.connect(
  new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
)

// The policy a host builds from the resource's _meta.ui.csp.
function policy(csp: Csp): string {
  const list = (v: string[] | undefined) => (v && v.length > 0 ? v.join(' ') : "'none'")
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    `style-src 'unsafe-inline' ${list(csp.resourceDomains).replace("'none'", '')}`,
    `img-src data: ${list(csp.resourceDomains).replace("'none'", '')}`,
    `frame-src ${list(csp.frameDomains)}`,
    `connect-src ${list(csp.connectDomains)}`,
  ].join('; ')
}

let bridge: AppBridge | null = null
let theme: 'light' | 'dark' = 'light'

async function open(tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const listed = await client.listTools()
  const uri = (listed.tools.find((t) => t.name === tool)?._meta?.ui as { resourceUri?: string } | undefined)
    ?.resourceUri
  if (!uri) throw new Error(`${tool} has no UI resource`)
  const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult
  const read = await client.readResource({ uri })
  const content = read.contents[0] as { text: string; mimeType?: string; _meta?: { ui?: { csp?: Csp } } }
  window.host.resource = { mimeType: content.mimeType, meta: content._meta }
  const html = content.text.replace(
    '<head>',
    `<head><meta http-equiv="Content-Security-Policy" content="${policy(content._meta?.ui?.csp ?? {})}">`,
  )
  const frame = document.createElement('iframe')
  frame.id = 'view'
  frame.setAttribute('sandbox', 'allow-scripts allow-forms')
  frame.style.width = '100%'
  frame.style.border = '0'
  frame.srcdoc = html
  document.getElementById('chat')!.replaceChildren(frame)
  await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }))
  bridge = new AppBridge(
    client,
    { name: 'review-test-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {}, message: { text: {} } },
    { hostContext: { theme, displayMode: 'inline', containerDimensions: { maxHeight: 4000, width: 640 } } },
  )
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`
  }
  bridge.onmessage = async (message) => {
    log.messages.push(message)
    return {}
  }
  bridge.onopenlink = async ({ url }) => {
    log.links.push(url)
    return {}
  }
  const initialized = new Promise<void>((resolve) => {
    bridge!.oninitialized = () => resolve()
  })
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!))
  await initialized
  await bridge.sendToolInput({ arguments: args })
  await bridge.sendToolResult(result)
  return result
}

window.host = Object.assign(log, {
  open,
  call: async (tool: string, args: Record<string, unknown>) =>
    (await client.callTool({ name: tool, arguments: args })) as CallToolResult,
  setTheme(next: 'light' | 'dark') {
    theme = next
    bridge?.setHostContext({ theme: next, displayMode: 'inline', containerDimensions: { maxHeight: 4000, width: 640 } })
  },
  resource: {},
})
document.body.dataset.ready = 'true'
