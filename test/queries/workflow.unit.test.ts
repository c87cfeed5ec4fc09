import t from 'tap'
import { workflowNext, type WorkflowTheme } from '../../src/queries/context/workflow.ts'
import { DEFAULT_AGENT_SCOPES, SCOPES } from '../../src/auth/scopes.ts'

const theme = (over: Partial<WorkflowTheme>): WorkflowTheme => ({
  id: 'thm_1',
  name: 'Draft',
  status: 'draft',
  version: 1,
  lastPreviewedVersion: null,
  updatedAt: '2026-11-21T10:00:00Z',
  editorUrl: 'https://x/editor?themeId=thm_1',
  ...over,
})
const actions = (w: ReturnType<typeof workflowNext>) => w.next.map((s) => s.action)
const agent = new Set<string>(DEFAULT_AGENT_SCOPES)
const publisher = new Set<string>(SCOPES)

t.test('no draft: read the schema, then create one (or duplicate the live theme)', async (t) => {
  t.same(actions(workflowNext([], agent)), ['getThemeSchema', 'createTheme'])
  const live = workflowNext([theme({ id: 'thm_live', status: 'active', version: 3 })], agent)
  t.same(actions(live), ['getThemeSchema', 'createTheme', 'duplicateTheme'])
  t.equal(live.next[2]!.themeId, 'thm_live')
  t.equal(live.stage, 'design')
  t.same(
    actions(workflowNext([], new Set(['store:read']))),
    ['askMerchantForScope'],
    'without themes:create the merchant must act',
  )
})

t.test('an untouched draft: design it in a batch', async (t) => {
  const w = workflowNext([theme({})], agent)
  t.same(actions(w), ['applyThemeBatch'])
  t.equal(w.next[0]!.tool, 'apply_theme_batch')
})

t.test('a changed draft not previewed at its version: preview it', async (t) => {
  t.same(actions(workflowNext([theme({ version: 4 })], agent)), ['createThemePreviewToken', 'applyThemeBatch'])
  t.same(
    actions(workflowNext([theme({ version: 4, lastPreviewedVersion: 3 })], agent)),
    ['createThemePreviewToken', 'applyThemeBatch'],
    'changed since the last preview',
  )
  t.same(actions(workflowNext([theme({ version: 4 })], new Set(['themes:create', 'themes:write']))), [
    'askMerchantForScope',
  ])
})

t.test('a previewed draft: publish with themes:publish, otherwise ask the merchant', async (t) => {
  const ready = theme({ version: 4, lastPreviewedVersion: 4 })
  t.same(actions(workflowNext([ready], publisher)), ['publishTheme', 'applyThemeBatch'])
  const ask = workflowNext([ready], agent)
  t.same(actions(ask), ['askMerchantToPublish', 'applyThemeBatch'])
  t.match(ask.next[0]!.reason, /themes:publish/)
  t.match(ask.next[0]!.reason, /editor\?themeId=thm_1/)
})

t.test('with several drafts the most recently changed one is followed', async (t) => {
  const w = workflowNext(
    [
      theme({ id: 'old', updatedAt: '2026-01-01T00:00:00Z' }),
      theme({ id: 'new', version: 2, updatedAt: '2026-11-01T00:00:00Z' }),
    ],
    agent,
  )
  t.equal(w.next[0]!.themeId, 'new')
})

t.test('each step names its tool’s identifying arguments; themeId stays for v1 clients', async (t) => {
  const live = workflowNext([theme({ id: 'thm_live', status: 'active', version: 3 })], agent)
  t.same(
    live.next.map((s) => s.arguments),
    [{}, {}, { id: 'thm_live' }],
    'schema and create name no theme; duplicate names the live one',
  )
  t.same(workflowNext([theme({})], agent).next[0]!.arguments, { id: 'thm_1' })
  const ready = theme({ version: 4, lastPreviewedVersion: 4 })
  const publish = workflowNext([ready], publisher).next[0]!
  t.same(publish.arguments, { id: 'thm_1', expectedVersion: 4 }, 'publishing names the previewed version')
  t.equal(publish.themeId, 'thm_1')
  const ask = workflowNext([ready], agent).next[0]!
  t.same(ask.arguments, {}, 'a merchant step has no tool and no arguments')
  t.equal(ask.themeId, 'thm_1')
})

t.test('a previewed draft with check errors: fix them before anyone is asked to publish', async (t) => {
  const previewed = [theme({ version: 4, lastPreviewedVersion: 4 })]
  for (const scopes of [agent, publisher]) {
    const w = workflowNext(previewed, scopes, 2)
    t.same(actions(w), ['getThemeChecks', 'applyThemeBatch'])
    t.equal(w.next[0]!.tool, 'check_theme')
    t.same(w.next[0]!.arguments, { id: 'thm_1' })
    t.match(w.next[0]!.reason, '2 errors')
    t.notOk(
      w.next.some((s) => s.action === 'publishTheme' || s.action === 'askMerchantToPublish'),
      'no publishing step',
    )
  }
  t.same(actions(workflowNext(previewed, publisher, 0)), ['publishTheme', 'applyThemeBatch'], 'without errors: publish')
})
