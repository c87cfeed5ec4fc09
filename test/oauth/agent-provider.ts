import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'
import { freePort } from './live.ts'

// The MCP SDK's OAuth hooks as a native agent implements them (Claude Code, Cursor style): it keeps
// the client information and tokens in memory and, instead of opening a browser, records where it
// would send the merchant. With `info` set (a client ID from the dashboard) it skips registration.
export class AgentProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ''
  authorizationUrl: URL | undefined
  refreshes = 0
  readonly redirectUrl: string
  readonly name: string
  constructor(redirectUrl: string, options: { name?: string; info?: OAuthClientInformationMixed } = {}) {
    this.redirectUrl = redirectUrl
    this.name = options.name ?? 'MCP SDK agent'
    this.info = options.info
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    if (this.saved) this.refreshes++
    this.saved = tokens
  }
  // The contract requires state (at least 8 characters); the SDK sends one only when the provider makes it.
  state() {
    return randomBytes(16).toString('base64url')
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

// The agent's loopback callback on a random port: records each redirect it receives.
export async function loopbackListener(t: {
  teardown: (fn: () => unknown) => void
}): Promise<{ port: number; redirectUri: string; codes: URL[] }> {
  const port = await freePort()
  const codes: URL[] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`)
    if (url.pathname !== '/callback') return res.writeHead(204).end()
    codes.push(url)
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Connected. You can close this window.')
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  return { port, redirectUri: `http://127.0.0.1:${port}/callback`, codes }
}
