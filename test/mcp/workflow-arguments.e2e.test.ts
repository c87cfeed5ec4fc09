import t from 'tap'
import { STORE_A } from '../support/app.ts'
import { callTool, errorOf, liveApp, rpc } from './support.ts'

// issue 34 point 20: an agent follows get_context's workflow.next from a store with only its live
// theme to a published draft, calling each step's tool with the step's `arguments` as they are
// plus only the content it writes itself. No call may be refused: before `arguments`, agents
// copied `themeId` into the tools and were refused "Unrecognized key themeId".

type Step = { action: string; tool: string | null; arguments: Record<string, unknown>; themeId: string | null }
type InputSchema = { properties?: Record<string, unknown>; required?: string[] }

// What the agent writes itself, per tool: never an id or a version.
const CONTENT: Record<string, Record<string, unknown>> = {
  get_theme_schema: {},
  create_theme: { name: 'Spring', provider: 'claude' },
  duplicate_theme: {},
  apply_theme_batch: { operations: [{ op: 'updateTokens', tokens: { primaryColor: '#224466' } }] },
  preview_theme: {},
  publish_theme: {},
}

t.test('every workflow.next step carries its tool’s identifying arguments, and the tool accepts them', async (t) => {
  const app = await liveApp(t)
  const key = await app.key(STORE_A)
  const listed = (await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, key)).json().result.tools as {
    name: string
    inputSchema: InputSchema
  }[]
  const schemaOf = new Map(listed.map((tool) => [tool.name, tool.inputSchema]))
  const called = new Set<string>()

  for (let round = 0; round < 6; round++) {
    const context = (await callTool(app, key, 'get_context')).structuredContent as {
      workflow: { stage: string; next: Step[] }
      activeThemeId: string | null
      currentDraftId: string | null
    }
    const steps = context.workflow.next.filter((s) => s.tool)
    if (steps.length === 0) break
    for (const s of context.workflow.next) {
      t.ok(s.arguments && typeof s.arguments === 'object', `${s.action} carries arguments`)
      if (!s.tool) t.same(s.arguments, {}, `${s.action} (the merchant's step) names no tool arguments`)
      else if (s.themeId) t.equal(s.arguments.id, s.themeId, `${s.action}: arguments.id is the step's theme`)
    }
    // The step that moves the work on goes last; the others are tried so that they leave the
    // state as it is (a batch as a dry run).
    const [first, ...others] = steps
    for (const s of [...others, first!]) {
      const tool = s.tool!
      const schema = schemaOf.get(tool)
      t.ok(schema, `${tool} is a listed tool`)
      const properties = Object.keys(schema?.properties ?? {})
      for (const name of Object.keys(s.arguments))
        t.ok(properties.includes(name), `${s.action}: "${name}" is a parameter of ${tool}`)
      const args = {
        ...(CONTENT[tool] ?? {}),
        ...(s === first || tool !== 'apply_theme_batch' ? {} : { dryRun: true }),
        ...s.arguments,
      }
      for (const name of schema?.required ?? [])
        t.ok(name in args, `${s.action}: ${tool}'s required "${name}" is given`)
      const result = await callTool(app, key, tool, args)
      t.notOk(
        result.isError,
        `${context.workflow.stage}: ${tool} ${JSON.stringify(s.arguments)} is accepted${result.isError ? `: ${JSON.stringify(errorOf(result))}` : ''}`,
      )
      called.add(tool)
    }
    if (first!.tool === 'publish_theme') break
  }
  t.same(
    [...called].sort(),
    ['apply_theme_batch', 'create_theme', 'duplicate_theme', 'get_theme_schema', 'preview_theme', 'publish_theme'],
    'the walk reached every tool the workflow names, up to publishing',
  )
  const after = (await callTool(app, key, 'get_context')).structuredContent as {
    workflow: { next: Step[] }
    activeThemeId: string
  }
  t.not(after.activeThemeId, null, 'the published draft is live')
})
