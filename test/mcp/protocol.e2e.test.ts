import t from 'tap'
import { randomBytes } from 'node:crypto'
import { revokeApiKey } from '../../src/auth/credentials.ts'
import { encodePng } from '../../src/seed/images.ts'
import { SCOPES } from '../../src/auth/scopes.ts'
import { STORE_A, STORE_B, testApp } from '../support/app.ts'
import { callTool, errorOf, rpc } from './support.ts'

const BASE = 'http://storefront.test'
const CHALLENGE = `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/api/v1/mcp"`
const init = (protocolVersion: string, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
})

t.test('MCP protocol over HTTP', async (t) => {
  const app = await testApp(t)

  t.test('initialize negotiates 2025-11-25, 2025-06-18 and 2025-03-26; anything else gets the latest', async (t) => {
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      const res = await rpc(app, init(version))
      t.equal(res.statusCode, 200)
      t.match(res.headers['content-type'], /^application\/json/)
      const body = res.json()
      t.equal(body.id, 1)
      t.equal(body.result.protocolVersion, version, `${version} is accepted as asked`)
      t.equal(res.headers['mcp-protocol-version'], version)
      t.equal(body.result.serverInfo.name, 'storefront-theme-service')
      t.same(Object.keys(body.result.capabilities).sort(), ['resources', 'tools'])
      t.match(body.result.instructions, /get_context/)
      t.notOk(res.headers['mcp-session-id'], 'stateless: no session id')
    }
    for (const version of ['2024-11-05', '2024-10-07', '1999-01-01', 'x']) {
      const res = await rpc(app, init(version))
      t.equal(
        res.json().result.protocolVersion,
        '2025-11-25',
        `${version} is answered with the latest supported version`,
      )
    }
  })

  t.test('an unsupported MCP-Protocol-Version header is a 400', async (t) => {
    for (const version of ['2024-11-05', '2026-01-01', 'latest']) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': version })
      t.equal(res.statusCode, 400, version)
      t.equal(res.json().error.code, 'UNSUPPORTED_PROTOCOL_VERSION')
      t.same(res.json().error.details.supportedVersions, ['2025-11-25', '2025-06-18', '2025-03-26'])
      t.ok(res.json().error.requestId)
    }
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': version })
      t.equal(res.statusCode, 200, version)
      t.equal(res.json().result.tools.length, 38)
    }
    const none = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' })
    t.equal(none.statusCode, 200, 'no header: 2025-03-26 is assumed')
    t.equal(none.headers['mcp-protocol-version'], '2025-03-26')
  })

  t.test('ping', async (t) => {
    const res = await rpc(app, { jsonrpc: '2.0', id: 'p-1', method: 'ping' })
    t.equal(res.statusCode, 200)
    t.same(res.json(), { jsonrpc: '2.0', id: 'p-1', result: {} })
  })

  t.test('notifications and responses are answered 202 with no body', async (t) => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'gone' } },
      { jsonrpc: '2.0', method: 'notifications/whatever' },
      { jsonrpc: '2.0', id: 4, result: {} },
      [
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
      ],
    ]) {
      const res = await rpc(app, message)
      t.equal(res.statusCode, 202, JSON.stringify(message))
      t.equal(res.body, '')
      t.notOk(res.headers['content-type'])
    }
  })

  t.test('-32700: a body that is not JSON, with id null', async (t) => {
    for (const payload of ['{"jsonrpc":"2.0","id":1,', 'not json', '']) {
      const res = await rpc(app, payload)
      t.equal(res.statusCode, 400, JSON.stringify(payload))
      const body = res.json()
      t.equal(body.jsonrpc, '2.0')
      t.equal(body.id, null)
      t.equal(body.error.code, -32700)
      t.equal(body.error.data.requestId, res.headers['x-request-id'])
    }
  })

  t.test('-32600: JSON that is not a valid JSON-RPC message', async (t) => {
    const cases: [unknown, unknown][] = [
      [{ foo: 1 }, null],
      [{ jsonrpc: '1.0', id: 5, method: 'ping' }, 5],
      [{ jsonrpc: '2.0', id: 6 }, 6],
      [{ jsonrpc: '2.0', id: null, method: 'ping' }, null],
      [{ jsonrpc: '2.0', id: 1.5, method: 'ping' }, null],
      [{ jsonrpc: '2.0', id: 7, method: 42 }, 7],
      [{ jsonrpc: '2.0', id: 8, method: 'tools/list', params: [1, 2] }, 8],
      [[], null],
      [[{ jsonrpc: '2.0', id: 1, method: 'ping' }, 3], null],
      ['"a string"', null],
      [42, null],
    ]
    for (const [message, id] of cases) {
      const res = await rpc(app, typeof message === 'string' ? message : JSON.stringify(message))
      t.equal(res.statusCode, 400, JSON.stringify(message))
      t.equal(res.json().error.code, -32600, JSON.stringify(message))
      t.equal(res.json().id, id)
    }
  })

  t.test('-32601: an unknown method', async (t) => {
    for (const method of ['prompts/list', 'logging/setLevel', 'tools/delete', 'completion/complete']) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 3, method, params: {} })
      t.equal(res.statusCode, 200)
      t.equal(res.json().id, 3)
      t.equal(res.json().error.code, -32601, method)
    }
  })

  t.test('-32602: an unknown tool or bad params', async (t) => {
    const unknown = await rpc(app, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'drop_database', arguments: {} },
    })
    t.equal(unknown.json().error.code, -32602)
    t.match(unknown.json().error.message, /Unknown tool: drop_database/)
    for (const params of [
      {},
      { name: 42 },
      { name: 'get_store', arguments: [1] },
      { name: 'get_store', arguments: 'x' },
    ]) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'tools/call', params })
      t.equal(res.json().error?.code, -32602, JSON.stringify(params))
    }
    const read = await rpc(app, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: {} })
    t.equal(read.json().error.code, -32602)
    // The contract lets initialize's params be an empty object: defaults, not -32602.
    for (const params of [{}, undefined]) {
      const init = await rpc(app, { jsonrpc: '2.0', id: 4, method: 'initialize', ...(params ? { params } : {}) })
      t.equal(init.statusCode, 200, `initialize with params ${JSON.stringify(params)}`)
      t.equal(init.json().result?.protocolVersion, '2025-11-25', 'the latest version by default')
      t.equal(init.json().result?.serverInfo?.name, 'storefront-theme-service')
      t.equal(init.headers['mcp-protocol-version'], '2025-11-25')
    }
    const initBad = await rpc(app, {
      jsonrpc: '2.0',
      id: 5,
      method: 'initialize',
      params: { protocolVersion: 42, clientInfo: 'me' },
    })
    t.equal(initBad.json().error.code, -32602, 'what is given is still checked')
  })

  t.test('a batch (2025-03-26) gets one response per request', async (t) => {
    const res = await rpc(app, [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ])
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.equal(body.length, 2)
    t.same(body.map((m: { id: number }) => m.id).sort(), [1, 2])
  })

  t.test('tool arguments are validated like REST input: tool errors with the REST code', async (t) => {
    const tooMany = await callTool(app, app.keyA, 'get_products', { limit: 1000 })
    t.equal(tooMany.isError, true)
    t.equal(errorOf(tooMany).code, 'VALIDATION_FAILED')
    t.equal((errorOf(tooMany).details!.issues as { path: string }[])[0]!.path, 'limit')
    const rest = await app.app.inject({
      method: 'GET',
      url: '/api/v1/products?limit=1000',
      headers: { authorization: `Bearer ${app.keyA}` },
    })
    t.equal(errorOf(tooMany).message, rest.json().error.message, 'same message as REST')
    t.same(errorOf(tooMany).details, rest.json().error.details, 'same details as REST')

    const unknownArg = await callTool(app, app.keyA, 'get_products', { limt: 5 })
    t.equal(errorOf(unknownArg).code, 'VALIDATION_FAILED', 'an argument the schema does not list is refused')
    const unknownArgNoInput = await callTool(app, app.keyA, 'get_store', { storeId: STORE_B })
    t.equal(errorOf(unknownArgNoInput).code, 'VALIDATION_FAILED', 'a store id argument is refused, never used')
    const several = await callTool(app, app.keyA, 'create_theme', { name: '', provider: '!!', extra: 1 })
    t.equal(errorOf(several).code, 'VALIDATION_FAILED')
    t.ok((errorOf(several).details!.issues as unknown[]).length >= 3, 'every problem is listed')
    const file = await callTool(app, app.keyA, 'upload_media', { file: 'x', alt: 'a' })
    t.equal(errorOf(file).code, 'VALIDATION_FAILED')
    t.match(errorOf(file).message, /dataBase64/)
    const missingId = await callTool(app, app.keyA, 'get_theme', {})
    t.equal(errorOf(missingId).code, 'VALIDATION_FAILED')
    t.equal((errorOf(missingId).details!.issues as { path: string }[])[0]!.path, 'id')
    const cursor = await callTool(app, app.keyA, 'get_products', { cursor: 'forged' })
    t.equal(errorOf(cursor).code, 'INVALID_CURSOR')
    const text = JSON.parse((cursor.content[0] as { text: string }).text)
    t.same(text, cursor.structuredContent, 'the text block carries the same error')
  })

  t.test('GET /api/v1/mcp: 405 for an SSE client, a discovery document otherwise', async (t) => {
    for (const accept of ['text/event-stream', 'application/json, text/event-stream']) {
      const sse = await app.app.inject({ method: 'GET', url: '/api/v1/mcp', headers: { accept } })
      t.equal(sse.statusCode, 405)
      t.equal(sse.headers.allow, 'POST')
      t.equal(sse.json().error.code, 'METHOD_NOT_ALLOWED')
    }
    for (const headers of [{ accept: 'application/json' }, {}, { accept: '*/*' }]) {
      const res = await app.app.inject({ method: 'GET', url: '/api/v1/mcp', headers })
      t.equal(res.statusCode, 200)
      const doc = res.json()
      t.equal(doc.endpoint, `${BASE}/api/v1/mcp`)
      t.equal(doc.transport.type, 'streamable-http')
      t.same(doc.transport.protocolVersions, ['2025-11-25', '2025-06-18', '2025-03-26'])
      t.equal(doc.auth.type, 'bearer')
      t.equal(doc.auth.protectedResourceMetadata, `${BASE}/.well-known/oauth-protected-resource/api/v1/mcp`)
      t.equal(doc.links.openapi, `${BASE}/api/v1/openapi.json`)
      t.equal(doc.links.toolList.body.method, 'tools/list')
      t.equal(doc.tools.length, 38)
    }
    const del = await app.app.inject({
      method: 'DELETE',
      url: '/api/v1/mcp',
      headers: { authorization: `Bearer ${app.keyA}` },
    })
    t.equal(del.statusCode, 405)
    t.match(del.headers.allow, /POST/)
    t.match(del.headers.allow, /GET/)
    t.equal(del.json().error.code, 'METHOD_NOT_ALLOWED')
  })

  t.test('the OpenAPI document lists mcpJsonRpc and mcpDiscovery', async (t) => {
    const doc = (await app.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
    t.equal(doc.paths['/api/v1/mcp'].post.operationId, 'mcpJsonRpc')
    t.equal(doc.paths['/api/v1/mcp'].get.operationId, 'mcpDiscovery')
    t.ok(doc.paths['/api/v1/mcp'].post.requestBody.content['application/json'].schema)
    t.ok(doc.paths['/api/v1/mcp'].get.responses['200'].content['application/json'].schema)
    t.same(doc.paths['/api/v1/mcp'].get.security, [])
  })

  t.test('401 with a resource_metadata challenge and the error envelope', async (t) => {
    const none = await rpc(app, init('2025-11-25'), {}, null)
    t.equal(none.statusCode, 401)
    t.equal(none.headers['www-authenticate'], CHALLENGE)
    t.equal(none.json().error.code, 'UNAUTHENTICATED')
    t.equal(none.json().error.requestId, none.headers['x-request-id'])
    const bad = await rpc(app, init('2025-11-25'), {}, 'sk_live_notarealkeyatallnotarealkeyatall0000')
    t.equal(bad.statusCode, 401)
    t.equal(bad.headers['www-authenticate'], `${CHALLENGE}, error="invalid_token"`)
    const malformed = await rpc(app, init('2025-11-25'), { authorization: 'Basic abc' }, null)
    t.equal(malformed.statusCode, 401)
    const keyId = (
      await app.services.db
        .selectFrom('api_keys')
        .select('key_id')
        .where('store_id', '=', STORE_A)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).key_id
    const revocable = await app.key(STORE_A, SCOPES)
    const newest = (
      await app.services.db
        .selectFrom('api_keys')
        .select('key_id')
        .where('store_id', '=', STORE_A)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).key_id
    t.not(newest, keyId)
    t.equal((await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, {}, revocable)).statusCode, 200)
    await revokeApiKey(app.services.db, newest)
    const revoked = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, {}, revocable)
    t.equal(revoked.statusCode, 401)
    t.match(revoked.json().error.message, /revoked/)
    // Even a malformed body is refused for want of a credential first.
    t.equal((await rpc(app, 'garbage', {}, null)).statusCode, 401)
  })

  t.test('protected-resource metadata (RFC 9728) at both well-known paths', async (t) => {
    for (const url of ['/.well-known/oauth-protected-resource/api/v1/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await app.app.inject({ method: 'GET', url, headers: { origin: 'https://claude.ai' } })
      t.equal(res.statusCode, 200, url)
      const doc = res.json()
      t.equal(doc.resource, `${BASE}/api/v1/mcp`)
      t.same(doc.authorization_servers, [BASE])
      t.same(doc.scopes_supported, [...SCOPES])
      t.equal(doc.scopes_supported.length, 18)
      t.same(doc.bearer_methods_supported, ['header'])
      t.ok(doc.resource_documentation.startsWith(BASE))
      t.equal(res.headers['access-control-allow-origin'], '*', 'readable from any origin')
    }
    const pre = await app.app.inject({
      method: 'OPTIONS',
      url: '/.well-known/oauth-protected-resource/api/v1/mcp',
      headers: { origin: 'https://claude.ai', 'access-control-request-method': 'GET' },
    })
    t.equal(pre.statusCode, 204)
    t.equal(pre.headers['access-control-allow-origin'], '*')
  })

  t.test('Origin: the service’s own and loopback origins are accepted, others refused with 403', async (t) => {
    for (const origin of [
      BASE,
      'http://localhost:6274',
      'http://127.0.0.1:3000',
      'http://[::1]:8080',
      'https://localhost',
    ]) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { origin })
      t.equal(res.statusCode, 200, origin)
      t.equal(res.headers['access-control-allow-origin'], origin)
      const exposed = String(res.headers['access-control-expose-headers']).toLowerCase()
      for (const h of [
        'www-authenticate',
        'mcp-protocol-version',
        'x-request-id',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
      ])
        t.ok(exposed.includes(h), `${h} exposed`)
    }
    for (const origin of [
      'https://evil.example',
      'http://storefront.test.evil.example',
      'null',
      'http://localhost.evil.example',
      'file://',
    ]) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { origin })
      t.equal(res.statusCode, 403, origin)
      t.equal(res.json().error.code, 'FORBIDDEN_ORIGIN')
      t.notOk(res.headers['access-control-allow-origin'])
      const get = await app.app.inject({ method: 'GET', url: '/api/v1/mcp', headers: { origin } })
      t.equal(get.statusCode, 403)
    }
    const preflight = await app.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/mcp',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    })
    t.equal(preflight.statusCode, 204)
    t.equal(preflight.headers['access-control-allow-origin'], 'http://localhost:6274')
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase()
    for (const h of ['authorization', 'content-type', 'mcp-protocol-version', 'last-event-id'])
      t.ok(allowed.includes(h), `${h} allowed`)
    t.match(preflight.headers['access-control-allow-methods'], /POST/)
    t.equal(preflight.headers['access-control-max-age'], '600', 'browsers keep the preflight for 10 minutes')
    t.match(preflight.headers.vary, /\bOrigin\b/)
    // An answer without Origin differs from one with it: caches must keep them apart.
    const noOrigin = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' })
    t.notOk(noOrigin.headers['access-control-allow-origin'])
    t.match(noOrigin.headers.vary, /\bOrigin\b/, 'Vary: Origin on answers to clients that send no Origin')
    const foreign = await app.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/mcp',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    })
    t.equal(foreign.statusCode, 403)
  })

  t.test('content negotiation: JSON in, JSON out', async (t) => {
    const sseOnly = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'text/event-stream' })
    t.equal(sseOnly.statusCode, 406)
    t.equal(sseOnly.json().error.code, 'NOT_ACCEPTABLE')
    const jsonOnly = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'application/json' })
    t.equal(jsonOnly.statusCode, 200, 'application/json alone is enough: every answer is JSON')
    const text = await rpc(app, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'content-type': 'text/plain' })
    t.equal(text.statusCode, 415)
    t.equal(text.json().error.code, 'UNSUPPORTED_MEDIA_TYPE')
  })

  t.test('X-Request-Id is echoed and carried by tool errors', async (t) => {
    const res = await rpc(
      app,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_theme', arguments: { id: 'thm_missing' } } },
      { 'x-request-id': 'req-mcp-123' },
    )
    t.equal(res.headers['x-request-id'], 'req-mcp-123')
    t.equal(res.json().result.isError, true)
    t.same(res.json().result.structuredContent, {
      error: { code: 'NOT_FOUND', message: 'theme not found', requestId: 'req-mcp-123' },
    })
    t.ok(res.headers['x-ratelimit-limit'], 'rate-limit headers on MCP responses')
  })

  t.test('resources: unknown, foreign and unauthorised reads are JSON-RPC errors', async (t) => {
    const list = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'resources/list' })
    const uris = list.json().result.resources.map((r: { uri: string }) => r.uri)
    t.ok(uris.includes('storefront://context'))
    t.ok(uris.includes('storefront://schema'))
    const themeUri = uris.find((u: string) => u.startsWith('storefront://themes/'))
    t.ok(themeUri, 'the seeded themes are listed')
    const read = await rpc(app, {
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/read',
      params: { uri: 'storefront://schema' },
    })
    const rest = await app.app.inject({
      method: 'GET',
      url: '/api/v1/themes/schema',
      headers: { authorization: `Bearer ${app.keyA}` },
    })
    t.same(JSON.parse(read.json().result.contents[0].text), rest.json().data, 'the schema resource is the REST schema')
    t.equal(read.json().result.contents[0].mimeType, 'application/json')
    const context = await rpc(app, {
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/read',
      params: { uri: 'storefront://context' },
    })
    t.equal(JSON.parse(context.json().result.contents[0].text).store.id, STORE_A)

    const foreignList = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'resources/list' }, {}, app.keyB)
    const foreignTheme = foreignList
      .json()
      .result.resources.find((r: { uri: string }) => r.uri.startsWith('storefront://themes/')).uri
    for (const uri of [
      'storefront://nothing',
      'https://example.com/',
      foreignTheme,
      'storefront://themes/',
      'storefront://themes/a/b',
    ]) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri } })
      t.equal(res.json().error.code, -32002, uri)
      t.equal(res.json().error.data.code, 'NOT_FOUND')
    }
    const noScope = await app.key(STORE_A, ['store:read'])
    const limited = await rpc(app, { jsonrpc: '2.0', id: 4, method: 'resources/list' }, {}, noScope)
    t.same(
      limited.json().result.resources.map((r: { uri: string }) => r.uri),
      ['storefront://context'],
      'only what the key may read is listed',
    )
    const denied = await rpc(
      app,
      { jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: themeUri } },
      {},
      noScope,
    )
    t.equal(denied.json().error.code, -32003)
    t.equal(denied.json().error.data.code, 'INSUFFICIENT_SCOPE')
    const templates = await rpc(app, { jsonrpc: '2.0', id: 6, method: 'resources/templates/list' })
    t.equal(templates.json().result.resourceTemplates[0].uriTemplate, 'storefront://themes/{id}')
  })

  t.test('upload_media over MCP: base64 image bytes, also beyond the 2 MiB REST JSON body limit', async (t) => {
    const small = encodePng(8, 8, randomBytes(8 * 8 * 3))
    const created = await callTool(app, app.keyA, 'upload_media', {
      dataBase64: small.toString('base64'),
      alt: 'Noise',
    })
    t.notOk(created.isError, 'uploaded')
    const asset = created.structuredContent as { id: string; contentType: string; width: number; height: number }
    t.equal(asset.contentType, 'image/png')
    t.equal(asset.width, 8)
    const again = await callTool(app, app.keyA, 'upload_media', { dataBase64: small.toString('base64'), alt: 'Noise' })
    t.equal((again.structuredContent as { id: string }).id, asset.id, 'the same bytes are the same asset')
    const big = encodePng(1000, 1000, randomBytes(1000 * 1000 * 3))
    t.ok(big.length > 2.5 * 1024 * 1024, 'about 3 MiB of PNG')
    const large = await callTool(app, app.keyA, 'upload_media', { dataBase64: big.toString('base64') })
    t.notOk(large.isError, 'a 3 MiB image (4 MiB of base64) is accepted')
    const svg = await callTool(app, app.keyA, 'upload_media', {
      dataBase64: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString(
        'base64',
      ),
    })
    t.equal(errorOf(svg).code, 'UNSUPPORTED_MEDIA_TYPE', 'SVG is refused as over REST')
    const both = await callTool(app, app.keyA, 'upload_media', {
      url: 'https://cdn.example.com/a.png',
      dataBase64: small.toString('base64'),
    })
    t.equal(errorOf(both).code, 'VALIDATION_FAILED')
  })

  t.test('a trailing slash reaches the same endpoint', async (t) => {
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/v1/mcp/',
      headers: { authorization: `Bearer ${app.keyA}`, 'content-type': 'application/json' },
      payload: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    })
    t.same(res.json(), { jsonrpc: '2.0', id: 1, result: {} })
  })
})
