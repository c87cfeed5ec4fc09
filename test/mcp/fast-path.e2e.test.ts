import t from 'tap'
import { testApp } from '../support/app.ts'
import { rpc } from './support.ts'

// A single tools/call or tools/list is answered by src/mcp/fast-path.ts, a batch by the SDK
// server: the same message must get the same answer (the same JSON, key order included) both
// ways, and a message the fast path does not take still gets the SDK's answer. The fast path
// splices get_theme's structuredContent as PostgreSQL wrote it (spaces after ':' and ','), so the
// single answer is compared once re-serialised; the text blocks are compared as sent.
t.test('the fast path answers exactly as the SDK server', async (t) => {
  const app = await testApp(t)
  const headers = { 'mcp-protocol-version': '2025-11-25' }
  const themes = (
    await rpc(
      app,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_themes', arguments: {} } },
      headers,
    )
  ).json()
  const themeId = themes.result.structuredContent.themes[0].id as string
  // The request id of an error differs per HTTP request; everything else must not.
  const same = (text: string) =>
    text
      .replace(/"requestId":"[^"]+"/g, '"requestId":"-"')
      .replace(/\\"requestId\\":\\"[^"\\]+\\"/g, '\\"requestId\\":\\"-\\"')

  const messages = [
    { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_theme', arguments: { id: themeId } } },
    { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'get_theme', arguments: { id: 'thm_missing' } } },
    {
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'get_products', arguments: { limit: 2 }, _meta: { progressToken: 1 } },
    },
    { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'get_store' } },
    {
      jsonrpc: '2.0',
      id: 10,
      method: 'tools/call',
      params: { name: 'get_theme', arguments: { id: themeId, extra: true } },
    },
    { jsonrpc: '2.0', id: 11, method: 'tools/list' },
    { jsonrpc: '2.0', id: 12, method: 'tools/list', params: { cursor: 'x' } },
  ]
  for (const message of messages) {
    const single = await rpc(app, message, headers)
    // Batches exist under 2025-03-26 only.
    const batch = await rpc(app, [message], { ...headers, 'mcp-protocol-version': '2025-03-26' })
    t.equal(single.statusCode, 200)
    t.equal(
      single.headers['content-type'],
      batch.headers['content-type'],
      `${message.method} ${message.id}: the same content type`,
    )
    t.equal(single.headers['mcp-protocol-version'], '2025-11-25')
    // (The SDK answers a batch of one with the one answer, not an array.)
    const answered = batch.json()
    const sdk = JSON.stringify(Array.isArray(answered) ? answered[0] : answered)
    t.equal(
      same(JSON.stringify(JSON.parse(single.body))),
      same(sdk),
      `${message.method} ${message.id}: the same answer as the SDK server`,
    )
  }

  // Not taken by the fast path: the SDK's JSON-RPC errors.
  const unknown = (
    await rpc(
      app,
      { jsonrpc: '2.0', id: 20, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      headers,
    )
  ).json()
  t.equal(unknown.error.code, -32602)
  const notObject = (
    await rpc(
      app,
      { jsonrpc: '2.0', id: 21, method: 'tools/call', params: { name: 'get_store', arguments: [1] } },
      headers,
    )
  ).json()
  t.equal(notObject.error.code, -32602)
  const badCursor = (
    await rpc(app, { jsonrpc: '2.0', id: 22, method: 'tools/list', params: { cursor: 5 } }, headers)
  ).json()
  t.equal(badCursor.error.code, -32602)
})

// The answer goes out as bytes kept per result text (src/web/utf8-memo.ts): a second call gets
// the same bytes, and a text past Latin-1 (the demo theme's en dash) is encoded once, correctly.
t.test('a repeated call is answered with the same bytes', async (t) => {
  const app = await testApp(t)
  const headers = { 'mcp-protocol-version': '2025-11-25' }
  const themes = (
    await rpc(
      app,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_themes', arguments: {} } },
      headers,
    )
  ).json()
  const themeId = themes.result.structuredContent.themes[0].id as string
  const call = (id: number) =>
    rpc(
      app,
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_theme', arguments: { id: themeId } } },
      headers,
    )
  const first = await call(1)
  const second = await call(2)
  t.equal(second.body.replace('"id":2}', '"id":1}'), first.body, 'the same answer but for the id')
  t.equal(Number(first.headers['content-length']), Buffer.byteLength(first.body), 'Content-Length counts bytes')
  const answer = first.json()
  t.ok(/[^\u0000-\u00ff]/.test(answer.result.content[0].text), 'the theme has a character past Latin-1')
  t.same(
    JSON.parse(answer.result.content[0].text),
    answer.result.structuredContent,
    'the text block is the structured content',
  )
})
