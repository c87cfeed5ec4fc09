import t from 'tap'
import { sql } from 'kysely'
import { mulberry32 } from '../../src/seed/images.ts'
import { REFUSAL_AUDIT_LIMIT } from '../../src/commands/refusal-audit-limit.ts'
import { STORE_A } from '../support/app.ts'
import { rawRequest, type RawResponse } from '../support/raw-http.ts'
import { liveApp } from '../mcp/support.ts'
import { envelopeProblems, type Res } from './support/world.ts'

// A seeded fuzz of the contract's edges over REST and MCP: malformed JSON, invalid UTF-8,
// oversize path parameters, headers and cursors, bad percent-encoding, missing scopes, and
// raw-socket framing faults no HTTP client would send. Every answer: no 5xx; every non-2xx in
// the envelope with the X-Request-Id as requestId (MCP protocol faults: a JSON-RPC error
// carrying the request id, as the contract has them); every 403 with the insufficient_scope
// challenge; nothing appended but the refusals the audit decision allows
// (docs/decisions/0020-audited-refusals.md). Deterministic: a fixed seed by default;
// EDGE_FUZZ_SEED and EDGE_FUZZ_COUNT change it.

const SEED = Number(process.env.EDGE_FUZZ_SEED ?? 16016)
const COUNT = Number(process.env.EDGE_FUZZ_COUNT ?? 10_000)
// Raw connections are slower than injected requests: a fixed share of the run.
const RAW_SHARE = 0.04
const CONCURRENCY = 8

type Rng = () => number
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!

const MCP = '/api/v1/mcp'
const BAD_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
  [0xf4, 0x90, 0x80, 0x80],
]
const BAD_PERCENT = ['%FF', '%', '%zz', '%C0%80', '%ED%A0%80', '%E2%82', '%%', '%F4%90%80%80', '%0', '%fe%ff']
const BAD_JSON = [
  '{',
  '{"name":',
  '{"name":"x",}',
  "{'name':'x'}",
  '[1,2',
  '{"a":1}{"b":2}',
  'nul',
  '{"a": 1e99999',
  '\u0000',
  '{"a":"\\u12"}',
  '{"a":"\\ud800"',
  ']',
  '"unterminated',
]
const MUTATING = [
  {
    method: 'POST',
    url: (_id: string) => `/api/v1/themes`,
    tool: 'create_theme',
    args: (_id: string) => ({ name: 'x', provider: 'fz' }),
  },
  {
    method: 'PATCH',
    url: (id: string) => `/api/v1/themes/${id}`,
    tool: 'update_theme',
    args: (id: string) => ({ id, name: 'x' }),
  },
  {
    method: 'POST',
    url: (id: string) => `/api/v1/themes/${id}/batch`,
    tool: 'apply_theme_batch',
    args: (id: string) => ({ id, operations: [] }),
  },
  {
    method: 'POST',
    url: (id: string) => `/api/v1/themes/${id}/pages`,
    tool: 'create_page',
    args: (id: string) => ({ id, slug: 'x', title: 'x' }),
  },
  {
    method: 'PATCH',
    url: (_: string) => `/api/v1/navigation`,
    tool: 'update_navigation',
    args: (_: string) => ({ menus: [] }),
  },
  {
    method: 'POST',
    url: (id: string) => `/api/v1/themes/${id}/publish`,
    tool: 'publish_theme',
    args: (id: string) => ({ id }),
  },
] as const
const READS = ['/api/v1/products', '/api/v1/collections', '/api/v1/orders', '/api/v1/customers']

// A JSON text with a malformed UTF-8 sequence spliced into a string value.
function badUtf8Json(r: Rng, json: string): Buffer {
  const at = json.indexOf('"', json.indexOf(':') + 1) + 1 || 2
  return Buffer.concat([Buffer.from(json.slice(0, at)), Buffer.from(pick(r, BAD_UTF8)), Buffer.from(json.slice(at))])
}

type Case = {
  kind: string
  inject?: { method: string; url: string; headers: Record<string, string>; payload?: string | Buffer }
  raw?: Buffer | string
}

function buildCase(r: Rng, ctx: { keyAll: string; keyRead: string; draftId: string }): Case {
  const auth = (key = ctx.keyAll) => ({ authorization: `Bearer ${key}` })
  const json = { 'content-type': 'application/json' }
  const mcpHeaders = { ...json, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }
  const target = pick(r, MUTATING)
  const rpc = (args: unknown, name: string = target.tool) =>
    JSON.stringify({ jsonrpc: '2.0', id: int(r, 1, 1e6), method: 'tools/call', params: { name, arguments: args } })
  switch (int(r, 0, 11)) {
    case 0:
      return {
        kind: 'rest malformed JSON',
        inject: {
          method: target.method,
          url: target.url(ctx.draftId),
          headers: { ...auth(), ...json },
          payload: pick(r, BAD_JSON),
        },
      }
    case 1:
      return {
        kind: 'rest invalid UTF-8',
        inject: {
          method: target.method,
          url: target.url(ctx.draftId),
          headers: { ...auth(), ...json },
          payload: badUtf8Json(r, JSON.stringify(target.args(ctx.draftId))),
        },
      }
    case 2:
      return {
        kind: 'rest oversize path parameter',
        inject: {
          method: pick(r, ['GET', 'PATCH', 'DELETE']),
          url: `/api/v1/themes/${'t'.repeat(int(r, 2049, 6000))}`,
          headers: auth(),
        },
      }
    case 3:
      return {
        kind: 'rest oversize cursor',
        inject: { method: 'GET', url: `${pick(r, READS)}?cursor=${'c'.repeat(int(r, 500, 12_000))}`, headers: auth() },
      }
    case 4: {
      const where = int(r, 0, 2)
      const bad = pick(r, BAD_PERCENT)
      const url =
        where === 0
          ? `/api/v1/products/${bad}`
          : where === 1
            ? `/api/v1/themes/${ctx.draftId}${bad}/pages`
            : `${pick(r, READS)}?cursor=${bad}&limit=${pick(r, ['1', bad])}`
      return { kind: 'rest bad percent-encoding', inject: { method: 'GET', url, headers: auth() } }
    }
    case 5:
      return {
        kind: 'rest missing scope',
        inject: {
          method: target.method,
          url: target.url(ctx.draftId),
          headers: { ...auth(ctx.keyRead), ...json },
          payload: JSON.stringify(target.args(ctx.draftId)),
        },
      }
    case 6: {
      const name = pick(r, ['if-match', 'idempotency-key', 'content-type', 'authorization', 'x-request-id'])
      const value = pick(r, [
        '"',
        'W/',
        '*, "1"',
        'x'.repeat(int(r, 1, 3000)),
        'Bearer',
        'text/plain',
        'application/json; charset=utf-16',
        '\t',
      ])
      return {
        kind: `rest odd ${name}`,
        inject: {
          method: target.method,
          url: target.url(ctx.draftId),
          headers: { ...auth(), ...json, [name]: value },
          payload: pick(r, BAD_JSON),
        },
      }
    }
    case 7:
      return {
        kind: 'mcp malformed JSON',
        inject: { method: 'POST', url: MCP, headers: { ...auth(), ...mcpHeaders }, payload: pick(r, BAD_JSON) },
      }
    case 8:
      return {
        kind: 'mcp invalid UTF-8',
        inject: {
          method: 'POST',
          url: MCP,
          headers: { ...auth(), ...mcpHeaders },
          payload: badUtf8Json(r, rpc(target.args(ctx.draftId))),
        },
      }
    case 9:
      return {
        kind: 'mcp missing scope',
        inject: {
          method: 'POST',
          url: MCP,
          headers: { ...auth(ctx.keyRead), ...mcpHeaders },
          payload: rpc(target.args(ctx.draftId)),
        },
      }
    case 10: {
      // Arguments that fail the tool's schema: oversize, wrong types, unknown keys.
      const args = {
        ...target.args(ctx.draftId),
        [pick(r, ['name', 'id', 'operations', 'menus', 'extra'])]: pick(r, [
          null,
          42,
          'x'.repeat(int(r, 3000, 70_000)),
          { deep: [[[]]] },
          ['a'],
        ]),
      }
      return {
        kind: 'mcp bad arguments',
        inject: { method: 'POST', url: MCP, headers: { ...auth(), ...mcpHeaders }, payload: rpc(args) },
      }
    }
    default: {
      const bad = pick(r, BAD_PERCENT)
      return {
        kind: 'mcp bad percent-encoding / oversize',
        inject: {
          method: 'POST',
          url: pick(r, [`${MCP}/${bad}`, `${MCP}?x=${bad}`, `${MCP}/${'m'.repeat(int(r, 2049, 4000))}`]),
          headers: { ...auth(), ...mcpHeaders },
          payload: rpc({}),
        },
      }
    }
  }
}

// Framing faults: a request the parser refuses, or (with a large header or URL) one over its limits.
function rawCase(r: Rng, key: string): Case {
  const path = pick(r, ['/api/v1/context', '/api/v1/themes', MCP, '/api/v1/products'])
  const host = 'Host: storefront.test\r\n'
  const auth = `Authorization: Bearer ${key}\r\n`
  const faults: (() => Buffer | string)[] = [
    () =>
      `GET ${path} HTTP/1.1\r\n${host}X-Fault: a${String.fromCharCode(pick(r, [1, 2, 8, 11, 12, 14, 27, 127]))}b\r\n\r\n`,
    () => `GET ${path} HTTP/${pick(r, ['9.9', '2.0', '1.2', '0.8', 'x'])}\r\n${host}\r\n`,
    () =>
      `POST ${path} HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${pick(r, ['ZZ', '-1', '0x2', 'fffffffffffffffffff', ' 2'])}\r\n{}\r\n0\r\n\r\n`,
    () =>
      `POST ${path} HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    () => `POST ${path} HTTP/1.1\r\n${host}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x`,
    () =>
      Buffer.concat([
        Buffer.from(`GET ${path}/`),
        Buffer.from([pick(r, [0xff, 0x80, 0xc3, 0x00, 0x7f])]),
        Buffer.from(` HTTP/1.1\r\n${host}\r\n`),
      ]),
    () => `GET ${path} HTTP/1.1\r\n${host}X-Big: ${'b'.repeat(int(r, 17_000, 40_000))}\r\n\r\n`,
    () => `GET /api/v1/products?cursor=${'c'.repeat(int(r, 17_000, 40_000))} HTTP/1.1\r\n${host}${auth}\r\n`,
    () => `${pick(r, ['FOO', 'G ET', 'GET\t', '\u0000GET'])} ${path} HTTP/1.1\r\n${host}\r\n`,
    () => `GET ${path} HTTP/1.1\r\n${host}Bad Header Name: x\r\n\r\n`,
    () => `GET ${path} HTTP/1.1\r\n${host}Transfer-Encoding: gzip, chunked, identity\r\n\r\n`,
    () => `GET /api/v1/products/${pick(r, BAD_PERCENT)} HTTP/1.1\r\n${host}${auth}\r\n`,
  ]
  return { kind: 'raw framing fault', raw: pick(r, faults)() }
}

const CHALLENGE =
  /^Bearer error="insufficient_scope", scope="[a-z:]+( [a-z:]+)*", resource_metadata="http:\/\/storefront\.test\/\.well-known\/oauth-protected-resource\/api\/v1\/mcp"$/

// What is wrong with one answer (empty: nothing).
function problemsOf(kind: string, res: Res): string[] {
  if (res.statusCode >= 500) return [`${res.statusCode}: ${res.body.slice(0, 200)}`]
  // Node's parser takes a few odd request lines (HTTP/2.0 on the HTTP/1 port) as valid reads.
  if (kind === 'raw framing fault' && res.statusCode < 300) return []
  if (res.statusCode < 300) {
    // Only MCP answers 200: a tool result refusing the call (isError) or a JSON-RPC error.
    const body = JSON.parse(res.body)
    const refused = body.error !== undefined || body.result?.isError === true
    return refused ? [] : [`${res.statusCode} accepted: ${res.body.slice(0, 200)}`]
  }
  const problems: string[] = []
  if (res.statusCode === 403 && !CHALLENGE.test(String(res.headers['www-authenticate'] ?? '')))
    problems.push(`403 without the challenge: ${String(res.headers['www-authenticate'])}`)
  if (kind.startsWith('mcp') && res.statusCode === 400) {
    // A JSON-RPC protocol fault (-32700, -32600) is the JSON-RPC error form, with the request id.
    const body = JSON.parse(res.body)
    if (body.jsonrpc === '2.0')
      return body.error?.data?.requestId === res.headers['x-request-id'] && typeof body.error.code === 'number'
        ? problems
        : [...problems, `JSON-RPC error without the request id: ${res.body.slice(0, 200)}`]
  }
  return [...problems, ...envelopeProblems(res)]
}

const fromRaw = (raw: RawResponse): Res => ({
  statusCode: raw.status,
  headers: raw.headers,
  body: raw.body,
  json: () => JSON.parse(raw.body),
})

t.test(`edge fuzz: ${COUNT} requests over REST, MCP and raw sockets (seed ${SEED})`, async (t) => {
  const app = await liveApp(t)
  const port = Number(new URL(app.url).port)
  const keyRead = await app.key(STORE_A, ['store:read'])
  const draft = await app.app.inject({
    method: 'POST',
    url: '/api/v1/themes',
    headers: { authorization: `Bearer ${app.keyA}` },
    payload: { name: 'Fuzz target', provider: 'fz' },
  })
  const draftId = draft.json().data.id as string
  const counts = async () => {
    const row = (
      await sql<{
        all: string
        rejected: string
      }>`select count(*) as "all", count(*) filter (where type = 'CommandRejected') as rejected from events`.execute(
        app.services.db,
      )
    ).rows[0]!
    return { all: Number(row.all), rejected: Number(row.rejected) }
  }
  const before = await counts()
  const r = mulberry32(SEED)
  const stats: Record<string, Record<string, number>> = {}
  const ms: Record<string, number> = {}
  const failures: string[] = []
  const started = Date.now()
  let noAnswer = 0

  // Cases come from one seeded stream, taken in order; a few requests are in flight at once (the
  // answers do not depend on each other: nothing a case sends can apply).
  let next = 0
  const worker = async () => {
    while (next < COUNT && failures.length < 30) {
      const i = next++
      const c = r() < RAW_SHARE ? rawCase(r, app.keyA) : buildCase(r, { keyAll: app.keyA, keyRead, draftId })
      await runCase(i, c)
    }
  }
  const runCase = async (i: number, c: Case) => {
    let res: Res
    const t0 = performance.now()
    if (c.raw !== undefined) {
      const raw = await rawRequest(port, c.raw)
      if (raw === null) {
        noAnswer++
        return
      }
      res = fromRaw(raw)
    } else {
      res = (await app.app.inject({
        ...c.inject!,
        method: c.inject!.method as 'GET',
        remoteAddress: `10.1.${i % 250}.${(i >> 8) % 250}`,
      })) as unknown as Res
    }
    ;(stats[c.kind] ??= {})[res.statusCode] = (stats[c.kind]![res.statusCode] ?? 0) + 1
    ms[c.kind] = (ms[c.kind] ?? 0) + performance.now() - t0
    let problems: string[]
    try {
      problems = problemsOf(c.kind, res)
    } catch (error) {
      problems = [`unreadable answer ${res.statusCode}: ${(error as Error).message} ${res.body.slice(0, 120)}`]
    }
    if (problems.length > 0)
      failures.push(
        `#${i} ${c.kind}: ${problems.join('; ')} (${c.inject ? `${c.inject.method} ${c.inject.url.slice(0, 120)}` : String(c.raw).slice(0, 120)})`,
      )
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  const seconds = (Date.now() - started) / 1000
  t.comment(`${COUNT} requests in ${seconds.toFixed(1)} s; ${noAnswer} raw connection(s) closed without an answer`)
  for (const [kind, byStatus] of Object.entries(stats))
    t.comment(`${kind}: ${JSON.stringify(byStatus)}, ${Math.round(ms[kind]!)} ms`)
  for (const failure of failures) t.fail(failure)
  t.equal(failures.length, 0, 'no 5xx, every non-2xx in the envelope, every 403 with the challenge')
  const answered = Object.values(stats).reduce((n, s) => n + Object.values(s).reduce((a, b) => a + b, 0), 0)
  t.equal(answered + noAnswer, COUNT, 'every request was sent')
  t.equal(noAnswer, 0, 'every framing fault was answered (HTTP allowed an answer for each)')

  // Nothing reached a command except as an audited refusal, within its budget.
  const after = await counts()
  t.equal(after.all - before.all, after.rejected - before.rejected, 'no event but refusal audits was appended')
  t.ok(
    after.rejected - before.rejected <= REFUSAL_AUDIT_LIMIT.max * 2,
    `refusal audits stay within the two credentials' budgets (${after.rejected - before.rejected})`,
  )

  const health = await app.app.inject({
    method: 'GET',
    url: '/api/v1/context',
    headers: { authorization: `Bearer ${app.keyA}` },
  })
  t.equal(health.statusCode, 200, 'the service still answers')
})
