import t from 'tap'
import { bearer, testApp } from '../support/app.ts'
import { rpc } from './support.ts'

// Issue 33 point 4: a JSON-RPC batch is as many calls as it has messages. Every message counts
// against the credential's rate limit; a batch that goes past it runs none of its messages and
// answers 429 with an error per request, by id; batches are refused under the protocol versions
// whose transport takes one message per POST.

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
})

t.test('100 messages in one POST count 100; past the budget none runs', async (t) => {
  const app = await testApp(t, { rateLimit: { max: 120, windowSeconds: 60 } })
  const themes = async () => (await app.services.db.selectFrom('themes').select('theme_id').execute()).length
  const before = await themes()
  t.equal((await app.app.inject({ method: 'GET', url: '/api/v1/store', headers: bearer(app.keyA) })).statusCode, 200) // 119 left

  // No MCP-Protocol-Version: 2025-03-26, where batches exist. Two writes among 98 reads.
  const batch = Array.from({ length: 100 }, (_, i) =>
    i < 2 ? call(i + 1, 'create_theme', { name: `Batch ${i}`, provider: 'claude' }) : call(i + 1, 'get_store'),
  )
  const res = await rpc(app, batch)
  t.equal(res.statusCode, 200)
  t.equal(res.json().length, 100, 'one answer per message')
  t.equal(res.headers['x-ratelimit-remaining'], '19', '100 messages counted 100 (120 - 1 - 100)')
  t.equal(await themes(), before + 2, 'the writes ran')

  // 30 more messages with 19 left: messages 20 to 30 are past the budget; none of the 30 runs.
  const over = Array.from({ length: 30 }, (_, i) =>
    i === 0 ? call(1000, 'create_theme', { name: 'Never', provider: 'claude' }) : call(1000 + i, 'get_store'),
  )
  over.splice(5, 0, { jsonrpc: '2.0', method: 'notifications/initialized' } as never)
  const refused = await rpc(app, over)
  t.equal(refused.statusCode, 429, 'the batch is refused')
  t.ok(Number(refused.headers['retry-after']) > 0, 'with Retry-After')
  const answers = refused.json() as { id: number; error: { code: number; message: string; data: { code: string } } }[]
  t.equal(answers.length, 30, 'an answer for each request (the notification gets none)')
  t.same(
    answers.map((a) => a.id),
    over.flatMap((m) => ('id' in m ? [m.id] : [])),
    'each with its id',
  )
  t.ok(
    answers.every((a) => a.error.data.code === 'RATE_LIMITED'),
    'each a rate-limit error',
  )
  t.match(answers[0]!.error.message, /not run/, 'those within the budget were not run either')
  t.match(answers.at(-1)!.error.message, /exceeded/, 'those past it are over the limit')
  t.equal(await themes(), before + 2, 'nothing in the refused batch ran')
})

t.test('batches are refused where the negotiated protocol version has none', async (t) => {
  const app = await testApp(t)
  const batch = [call(1, 'get_store'), call(2, 'create_theme', { name: 'No', provider: 'claude' })]
  for (const version of ['2025-06-18', '2025-11-25']) {
    const res = await rpc(app, batch, { 'mcp-protocol-version': version })
    t.equal(res.statusCode, 400, `${version}: 400`)
    t.equal(res.json().error.code, -32600, `${version}: Invalid Request`)
    t.match(res.json().error.message, /one JSON-RPC message per POST/)
  }
  const ok = await rpc(app, batch.slice(0, 1), { 'mcp-protocol-version': '2025-03-26' })
  t.equal(ok.statusCode, 200, '2025-03-26 keeps batches')
  const named = await app.services.db.selectFrom('themes').select('theme_id').where('name', '=', 'No').execute()
  t.equal(named.length, 0, 'the refused batches ran nothing')
})
