import t from 'tap'
import { REFUSAL_AUDIT_LIMIT } from '../../src/commands/refusal-audit-limit.ts'
import { STORE_A } from '../support/app.ts'
import { rawRequest } from '../support/raw-http.ts'
import { liveApp, type LiveApp } from '../mcp/support.ts'
import { envelopeProblems, type Res } from './support/world.ts'

// The contract's edges, one precise answer each: what the router and Node's HTTP parser refuse
// is in the envelope with a request id and its own code; malformed UTF-8 in a JSON body is a
// 400 that changes nothing, on REST and MCP; refusals of one credential stop filling the
// activity view past their budget.

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))))
const eventCount = async (app: LiveApp) =>
  Number(
    (
      await app.services.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

t.test('router and parser faults answer in the envelope with a precise code', async (t) => {
  const app = await liveApp(t)
  const port = Number(new URL(app.url).port)
  const auth = `Authorization: Bearer ${app.keyA}\r\n`
  const host = 'Host: storefront.test\r\n'
  const cases: { label: string; request: Buffer | string; status: number; code: string }[] = [
    {
      label: 'bad percent-encoding in a path parameter',
      request: `GET /api/v1/products/%FF HTTP/1.1\r\n${host}${auth}\r\n`,
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    {
      label: 'a path parameter over 2,048 characters',
      request: `GET /api/v1/themes/${'t'.repeat(2049)} HTTP/1.1\r\n${host}${auth}\r\n`,
      status: 414,
      code: 'URI_TOO_LONG',
    },
    {
      label: 'a 20,000-character cursor',
      request: `GET /api/v1/products?cursor=${'c'.repeat(20_000)} HTTP/1.1\r\n${host}${auth}\r\n`,
      status: 414,
      code: 'URI_TOO_LONG',
    },
    {
      label: 'a 20 KB header',
      request: `GET /api/v1/context HTTP/1.1\r\n${host}${auth}X-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      status: 431,
      code: 'HEADERS_TOO_LARGE',
    },
    {
      label: 'a control byte in a header value',
      request: `GET /api/v1/context HTTP/1.1\r\n${host}X-A: a\x01b\r\n\r\n`,
      status: 400,
      code: 'MALFORMED_REQUEST',
    },
    {
      label: 'HTTP/9.9',
      request: `GET /api/v1/context HTTP/9.9\r\n${host}\r\n`,
      status: 400,
      code: 'MALFORMED_REQUEST',
    },
    {
      label: 'a bad chunk size',
      request: `POST /api/v1/themes HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
      status: 400,
      code: 'MALFORMED_REQUEST',
    },
    {
      label: 'Content-Length with Transfer-Encoding',
      request: `POST /api/v1/themes HTTP/1.1\r\n${host}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      status: 400,
      code: 'MALFORMED_REQUEST',
    },
    {
      label: 'a raw 0xFF in the path',
      request: bytes('GET /api/v1/products/', [0xff], ` HTTP/1.1\r\n${host}\r\n`),
      status: 400,
      code: 'MALFORMED_REQUEST',
    },
    {
      label: 'an unknown method',
      request: `BREW /api/v1/context HTTP/1.1\r\n${host}\r\n`,
      status: 400,
      code: 'MALFORMED_REQUEST',
    },
  ]
  for (const c of cases) {
    const raw = await rawRequest(port, c.request)
    if (!raw) {
      t.fail(`${c.label}: no answer`)
      continue
    }
    const res: Res = { statusCode: raw.status, headers: raw.headers, body: raw.body, json: () => JSON.parse(raw.body) }
    t.same(
      envelopeProblems(res, { status: c.status, code: c.code }),
      [],
      `${c.label}: ${c.status} ${c.code} in the envelope with the X-Request-Id`,
    )
  }
  // The same through fastify's injection (no socket): the router's answers.
  const bad = await app.app.inject({
    method: 'GET',
    url: '/api/v1/products/%E2%82',
    headers: { authorization: `Bearer ${app.keyA}` },
  })
  t.same(envelopeProblems(bad as never, { status: 400, code: 'VALIDATION_FAILED' }), [])
  t.match(bad.json().error.message, /percent-encoded UTF-8/)
  // A keep-alive connection survives a router refusal (the parser faults close it).
  const raw = await rawRequest(port, `GET /api/v1/products/%FF HTTP/1.1\r\n${host}${auth}\r\n`)
  t.equal(raw?.headers.connection, 'keep-alive')
})

t.test('malformed UTF-8 in a JSON body is 400 VALIDATION_FAILED and changes nothing, on REST and MCP', async (t) => {
  const app = await liveApp(t)
  const auth = { authorization: `Bearer ${app.keyA}`, 'content-type': 'application/json' }
  const draft = (
    await app.app.inject({
      method: 'POST',
      url: '/api/v1/themes',
      headers: auth,
      payload: { name: 'Draft', provider: 'tap' },
    })
  ).json().data.id as string
  const before = await eventCount(app)
  const invalid = (json: string) =>
    bytes(
      json.slice(0, json.indexOf('"', json.indexOf(':') + 1) + 1),
      [0xff, 0xfe],
      json.slice(json.indexOf('"', json.indexOf(':') + 1) + 1),
    )
  const rest = [
    { method: 'POST', url: '/api/v1/themes', json: '{"name":"","provider":"fz"}' },
    { method: 'PATCH', url: `/api/v1/themes/${draft}`, json: '{"name":""}' },
    {
      method: 'POST',
      url: `/api/v1/themes/${draft}/batch`,
      json: '{"operations":[{"op":"createPage","page":{"slug":"x","title":""}}]}',
    },
  ]
  for (const r of rest) {
    const res = await app.app.inject({
      method: r.method as 'POST',
      url: r.url,
      headers: auth,
      payload: invalid(r.json),
    })
    t.same(envelopeProblems(res as never, { status: 400, code: 'VALIDATION_FAILED' }), [], `${r.method} ${r.url}`)
    t.match(res.json().error.message, /not valid UTF-8/)
    t.match(res.json().error.details.issues[0].message, /malformed UTF-8/)
  }
  const mcp = await app.app.inject({
    method: 'POST',
    url: '/api/v1/mcp',
    headers: { ...auth, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    payload: invalid(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_theme","arguments":{"name":"","provider":"fz"}}}',
    ),
  })
  t.same(envelopeProblems(mcp as never, { status: 400, code: 'VALIDATION_FAILED' }), [], 'MCP: the same refusal')
  t.equal(await eventCount(app), before, 'nothing appended')
  // Well-formed multi-byte text still passes.
  const ok = await app.app.inject({
    method: 'PATCH',
    url: `/api/v1/themes/${draft}`,
    headers: auth,
    payload: bytes('{"name":"Caf', [0xc3, 0xa9], ' 🙂"}'),
  })
  t.equal(ok.statusCode, 200)
  t.equal(ok.json().data.name, 'Café 🙂')
})

t.test('the activity view records a credential’s refused commands up to its budget', async (t) => {
  const app = await liveApp(t)
  const key = await app.key(STORE_A)
  const other = await app.key(STORE_A)
  const headers = (k: string) => ({ authorization: `Bearer ${k}`, 'content-type': 'application/json' })
  const draft = (
    await app.app.inject({
      method: 'POST',
      url: '/api/v1/themes',
      headers: headers(key),
      payload: { name: 'Budget', provider: 'tap' },
    })
  ).json().data.id as string
  const rejected = async () =>
    Number(
      (
        await app.services.db
          .selectFrom('events')
          .where('type', '=', 'CommandRejected')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const before = await rejected()
  // A refusal decided by the command (a stale expected version): audited until the budget is spent.
  const stale = (k: string) =>
    app.app.inject({
      method: 'PATCH',
      url: `/api/v1/themes/${draft}`,
      headers: { ...headers(k), 'if-match': '"999"' },
      payload: { name: 'x' },
    })
  for (let i = 0; i < REFUSAL_AUDIT_LIMIT.max + 5; i++) t.equal((await stale(key)).statusCode, 409)
  t.equal(
    (await rejected()) - before,
    REFUSAL_AUDIT_LIMIT.max,
    `${REFUSAL_AUDIT_LIMIT.max} rows, not ${REFUSAL_AUDIT_LIMIT.max + 5}`,
  )
  t.equal((await stale(other)).statusCode, 409)
  t.equal((await rejected()) - before, REFUSAL_AUDIT_LIMIT.max + 1, 'another credential has its own budget')
  // A missing scope and input the schema refuses are attempts the merchant sees: one row each,
  // naming the operation and the code. Transport faults and refused reads are not.
  const reader = await app.key(STORE_A, ['store:read', 'themes:read'])
  t.equal(
    (
      await app.app.inject({
        method: 'PATCH',
        url: `/api/v1/themes/${draft}`,
        headers: headers(reader),
        payload: { name: 'x' },
      })
    ).statusCode,
    403,
  )
  const third = await app.key(STORE_A)
  t.equal(
    (
      await app.app.inject({
        method: 'PATCH',
        url: `/api/v1/themes/${draft}`,
        headers: headers(third),
        payload: { name: 42 },
      })
    ).statusCode,
    400,
  )
  t.equal(
    (await rejected()) - before,
    REFUSAL_AUDIT_LIMIT.max + 3,
    'a row for the scope refusal and one for the schema refusal',
  )
  const rows = await app.services.db
    .selectFrom('events')
    .where('type', '=', 'CommandRejected')
    .orderBy('global_position', 'desc')
    .limit(2)
    .select(['data', 'metadata'])
    .execute()
  t.same(
    rows.map((r) => [(r.metadata as { command: string }).command, (r.data as { code: string }).code]),
    [
      ['updateTheme', 'VALIDATION_FAILED'],
      ['updateTheme', 'INSUFFICIENT_SCOPE'],
    ],
    'each row names the operation and the refusal code',
  )
  t.equal(
    (
      await app.app.inject({
        method: 'PATCH',
        url: `/api/v1/themes/${draft}`,
        headers: headers(third),
        payload: '{"name":',
      })
    ).statusCode,
    400,
  )
  const noRead = await app.key(STORE_A, ['store:read'])
  t.equal(
    (await app.app.inject({ method: 'GET', url: `/api/v1/themes/${draft}`, headers: headers(noRead) })).statusCode,
    403,
  )
  t.equal((await rejected()) - before, REFUSAL_AUDIT_LIMIT.max + 3, 'no row for a transport fault or a refused read')
  // The budget covers these refusals too: a key without scopes cannot flood the view.
  const none = await app.key(STORE_A, [])
  for (let i = 0; i < REFUSAL_AUDIT_LIMIT.max + 5; i++)
    t.equal(
      (
        await app.app.inject({
          method: 'PATCH',
          url: `/api/v1/themes/${draft}`,
          headers: headers(none),
          payload: { name: 'x' },
        })
      ).statusCode,
      403,
    )
  t.equal((await rejected()) - before, 2 * REFUSAL_AUDIT_LIMIT.max + 3, 'scope refusals stop adding rows at the budget')
})
