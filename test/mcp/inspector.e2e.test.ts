import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { liveApp } from './support.ts'

// MCP Inspector (the devDependency @modelcontextprotocol/inspector) in CLI mode, run through
// npx exactly as a developer would, against the live server. Offline: npm may not touch the
// registry (npx must resolve the local install), and the CLI talks to loopback only.
function inspector(args: string[], home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    // The Inspector needs Node >= 22.19: the Node running this suite comes first on PATH.
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: home,
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  }
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['@modelcontextprotocol/inspector', '--cli', ...args],
      { env, cwd: process.cwd(), timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
      },
    )
  })
}

t.test('MCP Inspector CLI lists the 38 tools, calls one and reads a resource', async (t) => {
  const app = await liveApp(t)
  const home = mkdtempSync(join(tmpdir(), 'inspector-home-'))
  t.teardown(() => rmSync(home, { recursive: true, force: true }))
  const auth = ['--header', `Authorization: Bearer ${app.keyA}`]

  const listed = await inspector([app.mcpUrl, '--transport', 'http', '--method', 'tools/list', ...auth], home)
  t.equal(listed.code, 0, `tools/list exits 0 ${listed.stderr.slice(0, 500)}`)
  const { tools } = JSON.parse(listed.stdout) as {
    tools: { name: string; inputSchema: { type: string }; outputSchema?: { type: string } }[]
  }
  t.equal(tools.length, 38, 'the Inspector sees 38 tools')
  t.ok(tools.every((x) => x.inputSchema.type === 'object' && x.outputSchema?.type === 'object'))
  t.ok(tools.some((x) => x.name === 'apply_theme_batch'))
  t.match(listed.stderr, /0 errors/, 'no schema portability errors')

  const called = await inspector(
    [
      app.mcpUrl,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'get_products',
      '--tool-arg',
      'limit=2',
      ...auth,
    ],
    home,
  )
  t.equal(called.code, 0, `tools/call exits 0 ${called.stderr.slice(0, 500)}`)
  const result = JSON.parse(called.stdout) as {
    isError?: boolean
    structuredContent: { products: unknown[]; pagination: { limit: number } }
  }
  t.notOk(result.isError)
  t.equal(result.structuredContent.products.length, 2)
  t.equal(result.structuredContent.pagination.limit, 2)

  const resources = await inspector([app.mcpUrl, '--transport', 'http', '--method', 'resources/list', ...auth], home)
  t.equal(resources.code, 0)
  t.ok(
    (JSON.parse(resources.stdout) as { resources: { uri: string }[] }).resources.some(
      (r) => r.uri === 'storefront://schema',
    ),
  )

  const anonymous = await inspector([app.mcpUrl, '--transport', 'http', '--method', 'tools/list'], home)
  t.not(anonymous.code, 0, 'without a credential the Inspector is refused')
  t.match(anonymous.stderr + anonymous.stdout, /auth_required|401/)
})
