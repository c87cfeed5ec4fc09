import type { Section, ThemeDocument, ThemeTokens } from '../../theme/document.ts'
import type { ThemeEvent } from './events.ts'
import { evolve, initialThemeState, type Theme, type ThemeState } from './state.ts'
import { jsonEqual } from './diff.ts'

// A theme's history, read from its own stream (pure): which command made which versions, the
// theme at any version, and who last changed each section and token. Nothing is stored twice:
// everything here is a fold of the events.

// What a recorded event carries that history needs (the event store's metadata has this shape;
// written here so the aggregate does not depend on the event store).
export type HistoryMetadata = {
  actor: { kind: string; credentialId: string | null; appId: string | null; merchantId?: string }
  channel: string
  tool?: string | undefined
  requestId?: string | undefined
  commandId: string
  command: string
}
export type HistoryEvent = ThemeEvent & { streamVersion: number; recordedAt: Date; metadata: HistoryMetadata }

// A version is the theme's `version` (the ETag): it grows with every applied event, not with
// recorded previews, so it is not the stream version.
const changesVersion = (e: ThemeEvent) => e.type !== 'ThemePreviewIssued'

export type Change = {
  version: number
  at: string
  commandId: string
  command: string
  actor: { kind: string; appId: string | null; credentialId: string | null; merchantId?: string }
  channel: string
  tool: string | null
  requestId: string | null
}

export type VersionEntry = Change & { fromVersion: number; toVersion: number; position: number }

const changeOf = (e: HistoryEvent, version: number): Change => {
  const m = e.metadata
  const actor =
    m.actor.kind === 'merchant'
      ? { kind: 'merchant', appId: null, credentialId: null, merchantId: m.actor.merchantId! }
      : { kind: m.actor.kind, appId: m.actor.appId, credentialId: m.actor.credentialId }
  return {
    version,
    at: e.recordedAt.toISOString(),
    commandId: m.commandId,
    command: m.command,
    actor,
    channel: m.channel,
    tool: m.tool ?? null,
    requestId: m.requestId ?? null,
  }
}

// One entry per command that changed the theme, oldest first, with the versions it made.
export function versionEntries(events: readonly HistoryEvent[]): VersionEntry[] {
  const out: VersionEntry[] = []
  let version = 0
  for (const e of events) {
    if (!changesVersion(e)) continue
    version++
    const last = out.at(-1)
    if (last && last.commandId === e.metadata.commandId) last.toVersion = version
    else out.push({ ...changeOf(e, version), fromVersion: version, toVersion: version, position: e.streamVersion })
  }
  return out
}

export function currentVersion(events: readonly HistoryEvent[]): number {
  let version = 0
  for (const e of events) if (changesVersion(e)) version++
  return version
}

// Snapshots of a history: the theme right after every SNAPSHOT_EVERY-th version, so the theme at
// any version is the nearest snapshot plus fewer than SNAPSHOT_EVERY events, and the current state
// needs no replay. States share structure (evolve copies only the path to a change), so a snapshot
// costs little. Built once per events array (kept alongside it, weakly) and extended, not rebuilt,
// when the array grows or a longer array carries a shorter one's index over (carryHistoryIndex).
const SNAPSHOT_EVERY = 16
type Snapshot = { version: number; next: number; state: ThemeState & { exists: true } }
type HistoryIndex = { count: number; state: ThemeState; snapshots: Snapshot[] }
const indexes = new WeakMap<readonly HistoryEvent[], HistoryIndex>()

function extend(index: HistoryIndex, events: readonly HistoryEvent[]): HistoryIndex {
  let state = index.state
  for (let i = index.count; i < events.length; i++) {
    const e = events[i]!
    state = evolve(state, e)
    if (state.exists && changesVersion(e) && state.version % SNAPSHOT_EVERY === 0)
      index.snapshots.push({ version: state.version, next: i + 1, state })
  }
  index.state = state
  index.count = events.length
  return index
}

function indexOf(events: readonly HistoryEvent[]): HistoryIndex {
  let index = indexes.get(events)
  if (!index) indexes.set(events, (index = { count: 0, state: initialThemeState, snapshots: [] }))
  return index.count === events.length ? index : extend(index, events)
}

// `longer` starts with every event of `shorter` (a cached stream and its read tail): it takes over
// what was already folded instead of replaying from the start.
export function carryHistoryIndex(shorter: readonly HistoryEvent[], longer: readonly HistoryEvent[]): void {
  const index = indexes.get(shorter)
  if (!index || indexes.has(longer) || index.count > longer.length) return
  indexes.set(longer, extend({ count: index.count, state: index.state, snapshots: index.snapshots.slice() }, longer))
}

// The theme after every event (the fold of the whole history).
export const currentState = (events: readonly HistoryEvent[]): ThemeState => indexOf(events).state

// The theme as it was right after the event that made `version`; null when there is no such version.
export function themeAt(events: readonly HistoryEvent[], version: number): Theme | null {
  if (!Number.isInteger(version) || version < 1) return null
  const index = indexOf(events)
  if (!index.state.exists || version > index.state.version) return null
  // The last snapshot at or before `version` (snapshots are in version order).
  let lo = 0
  let hi = index.snapshots.length - 1
  let from: Snapshot | null = null
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (index.snapshots[mid]!.version <= version) {
      from = index.snapshots[mid]!
      lo = mid + 1
    } else hi = mid - 1
  }
  if (from && from.version === version) return from.state
  let state: ThemeState = from ? from.state : initialThemeState
  for (let i = from ? from.next : 0; i < events.length; i++) {
    const e = events[i]!
    state = evolve(state, e)
    if (state.exists && state.version === version && changesVersion(e)) return state
  }
  return null
}

export type SectionBlame = { id: string; type: string; layout: string; last: Change }
export type Blame = {
  tokens: Record<keyof ThemeTokens, Change | null>
  navigation: Change | null
  sections: SectionBlame[]
}

function layoutsOf(doc: ThemeDocument): [string, Section[]][] {
  return [
    ...Object.entries(doc.templates).map(([t, l]) => [`templates.${t}`, l] as [string, Section[]]),
    ...doc.pages.map((p) => [`pages.${p.id}`, p.layout] as [string, Section[]]),
  ]
}

// For each section of the current document, and for each token and the navigation, the last
// change that touched it (added, changed, moved, or a page that carried it being written).
export function blame(events: readonly HistoryEvent[]): Blame | null {
  const sections = new Map<string, Change>()
  const tokens: Partial<Record<keyof ThemeTokens, Change>> = {}
  let navigation: Change | null = null
  let state: ThemeState = initialThemeState
  for (const e of events) {
    const before = state
    state = evolve(state, e)
    if (!changesVersion(e) || !state.exists) continue
    const change = changeOf(e, state.version)
    switch (e.type) {
      case 'ThemeCreated':
        for (const key of Object.keys(e.data.document.theme) as (keyof ThemeTokens)[]) tokens[key] = change
        navigation = change
        for (const [, layout] of layoutsOf(e.data.document)) for (const s of layout) sections.set(s.id, change)
        break
      case 'ThemeTokensUpdated':
        for (const key of e.data.changed as (keyof ThemeTokens)[]) tokens[key] = change
        break
      case 'ThemeNavigationSet':
        navigation = change
        break
      case 'PageCreated':
        for (const s of e.data.page.layout) sections.set(s.id, change)
        break
      case 'PageUpdated': {
        const prior = before.exists ? (before.document.pages.find((p) => p.id === e.data.pageId)?.layout ?? []) : []
        e.data.page.layout.forEach((s, i) => {
          if (!jsonEqual(prior[i], s)) sections.set(s.id, change)
        })
        break
      }
      case 'SectionAdded':
        sections.set(e.data.section.id, change)
        break
      case 'SectionUpdated':
      case 'SectionMoved':
        sections.set(e.data.sectionId, change)
        break
      default:
        break
    }
  }
  if (!state.exists) return null
  const out: SectionBlame[] = []
  for (const [layout, list] of layoutsOf(state.document))
    for (const s of list) out.push({ id: s.id, type: s.type, layout, last: sections.get(s.id)! })
  const tokenBlame = Object.fromEntries(
    Object.keys(state.document.theme).map((k) => [k, tokens[k as keyof ThemeTokens] ?? null]),
  ) as Blame['tokens']
  return { tokens: tokenBlame, navigation, sections: out }
}
