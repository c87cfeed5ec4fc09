import t from 'tap'
import { z } from 'zod'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { toolInputSchema } from '../../src/operations/invoke.ts'
import { toolByName, tools } from '../../src/mcp/tools.ts'
import { testApp } from '../support/app.ts'
import { rpc } from './support.ts'

// An agent loads tools/list into its context on every session: the whole answer (all tools,
// history tools included) has a budget of 48,000 bytes (issue 12), without losing what agents
// need — complete input schemas, the theme document named instead of expanded, descriptions that
// say when to use a tool and what comes next.
const BUDGET = 48_000

t.test('tools/list fits the budget and keeps what agents need', async (t) => {
  const app = await testApp(t)
  const res = await rpc(
    app,
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    { 'mcp-protocol-version': '2025-11-25' },
  )
  t.equal(res.statusCode, 200)
  const result = res.json().result as { tools: Tool[] }
  const bytes = Buffer.byteLength(JSON.stringify(result))
  t.ok(bytes <= BUDGET, `tools/list result is ${bytes} bytes (budget ${BUDGET})`)
  t.equal(result.tools.length, tools.length, 'every tool is listed')
  for (const name of ['list_theme_versions', 'get_theme_version', 'diff_theme', 'blame_theme', 'revert_theme'])
    t.ok(
      result.tools.some((x) => x.name === name),
      `${name} is listed`,
    )

  const byName = new Map(result.tools.map((d) => [d.name, d]))
  const getTheme = JSON.stringify(byName.get('get_theme')!.outputSchema)
  t.notOk(getTheme.includes('section-hero'), 'no section definitions in get_theme’s output schema')
  t.match(getTheme, /storefront:\/\/schema/, 'the theme document points at the schema resource')

  const publish = byName.get('publish_theme')!.description!
  t.match(publish, /diff_theme/, 'publish_theme: diff before publishing')
  t.match(publish, /expectedVersion/, 'publish_theme: pass the previewed version')
  t.match(byName.get('preview_theme')!.description!, /diff_theme/, 'preview_theme says what comes next')
  for (const d of result.tools)
    t.ok(d.description!.length <= 300, `${d.name}: a short description (${d.description!.length} characters)`)
})

// What the input schemas may leave out of z.toJSONSchema's output: descriptions repeated within
// one tool, and keywords JSON Schema implies. Everything else (every property, type, bound,
// pattern, enum, default, required list, strictness) must be there.
const SAFE = Number.MAX_SAFE_INTEGER
function constraints(node: unknown, descriptions: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => constraints(n, descriptions))
  if (!node || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' && typeof value === 'string') descriptions.add(value)
    else if (key === '$schema') continue
    else if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue
    else if (key === 'additionalProperties' && JSON.stringify(value) === '{}') continue
    else if ((key === 'maximum' && value === SAFE) || (key === 'minimum' && value === -SAFE)) continue
    else out[key] = constraints(value, descriptions)
  }
  return out
}

t.test('input schemas are complete: every constraint and description of the zod schemas', async (t) => {
  for (const tool of tools) {
    const schema = toolInputSchema(tool.op)
    const input =
      tool.excluded.length > 0
        ? z.strictObject(Object.fromEntries(Object.entries(schema.shape).filter(([k]) => !tool.excluded.includes(k))))
        : schema
    const wanted = new Set<string>()
    const given = new Set<string>()
    const full = constraints(
      z.toJSONSchema(input, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }),
      wanted,
    )
    t.same(
      constraints(toolByName.get(tool.name)!.definition.inputSchema, given),
      full,
      `${tool.name}: the same constraints as its zod schema`,
    )
    t.same([...given].sort(), [...wanted].sort(), `${tool.name}: every description, once`)
  }
})
