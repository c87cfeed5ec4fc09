import t from 'tap'
import { bearer, STORE_A, testApp } from '../support/app.ts'
import { rpc } from './support.ts'

t.test('REST and MCP share one rate limit per credential', async (t) => {
  const app = await testApp(t, { rateLimit: { max: 6, windowSeconds: 60 } })
  const key = app.keyA
  const other = await app.key(STORE_A, ['store:read'])
  const restCall = () => app.app.inject({ method: 'GET', url: '/api/v1/store', headers: bearer(key) })
  const mcpCall = (id: number) =>
    rpc(app, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_store', arguments: {} } }, {}, key)

  const seen: { status: number; remaining: string }[] = []
  for (const call of [restCall, () => mcpCall(1), restCall, () => mcpCall(2), () => mcpCall(3), restCall]) {
    const res = await call()
    seen.push({ status: res.statusCode, remaining: String(res.headers['x-ratelimit-remaining']) })
    t.equal(res.headers['x-ratelimit-limit'], '6')
  }
  t.same(
    seen.map((s) => s.status),
    [200, 200, 200, 200, 200, 200],
  )
  t.same(
    seen.map((s) => s.remaining),
    ['5', '4', '3', '2', '1', '0'],
    'one counter across both surfaces',
  )

  const limitedMcp = await mcpCall(4)
  t.equal(limitedMcp.statusCode, 429, 'the 7th call (MCP) is refused')
  t.equal(limitedMcp.json().error.code, 'RATE_LIMITED')
  t.ok(Number(limitedMcp.headers['retry-after']) > 0, 'with Retry-After')
  t.ok(limitedMcp.headers['x-request-id'])
  const fromBrowser = await rpc(
    app,
    { jsonrpc: '2.0', id: 5, method: 'ping' },
    { origin: 'http://localhost:6274' },
    key,
  )
  t.equal(fromBrowser.statusCode, 429)
  t.equal(
    fromBrowser.headers['access-control-allow-origin'],
    'http://localhost:6274',
    'a browser client can read the 429',
  )
  t.match(String(fromBrowser.headers['access-control-expose-headers']), /Retry-After/)
  const limitedRest = await restCall()
  t.equal(limitedRest.statusCode, 429, 'and REST with the same key too')
  const discovery = await app.app.inject({ method: 'GET', url: '/api/v1/mcp', headers: bearer(key) })
  t.equal(discovery.statusCode, 429, 'GET /api/v1/mcp counts as well')

  const fresh = await rpc(app, { jsonrpc: '2.0', id: 5, method: 'ping' }, {}, other)
  t.equal(fresh.statusCode, 200, 'another credential has its own counter')
  t.equal(fresh.headers['x-ratelimit-remaining'], '5')
})
