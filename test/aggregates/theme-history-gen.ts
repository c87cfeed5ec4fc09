import { evolve, initialThemeState, type Theme, type ThemeState } from '../../src/aggregates/theme/state.ts'
import type { HistoryEvent } from '../../src/aggregates/theme/history.ts'
import type { EventMetadata } from '../../src/events/event-store.ts'
import { defaultThemeDocument } from '../../src/theme/document.ts'
import { decide } from '../../src/aggregates/theme/decider.ts'
import { assignIds } from '../../src/aggregates/theme/assign-ids.ts'
import type { Edit } from '../../src/aggregates/theme/edits.ts'

// A seeded generator of theme histories for the property tests: random but valid commands,
// decided by the real decider, recorded with metadata as the event store would.

export function rng(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  }
}

const known = { productIds: new Set<string>(), collectionIds: new Set<string>() }
const hex = (r: ReturnType<typeof rng>) => `#${r.int(0xffffff).toString(16).padStart(6, '0')}`

function randomEdit(r: ReturnType<typeof rng>, theme: Theme): Edit {
  const doc = theme.document
  const targets: ({ template: 'home' | 'product' } | { pageId: string })[] = [
    { template: 'home' },
    { template: 'product' },
    ...doc.pages.map((p) => ({ pageId: p.id })),
  ]
  const sections = [...doc.templates.home, ...doc.templates.product, ...doc.pages.flatMap((p) => p.layout)].filter(
    (s) => s.type === 'spacer' || s.type === 'faq',
  )
  const blocks = () =>
    Array.from({ length: r.int(4) }, (_, i) => ({
      id: `q${r.int(6)}${i}`,
      type: 'question',
      settings: { question: `Q${r.int(50)}?`, answer: `A${r.int(50)}` },
    }))
  switch (r.int(10)) {
    case 0:
    case 1:
      return {
        op: 'createSection',
        target: r.pick(targets),
        index: r.int(4),
        section:
          r.next() < 0.5
            ? { type: 'spacer', settings: { height: 8 + r.int(200) } }
            : { type: 'faq', settings: { heading: `FAQ ${r.int(99)}` }, blocks: blocks() },
      } as Edit
    case 2:
    case 3: {
      const s = sections.length ? r.pick(sections) : undefined
      if (!s) return { op: 'updateTokens', tokens: { primaryColor: hex(r) } }
      if (s.type === 'spacer')
        return {
          op: 'updateSection',
          sectionId: s.id,
          settings: r.next() < 0.3 ? { showDivider: r.next() < 0.5 ? true : null } : { height: 8 + r.int(200) },
        } as Edit
      return r.next() < 0.5
        ? ({ op: 'updateSection', sectionId: s.id, settings: { heading: `FAQ ${r.int(99)}` } } as Edit)
        : ({ op: 'updateSection', sectionId: s.id, blocks: blocks() } as Edit)
    }
    case 4: {
      const s = sections.length ? r.pick(sections) : undefined
      return s ? { op: 'deleteSection', sectionId: s.id } : { op: 'updateTokens', tokens: { secondaryColor: hex(r) } }
    }
    case 5: {
      const s = [...doc.templates.home, ...doc.pages.flatMap((p) => p.layout)]
      const pickS = s.length ? r.pick(s) : undefined
      return pickS
        ? ({
            op: 'moveSection',
            sectionId: pickS.id,
            ...(r.next() < 0.3 && pickS.type === 'spacer' ? { target: r.pick(targets) } : {}),
            index: r.int(6),
          } as Edit)
        : { op: 'updateTokens', tokens: { font: 'serif' } }
    }
    case 6:
      return {
        op: 'updateTokens',
        tokens: r.next() < 0.5 ? { primaryColor: hex(r) } : { primaryColor: hex(r), secondaryColor: hex(r) },
      }
    case 7:
      return doc.pages.length < 4 || r.next() < 0.3
        ? ({
            op: 'createPage',
            page: {
              slug: `page-${r.int(1000)}`,
              title: `Page ${r.int(99)}`,
              status: 'draft',
              layout: r.next() < 0.5 ? [{ type: 'spacer', settings: { height: 16 } }] : [],
            },
          } as Edit)
        : { op: 'deletePage', pageId: r.pick(doc.pages).id }
    case 8:
      return doc.pages.length
        ? ({
            op: 'updatePage',
            pageId: r.pick(doc.pages).id,
            changes: r.next() < 0.5 ? { title: `Title ${r.int(99)}` } : { status: r.pick(['draft', 'published']) },
          } as Edit)
        : { op: 'setNavigation', navigation: [{ label: 'Home', href: '/' }] }
    default:
      return {
        op: 'setNavigation',
        navigation: Array.from({ length: 1 + r.int(3) }, (_, i) => ({ label: `L${i}${r.int(9)}`, href: '/' })),
      }
  }
}

export type Generated = { events: HistoryEvent[]; states: Theme[] }

// `commands` applied commands (refused random ones are skipped), every one a batch of 1 to 3 edits.
export function generateHistory(
  seed: number,
  commands: number,
  actorOf?: (i: number) => Pick<EventMetadata, 'actor' | 'channel' | 'tool'>,
): Generated {
  const r = rng(seed)
  const events: HistoryEvent[] = []
  const states: Theme[] = []
  let state: ThemeState = initialThemeState
  let n = 0
  const t0 = Date.parse('2026-11-01T00:00:00Z')
  const record = (decided: import('../../src/aggregates/theme/events.ts').ThemeEvent[], command: string, i: number) => {
    const who = actorOf?.(i) ?? {
      actor: { kind: 'api_key' as const, credentialId: 'key_1', appId: 'app_1' },
      channel: 'rest' as const,
    }
    for (const e of decided) {
      state = evolve(state, e)
      events.push({
        ...e,
        streamVersion: events.length + 1,
        recordedAt: new Date(t0 + events.length * 1000),
        metadata: { commandId: `cmd_${i}`, command, requestId: `req_${i}`, ...who },
      } as HistoryEvent)
      states.push(state as Theme)
    }
  }
  const created = decide(
    {
      type: 'CreateTheme',
      themeId: 'thm_1',
      name: 'Draft',
      provider: 'test',
      document: defaultThemeDocument(),
      duplicatedFrom: null,
    },
    state,
    { storeId: 'st_a', known, at: new Date(t0).toISOString() },
  )
  if (!created.ok) throw new Error('create failed')
  record(created.value, 'createTheme', 0)
  let id = 0
  let guard = 0
  while (n < commands && guard++ < commands * 50) {
    const theme = state as Theme
    const edits = assignIds(
      Array.from({ length: 1 + r.int(3) }, () => randomEdit(r, theme)),
      (p) => `${p}_${seed}_${id++}`,
    )
    const decided = decide({ type: 'ApplyEdits', operations: edits }, state, {
      storeId: 'st_a',
      known,
      at: new Date(t0 + events.length * 1000).toISOString(),
    })
    if (!decided.ok || decided.value.length === 0) continue
    n++
    record(decided.value, 'applyThemeBatch', n)
  }
  return { events, states }
}
