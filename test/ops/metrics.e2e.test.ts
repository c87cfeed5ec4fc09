import t from 'tap'
import { bearer, STORE_A, testApp } from '../support/app.ts'
import { callTool } from '../mcp/support.ts'
import { sample } from './support.ts'

// /metrics is scraped before and after real traffic, and each series the issue asks for moves.
t.test(
  'the series move with traffic: HTTP, commands, events, MCP, rate limits, render cache, projection lag',
  async (t) => {
    const app = await testApp(t, { rateLimit: { max: 6, windowSeconds: 60 }, changeFeed: true })
    const scrape = async () => {
      const res = await app.app.inject({ method: 'GET', url: '/metrics' })
      t.equal(res.statusCode, 200)
      t.match(res.headers['content-type'], /text\/plain/)
      return res.body
    }
    const before = await scrape()

    const created = await app.app.inject({
      method: 'POST',
      url: '/api/v1/themes',
      headers: bearer(app.keyA),
      payload: { name: 'Metrics', provider: 'test' },
    })
    t.equal(created.statusCode, 201)
    const themeId = created.json().data.id as string
    const refused = await app.app.inject({
      method: 'POST',
      url: `/api/v1/themes/${themeId}/batch`,
      headers: bearer(app.keyA),
      payload: { expectedVersion: 999, operations: [{ op: 'updateTokens', tokens: { primaryColor: '#2d6a4f' } }] },
    })
    t.equal(refused.statusCode, 409, 'a refused command')
    const refusedCode = refused.json().error.code as string
    t.equal(
      (await app.app.inject({ method: 'GET', url: `/api/v1/themes/${themeId}`, headers: bearer(app.keyA) })).statusCode,
      200,
    )
    const mcpKey = await app.key(STORE_A)
    const tool = await callTool(app, mcpKey, 'get_theme', { id: themeId })
    t.notOk(tool.isError)
    const missing = await callTool(app, mcpKey, 'get_theme', { id: 'thm_missing' })
    t.ok(missing.isError)
    for (let i = 0; i < 8; i++)
      await app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(app.keyB) })
    await app.app.inject({ method: 'GET', url: '/s/atlas' })
    await app.app.inject({ method: 'GET', url: '/s/atlas' })

    const after = await scrape()
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels)
    t.equal(
      moved('sfts_http_request_duration_seconds_count', { operation: 'getTheme', status: '200' }),
      1,
      'latency histogram per operation and status',
    )
    t.ok(
      moved('sfts_http_request_duration_seconds_bucket', { operation: 'createTheme', status: '201', le: '+Inf' }) >= 1,
    )
    t.equal(
      moved('sfts_commands_total', { command: 'createTheme', outcome: 'applied' }),
      1,
      'commands by type and outcome',
    )
    t.equal(
      moved('sfts_commands_total', { command: 'applyThemeBatch', outcome: refusedCode }),
      1,
      'a refusal counted under its code',
    )
    t.ok(moved('sfts_events_appended_total', { type: 'ThemeCreated' }) >= 1, 'events appended by type')
    t.equal(
      moved('sfts_mcp_tool_calls_total', { tool: 'get_theme', outcome: 'ok' }),
      1,
      'MCP tool calls by tool and outcome',
    )
    t.equal(moved('sfts_mcp_tool_calls_total', { tool: 'get_theme', outcome: 'NOT_FOUND' }), 1)
    t.equal(
      moved('sfts_rate_limit_refusals_total', { limit: 'api' }),
      2,
      'two of eight requests over a limit of six were refused',
    )
    t.equal(moved('sfts_render_cache_requests_total', { result: 'miss' }), 1, 'render cache: one miss')
    t.equal(moved('sfts_render_cache_requests_total', { result: 'hit' }), 1, 'then one hit')
    t.match(after, /sfts_render_cache_hit_ratio \d/)
    t.ok(moved('sfts_credential_cache_requests_total', { result: 'miss' }) >= 1, 'credential cache: misses')
    t.ok(
      moved('sfts_credential_cache_requests_total', { result: 'hit' }) >= 5,
      'then hits (getContext again with one key)',
    )
    t.equal(moved('sfts_storefront_probe_requests_total', { result: 'miss' }), 1, 'storefront probe: one miss')
    t.equal(moved('sfts_storefront_probe_requests_total', { result: 'hit' }), 1, 'then one hit')
    t.equal(sample(after, 'sfts_change_feed_healthy'), 1, 'the change feed is healthy')
    t.match(after, /sfts_change_feed_flushes_total \d/)
    t.ok(
      sample(after, 'sfts_projection_lag_events', { projection: 'themes' }) > 0,
      'no catch-up runs in this app: the themes checkpoint lags behind the log',
    )
    t.ok(sample(after, 'sfts_projection_lag_seconds', { projection: 'themes' }) >= 0)
    t.match(after, /sfts_process_cpu_seconds_total/)
  },
)

t.test('/metrics is for loopback clients, or others with the METRICS_TOKEN; else it does not exist', async (t) => {
  const token = 'metrics-token-0123456789'
  const { app } = await testApp(t, { env: { METRICS_TOKEN: token } })
  t.equal((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' })).statusCode, 404)
  t.equal(
    (
      await app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { authorization: 'Bearer wrong-token-0123456789' },
      })
    ).statusCode,
    404,
  )
  t.equal(
    (
      await app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { authorization: `Bearer ${token}` },
      })
    ).statusCode,
    200,
  )
  t.equal((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode, 200)
  const untokened = await testApp(t)
  t.equal(
    (
      await untokened.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { authorization: `Bearer ${token}` },
      })
    ).statusCode,
    404,
    'no METRICS_TOKEN: 404 for every non-loopback client',
  )
})
