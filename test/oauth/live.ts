import { createServer } from 'node:net'
import { testApp, type TestApp } from '../support/app.ts'

type T = { teardown: (fn: () => unknown) => void }

// A seeded app listening on a loopback port whose BASE_URL is that very address, so the issuer in
// the metadata is what real clients (oauth4webapi, the MCP SDK, a browser) see.
export async function liveOAuthApp(
  t: T,
  env: Record<string, string> = {},
  options: Parameters<typeof testApp>[1] = {},
): Promise<TestApp & { url: string; mcpUrl: string }> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const app = await testApp(t, { ...options, env: { BASE_URL: url, ...env } })
  await app.app.listen({ port, host: '127.0.0.1' })
  return { ...app, url, mcpUrl: `${url}/api/v1/mcp` }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}
