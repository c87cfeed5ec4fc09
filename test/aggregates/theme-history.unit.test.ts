import t from 'tap'
import { applyDiff, diffDocuments, isEmptyDiff, summarizeDiff } from '../../src/aggregates/theme/diff.ts'
import {
  blame,
  carryHistoryIndex,
  currentState,
  currentVersion,
  themeAt,
  versionEntries,
  type HistoryEvent,
} from '../../src/aggregates/theme/history.ts'
import { compensatingEvents, planUndo } from '../../src/aggregates/theme/revert.ts'
import { evolve, evolveDocument, fold, initialThemeState, type ThemeState } from '../../src/aggregates/theme/state.ts'
import { generateHistory, rng } from './theme-history-gen.ts'

t.test('the document at every version equals the fold of the events up to it (200 seeded commands)', async (t) => {
  const { events, states } = generateHistory(14, 200)
  const last = currentVersion(events)
  t.equal(last, states.length, 'one version per applied event')
  let mismatches = 0
  for (let v = 1; v <= last; v++) {
    const replayed = themeAt(events, v)
    const folded = fold(events.slice(0, v))
    if (
      !replayed ||
      !folded.exists ||
      JSON.stringify(replayed.document) !== JSON.stringify(folded.document) ||
      replayed.version !== v
    )
      mismatches++
    if (JSON.stringify(replayed?.document) !== JSON.stringify(states[v - 1]!.document)) mismatches++
  }
  t.equal(mismatches, 0, `all ${last} versions replay to their fold`)
  t.equal(themeAt(events, 0), null)
  t.equal(themeAt(events, last + 1), null)
  const entries = versionEntries(events)
  t.equal(entries.length, 201, 'one entry per command')
  t.equal(entries.at(-1)!.toVersion, last)
  t.ok(
    entries.every((e, i) => i === 0 || e.fromVersion === entries[i - 1]!.toVersion + 1),
    'version ranges are contiguous',
  )
})

t.test('diff a→b applied to a gives b; compensating events a→b fold to b (400 seeded pairs)', async (t) => {
  let failures = 0
  let checked = 0
  let nonEmpty = 0
  for (let seed = 1; seed <= 8; seed++) {
    const { states } = generateHistory(seed * 101, 60)
    const r = rng(seed)
    for (let k = 0; k < 50; k++) {
      const a = r.pick(states).document
      const b = r.pick(states).document
      const diff = diffDocuments(a, b)
      checked++
      if (!isEmptyDiff(diff)) nonEmpty++
      if (JSON.stringify(applyDiff(a, diff)) !== JSON.stringify(b)) failures++
      if (isEmptyDiff(diff) !== (summarizeDiff(diff).length === 0)) failures++
      const reverted = compensatingEvents(a, b, 'x').reduce(evolveDocument, a)
      if (JSON.stringify(reverted) !== JSON.stringify(b)) failures++
    }
  }
  t.equal(checked, 400)
  t.ok(nonEmpty > 300, `most pairs differ (${nonEmpty})`)
  t.equal(failures, 0)
})

t.test('diff names moves with old and new index, settings paths with old and new value', async (t) => {
  const { states } = generateHistory(7, 5)
  const a = structuredClone(states.at(-1)!.document)
  const sp = (id: string, height: number) => ({ id, type: 'spacer', settings: { height } }) as never
  a.templates.home = [sp('s1', 10), sp('s5', 50), sp('s2', 20), sp('s3', 30)]
  const b = structuredClone(a)
  b.templates.home = [sp('s3', 30), sp('s1', 12), sp('s5', 50), sp('s4', 8)]
  b.theme.primaryColor = '#123456'
  const d = diffDocuments(a, b)
  const home = d.layouts.find((l) => l.layout === 'templates.home')!
  t.same(home.moved, [{ id: 's3', from: 3, to: 0 }])
  t.same(
    home.removed.map((r) => r.id),
    ['s2'],
  )
  t.same(
    home.added.map((x) => [x.index, x.section.id]),
    [[3, 's4']],
  )
  t.same(home.changed[0]!.settings, [{ path: 'templates.home.s1.settings.height', old: 10, new: 12 }])
  t.same(d.tokens, [{ path: 'tokens.primaryColor', old: a.theme.primaryColor, new: '#123456' }])
  t.ok(summarizeDiff(d).includes('templates.home: section s3 moved 3 → 0'))
})

t.test('undo a command: applied when later changes do not overlap, refused with the paths when they do', async (t) => {
  const base = generateHistory(3, 3).states.at(-1)!.document
  const before = structuredClone(base)
  before.templates.home = [
    { id: 's1', type: 'spacer', settings: { height: 10 } },
    { id: 's2', type: 'spacer', settings: { height: 20 } },
  ] as never
  const after = structuredClone(before)
  ;(after.templates.home[0]!.settings as { height: number }).height = 99
  // Later, someone changed a token and s2: no overlap.
  const current = structuredClone(after)
  current.theme.primaryColor = '#abcdef'
  ;(current.templates.home[1]!.settings as { height: number }).height = 40
  const plan = planUndo(before, after, current)
  t.ok(plan.ok)
  if (plan.ok) {
    t.equal((plan.target.templates.home[0]!.settings as { height: number }).height, 10, 'the command is undone')
    t.equal((plan.target.templates.home[1]!.settings as { height: number }).height, 40, 'the later change stays')
    t.equal(plan.target.theme.primaryColor, '#abcdef')
  }
  // Later, someone changed s1's height again: overlap.
  const clash = structuredClone(after)
  ;(clash.templates.home[0]!.settings as { height: number }).height = 50
  const refused = planUndo(before, after, clash)
  t.same(refused, { ok: false, conflicts: ['templates.home.s1.settings.height'] })
  // Deleting the section later overlaps too.
  const deleted = structuredClone(after)
  deleted.templates.home = deleted.templates.home.slice(1)
  t.same(planUndo(before, after, deleted), { ok: false, conflicts: ['templates.home.s1.settings.height'] })
})

t.test('blame names the last command per section and token', async (t) => {
  const actors = [
    { actor: { kind: 'api_key' as const, credentialId: 'key_1', appId: 'app_1' }, channel: 'rest' as const },
    {
      actor: { kind: 'oauth' as const, credentialId: 'tok_1', appId: 'app_2' },
      channel: 'mcp' as const,
      tool: 'apply_theme_batch',
    },
    {
      actor: { kind: 'merchant' as const, merchantId: 'm_1', credentialId: null, appId: null },
      channel: 'dashboard' as const,
    },
  ]
  const { events } = generateHistory(21, 60, (i) => actors[i % 3]!)
  const b = blame(events)!
  const state = fold(events)
  if (!state.exists) throw new Error('no theme')
  const sectionCount =
    Object.values(state.document.templates).flat().length + state.document.pages.flatMap((p) => p.layout).length
  t.equal(b.sections.length, sectionCount, 'every section is blamed')
  // Check against a brute force: the last version whose event moved the section or changed its JSON or layout.
  for (const s of b.sections) {
    let last = 0
    let prev: string | undefined
    let version = 0
    let st = fold([])
    for (const e of events) {
      st = fold([e], st)
      if (e.type === 'ThemePreviewIssued' || !st.exists) continue
      version++
      const layouts = [
        ...Object.entries(st.document.templates).map(([k, l]) => [`templates.${k}`, l] as const),
        ...st.document.pages.map((p) => [`pages.${p.id}`, p.layout] as const),
      ]
      const now = layouts.flatMap(([l, list]) =>
        list.filter((x) => x.id === s.id).map((x) => `${l}:${JSON.stringify(x)}`),
      )[0]
      if (now !== undefined && (now !== prev || (e.type === 'SectionMoved' && e.data.sectionId === s.id)))
        last = version
      prev = now
    }
    t.equal(s.last.version, last, `section ${s.id}`)
    const entry = versionEntries(events).find((x) => x.fromVersion <= last && last <= x.toVersion)!
    t.same(
      [s.last.actor, s.last.channel, s.last.tool],
      [entry.actor, entry.channel, entry.tool],
      `section ${s.id}: the actor of that command`,
    )
  }
  t.ok(new Set(b.sections.map((s) => s.last.channel)).size > 1, 'several channels appear')
  t.ok(Object.values(b.tokens).every((c) => c !== null))
})

// What themeAt did before snapshots: replay from the first event.
function replayTo(events: readonly HistoryEvent[], version: number) {
  let state: ThemeState = initialThemeState
  for (const e of events) {
    state = evolve(state, e)
    if (state.exists && state.version === version && e.type !== 'ThemePreviewIssued') return state
  }
  return null
}

t.test(
  'snapshots: themeAt equals a replay from the start at every version, also after the history grows',
  async (t) => {
    const { events } = generateHistory(23, 200)
    const last = currentVersion(events)
    // Grown as the query cache grows it: a prefix, then longer arrays carrying its index over.
    const cuts = [0, 1, 17, 40, 41, 130, events.length]
    let previous: HistoryEvent[] | null = null
    let mismatches = 0
    for (const cut of cuts.slice(1)) {
      const prefix = events.slice(0, cut)
      if (previous) carryHistoryIndex(previous, prefix)
      const version = currentVersion(prefix)
      for (let v = 0; v <= version + 1; v++)
        if (JSON.stringify(themeAt(prefix, v)) !== JSON.stringify(replayTo(prefix, v))) mismatches++
      if (JSON.stringify(currentState(prefix)) !== JSON.stringify(fold(prefix))) mismatches++
      previous = prefix
    }
    t.equal(mismatches, 0)
    // An array that grew in place (push) is folded on from where its index stopped.
    const growing = events.slice(0, 50)
    themeAt(growing, 3)
    growing.push(...events.slice(50))
    t.same(themeAt(growing, last), replayTo(events, last))
    t.same(currentState(growing), fold(events))
  },
)
