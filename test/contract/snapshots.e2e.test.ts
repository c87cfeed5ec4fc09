import { readFileSync, writeFileSync } from 'node:fs'
import t from 'tap'
import { bearer, testApp } from '../support/app.ts'
import { rpc } from '../mcp/support.ts'

// The published surfaces must not change by accident: the OpenAPI document and MCP tools/list
// are compared byte for byte with the snapshots in test/fixtures (UPDATE_SNAPSHOTS=1 rewrites them).
const fixture = (name: string) => new URL(`../fixtures/${name}`, import.meta.url)

function same(name: string, actual: string) {
  if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(fixture(name), actual)
  t.equal(actual, readFileSync(fixture(name), 'utf8'), `${name} is byte-identical to its snapshot`)
}

t.test('the OpenAPI document and tools/list are unchanged', async (t) => {
  const app = await testApp(t)
  const openapi = await app.app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: bearer(app.keyA) })
  t.equal(openapi.statusCode, 200)
  same('openapi.snapshot.json', openapi.body)
  const list = await rpc(
    app,
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    { 'mcp-protocol-version': '2025-06-18' },
  )
  t.equal(list.statusCode, 200)
  same('tools-list.snapshot.json', list.body)
})
