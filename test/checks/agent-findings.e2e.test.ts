import t from 'tap'
import { callTool, errorOf } from '../mcp/support.ts'
import { STORE_A, STORE_B, testApp } from '../support/app.ts'
import { client, rulesOf } from './support.ts'

// Issue 36, point 3 and the demo themes: agents see findings without asking (batches, dry runs
// included, single edits, previews), only those their change introduced; findings never refuse a
// change; both demo themes pass with no errors; the checks endpoint refuses what it should.

const GREY = '#777777' // neither white nor near-black reads on it at 4.5:1

t.test('both demo themes pass with no errors', async (t) => {
  const app = await testApp(t)
  for (const [store, key] of [
    [STORE_A, app.keyA],
    [STORE_B, app.keyB],
  ] as const) {
    const api = client(app, key)
    const live = ((await api.call('GET', '/api/v1/themes')).body.data.themes as { id: string; status: string }[]).find(
      (x) => x.status === 'active',
    )!
    const result = await api.rest(live.id)
    t.same(
      result.findings.filter((f) => f.severity === 'error'),
      [],
      `${store}: no errors`,
    )
    t.equal(result.summary.error, 0)
  }
})

t.test('batches, dry runs, single edits and previews carry findings', async (t) => {
  const app = await testApp(t)
  const api = client(app)
  const draft = await api.draft()

  const dry = await api.batch(draft.id, [{ op: 'updateTokens', tokens: { primaryColor: GREY } }], true)
  t.equal(dry.dryRun, true)
  t.ok(
    rulesOf({ findings: dry.findings, summary: { error: 0, warning: 0, info: 0 } }).includes('contrast'),
    'a dry run reports what it would introduce',
  )
  t.same((await api.rest(draft.id)).findings, [], 'and changes nothing')

  const applied = await api.batch(draft.id, [{ op: 'updateTokens', tokens: { primaryColor: GREY } }])
  const contrast = applied.findings.filter((f) => f.rule === 'contrast')
  t.ok(contrast.length > 0, 'the batch is applied and reports the contrast it introduced')
  t.equal(applied.theme.version, draft.version + 1, 'findings refuse nothing')
  t.match(contrast[0], { severity: 'error', setting: 'theme.primaryColor', fix: /#[0-9a-f]{6}/ })

  const unrelated = await api.batch(draft.id, [
    {
      op: 'createSection',
      target: { template: 'home' },
      section: { id: 'words', type: 'rich-text', settings: { body: '<p>Hello</p>' } },
    },
  ])
  t.same(unrelated.findings, [], 'an unrelated change does not repeat what was already there')
  t.ok(rulesOf(await api.rest(draft.id)).includes('contrast'), 'which check_theme still lists')

  // A single edit over MCP: create_section with an image whose alt is empty.
  const media = (await api.call('GET', '/api/v1/media')).body.data.media as { themeUrl: string; width: number }[]
  const created = await callTool(app, app.keyA, 'create_section', {
    id: draft.id,
    target: { template: 'home' },
    section: {
      type: 'image-with-text',
      settings: { image: { url: media.find((m) => m.width >= 1000)!.themeUrl, alt: '' }, heading: 'Story' },
    },
  })
  t.notOk(created.isError)
  const edit = created.structuredContent as { findings: { rule: string; sectionId?: string }[]; id: string }
  t.same(
    edit.findings.map((f) => f.rule),
    ['image-alt'],
    'create_section reports the missing alt text it introduced',
  )

  // A single edit over REST: update_theme's tokens back to a colour that reads.
  const fixed = await api.call('PATCH', `/api/v1/themes/${draft.id}`, { tokens: { primaryColor: '#1f2937' } })
  t.equal(fixed.status, 200)
  t.same(fixed.body.data.findings, [], 'fixing the colour introduces nothing')
  t.notOk(rulesOf(await api.rest(draft.id)).includes('contrast'), 'and the contrast error is gone')

  // Previews: the version's findings, all of them.
  const now = await api.rest(draft.id)
  const preview = await api.call('POST', `/api/v1/themes/${draft.id}/preview-token`)
  t.equal(preview.status, 201)
  t.same(preview.body.data.findings, now.findings, 'the preview token answer lists the version’s findings')
  const mcpPreview = await callTool(app, app.keyA, 'preview_theme', { id: draft.id })
  t.same((mcpPreview.structuredContent as { findings: unknown }).findings, now.findings, 'preview_theme too')
})

t.test('the checks endpoint: unknown themes and versions, other stores, scopes, bad input', async (t) => {
  const app = await testApp(t)
  const a = client(app)
  const b = client(app, app.keyB)
  const draft = await a.draft()
  t.equal((await a.call('GET', '/api/v1/themes/thm_nope/checks')).status, 404)
  t.equal((await b.call('GET', `/api/v1/themes/${draft.id}/checks`)).status, 404, 'another store’s theme is a 404')
  t.equal(errorOf(await callTool(app, app.keyB, 'check_theme', { id: draft.id })).code, 'NOT_FOUND')
  t.equal((await a.call('GET', `/api/v1/themes/${draft.id}/checks?version=99`)).status, 404, 'a version not reached')
  const bad = await a.call('GET', `/api/v1/themes/${draft.id}/checks?version=abc`)
  t.equal(bad.status, 400)
  t.equal(bad.body.error.code, 'VALIDATION_FAILED')
  const noRead = client(app, await app.key(STORE_A, ['store:read']))
  const denied = await noRead.call('GET', `/api/v1/themes/${draft.id}/checks`)
  t.equal(denied.status, 403)
  t.equal(denied.body.error.code, 'INSUFFICIENT_SCOPE')
  t.same((await a.rest(draft.id, draft.version)).summary, { error: 0, warning: 0, info: 0 }, 'version 1 by number')
})
