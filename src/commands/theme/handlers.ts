import type { RecordedEvent } from '../../events/event-store.ts'
import { streams, streamTypes, type StoreThemesEvent } from '../../events/theme-events.ts'
import type { ThemeEvent } from '../../aggregates/theme/events.ts'
import { documentReferences } from '../../theme/validate.ts'
import { defaultThemeDocument, type ThemeDocument } from '../../theme/document.ts'
import type { CommandContext, CommandDeps } from '../context.ts'
import { fail, type Result } from '../errors.ts'
import { runCommand, type Decision } from '../run-command.ts'
import { decide, type ThemeCommand } from './decide.ts'
import { assignIds } from './assign-ids.ts'
import { expectedFrom, loadStoreThemes, loadTheme, type Loaded } from './load.ts'
import type { Edit } from './edits.ts'
import { fold, type Theme, type ThemeState } from '../../aggregates/theme/state.ts'
import { decideStoreThemes } from './store-themes.ts'
import type { CachedTheme } from './theme-cache.ts'

// `decided` is what the command decided (also on a dry run, where nothing is appended).
export type ThemeResult = Result<Theme> & { events?: RecordedEvent[]; decided?: ThemeEvent[] }

// `state`: the theme the events were decided on, at `expected` (the themes projection writes its
// row from it within the append, without reading it again).
const themeStream = (
  ctx: CommandContext,
  themeId: string,
  expected: 'no_stream' | number,
  events: ThemeEvent[],
  state?: ThemeState,
) => ({
  streamId: streams.theme(themeId),
  streamType: streamTypes.theme,
  storeId: ctx.storeId,
  expected,
  events,
  ...(state ? { state } : {}),
})

const registryStream = (ctx: CommandContext, streamVersion: number, events: StoreThemesEvent[]) => ({
  streamId: streams.storeThemes(ctx.storeId),
  streamType: streamTypes.storeThemes,
  storeId: ctx.storeId,
  expected: expectedFrom(streamVersion),
  events,
})

// Which of the ids the document and the command refer to exist in the store's catalogue.
async function knownFor(deps: CommandDeps, ctx: CommandContext, document: ThemeDocument, command?: ThemeCommand) {
  return deps.references(ctx.storeId, documentReferences(document, command))
}

const after = (state: ThemeState, events: ThemeEvent[]): Theme => fold(events, state) as Theme
const owned = (state: ThemeState, ctx: CommandContext): state is ThemeState & { exists: true } =>
  state.exists && state.storeId === ctx.storeId
const themeNotFound = () => fail('NOT_FOUND', 'theme not found')

// Only for commands that append to this theme's stream with the version loaded here: a cached
// theme is checked by that append (duplicateTheme, which does not append to its source, reads fresh).
async function loadCachedTheme(deps: CommandDeps, themeId: string) {
  const cached = deps.themes?.get(themeId)
  if (cached) return cached
  const loaded = await loadTheme(deps, themeId)
  if (loaded.state.exists) deps.themes?.put(themeId, loaded as CachedTheme)
  return loaded
}

// The store's registry is read fresh and is the authority on which theme is live. A cached copy
// of a theme that contradicts it (`registryDisagrees`) is stale, and a decision without events on
// it would append nothing to the theme's stream, so no expected version would catch the
// staleness: the theme is read again and decided on anew.
async function decideOnFreshCopy<E>(
  deps: CommandDeps,
  themeId: string,
  cached: Loaded<ThemeState>,
  decideOn: (state: ThemeState) => Result<E[]>,
  registryDisagrees: boolean,
) {
  const decided = decideOn(cached.state)
  if (!(decided.ok && decided.value.length === 0 && registryDisagrees)) return { loaded: cached, decided }
  const loaded = await loadTheme(deps, themeId)
  return { loaded, decided: decideOn(loaded.state) }
}

// The start of every command on an existing theme: the time, and the theme if it is this store's.
async function loadOwnTheme(deps: CommandDeps, ctx: CommandContext, themeId: string) {
  const loaded = await loadCachedTheme(deps, themeId)
  return {
    at: deps.clock().toISOString(),
    loaded: owned(loaded.state, ctx) ? { state: loaded.state, streamVersion: loaded.streamVersion } : null,
  }
}

// After a command: the theme as it left it, for the next command of this process.
function remember(deps: CommandDeps, themeId: string, outcome: ThemeResult): void {
  if (!deps.themes || !outcome.ok) return
  const last = outcome.events?.filter((e) => e.streamId === streams.theme(themeId)).at(-1)
  if (last) deps.themes.put(themeId, { state: { exists: true, ...outcome.value }, streamVersion: last.streamVersion })
}

async function createFrom(
  deps: CommandDeps,
  ctx: CommandContext,
  input: { name: string; provider: string; document: ThemeDocument; duplicatedFrom: string | null },
): Promise<ThemeResult> {
  const themeId = deps.newId('thm')
  const outcome = await runCommand(deps, ctx, async (deps): Promise<Decision<Theme>> => {
    const at = deps.clock().toISOString()
    const registry = await loadStoreThemes(deps, ctx.storeId)
    const added = decideStoreThemes({ type: 'AddTheme', themeId }, registry.state, at)
    if (!added.ok) return added
    const known = await knownFor(deps, ctx, input.document)
    const decided = decide(
      { type: 'CreateTheme', themeId, ...input },
      { exists: false },
      { storeId: ctx.storeId, known, at },
    )
    if (!decided.ok) return { ...decided, themeId: input.duplicatedFrom }
    return {
      ok: true,
      appends: [
        themeStream(ctx, themeId, 'no_stream', decided.value),
        registryStream(ctx, registry.streamVersion, added.value),
      ],
      result: () => after({ exists: false }, decided.value),
    }
  })
  remember(deps, themeId, outcome)
  return outcome
}

export function createTheme(
  deps: CommandDeps,
  ctx: CommandContext,
  input: { name: string; provider: string },
): Promise<ThemeResult> {
  return createFrom(deps, ctx, { ...input, document: defaultThemeDocument(), duplicatedFrom: null })
}

export async function duplicateTheme(
  deps: CommandDeps,
  ctx: CommandContext,
  sourceId: string,
  input: { name?: string | undefined; provider: string },
): Promise<ThemeResult> {
  const source = await loadTheme(deps, sourceId)
  if (!owned(source.state, ctx)) return themeNotFound()
  const name = input.name ?? `Copy of ${source.state.name}`.slice(0, 100)
  return createFrom(deps, ctx, {
    name,
    provider: input.provider,
    document: source.state.document,
    duplicatedFrom: sourceId,
  })
}

// Runs a command against one theme's stream only (everything but create, publish and archive).
async function onTheme(
  deps: CommandDeps,
  ctx: CommandContext,
  themeId: string,
  command: (state: ThemeState) => ThemeCommand,
  opts: { dryRun?: boolean } = {},
): Promise<ThemeResult> {
  let decidedEvents: ThemeEvent[] = []
  const outcome = await runCommand(deps, ctx, async (deps): Promise<Decision<Theme>> => {
    const { at, loaded } = await loadOwnTheme(deps, ctx, themeId)
    if (!loaded) return themeNotFound()
    const cmd = command(loaded.state)
    const known = await knownFor(deps, ctx, loaded.state.document, cmd)
    const decided = decide(cmd, loaded.state, { storeId: ctx.storeId, known, at })
    if (!decided.ok) return { ...decided, themeId }
    decidedEvents = decided.value
    const result = after(loaded.state, decided.value)
    if (opts.dryRun || decided.value.length === 0) return { ok: true, appends: [], result: () => result }
    return {
      ok: true,
      appends: [themeStream(ctx, themeId, loaded.streamVersion, decided.value, loaded.state)],
      result: () => result,
    }
  })
  remember(deps, themeId, outcome)
  return outcome.ok ? { ...outcome, decided: decidedEvents } : outcome
}

export type EditInput = { operations: Edit[]; expectedVersion?: number | undefined; dryRun?: boolean | undefined }

// Batches and every single page/section/token/navigation edit go through here.
export function applyThemeEdits(
  deps: CommandDeps,
  ctx: CommandContext,
  themeId: string,
  input: EditInput,
): Promise<ThemeResult> {
  const operations = assignIds(input.operations, deps.newId)
  return onTheme(
    deps,
    ctx,
    themeId,
    () => ({ type: 'ApplyEdits', operations, expectedVersion: input.expectedVersion }),
    { dryRun: input.dryRun ?? false },
  )
}

export type UpdateInput = {
  name?: string | undefined
  tokens?: Extract<Edit, { op: 'updateTokens' }>['tokens'] | undefined
  navigation?: unknown[] | undefined
  expectedVersion?: number | undefined
}

export function updateTheme(
  deps: CommandDeps,
  ctx: CommandContext,
  themeId: string,
  input: UpdateInput,
): Promise<ThemeResult> {
  const operations: Edit[] = []
  if (input.tokens) operations.push({ op: 'updateTokens', tokens: input.tokens })
  if (input.navigation) operations.push({ op: 'setNavigation', navigation: input.navigation })
  return onTheme(deps, ctx, themeId, () => ({
    type: 'UpdateTheme',
    name: input.name,
    operations,
    expectedVersion: input.expectedVersion,
  }))
}

export function recordPreviewIssued(
  deps: CommandDeps,
  ctx: CommandContext,
  themeId: string,
  input: { tokenId: string; expiresAt: string },
): Promise<ThemeResult> {
  return onTheme(deps, ctx, themeId, () => ({ type: 'RecordPreviewIssued', ...input }))
}

export async function archiveTheme(
  deps: CommandDeps,
  ctx: CommandContext,
  themeId: string,
  input: { expectedVersion?: number | undefined },
): Promise<ThemeResult> {
  const outcome = await runCommand(deps, ctx, async (deps): Promise<Decision<Theme>> => {
    const { at, loaded } = await loadOwnTheme(deps, ctx, themeId)
    if (!loaded) return themeNotFound()
    const decided = decide({ type: 'ArchiveTheme', expectedVersion: input.expectedVersion }, loaded.state, {
      storeId: ctx.storeId,
      known: emptyKnown,
      at,
    })
    if (!decided.ok) return { ...decided, themeId }
    const registry = await loadStoreThemes(deps, ctx.storeId)
    const removed = decideStoreThemes({ type: 'RemoveTheme', themeId }, registry.state, at)
    if (!removed.ok) return removed
    return {
      ok: true,
      appends: [
        themeStream(ctx, themeId, loaded.streamVersion, decided.value, loaded.state),
        registryStream(ctx, registry.streamVersion, removed.value),
      ],
      result: () => after(loaded.state, decided.value),
    }
  })
  remember(deps, themeId, outcome)
  return outcome
}

// Validate, then in one transaction: the theme goes live, the former live theme becomes private,
// and the store's registry records the change. Concurrent publishes in one store conflict on the
// registry stream, so exactly one theme ends up active.
export async function publishTheme(
  deps: CommandDeps,
  ctx: CommandContext,
  themeId: string,
  input: { expectedVersion?: number | undefined },
): Promise<ThemeResult> {
  let unpublishedId: string | null = null
  const outcome = await runCommand(deps, ctx, async (deps): Promise<Decision<Theme>> => {
    const own = await loadOwnTheme(deps, ctx, themeId)
    const at = own.at
    if (!own.loaded) return themeNotFound()
    const registry = await loadStoreThemes(deps, ctx.storeId)
    const previous = registry.state.activeThemeId
    const known = await knownFor(deps, ctx, own.loaded.state.document)
    const publish = (state: ThemeState) =>
      decide(
        {
          type: 'PublishTheme',
          previousThemeId: previous === themeId ? null : previous,
          expectedVersion: input.expectedVersion,
        },
        state,
        { storeId: ctx.storeId, known, at },
      )
    // The registry says another theme is live: a copy of this one that says it is live is stale.
    const { loaded, decided } = await decideOnFreshCopy(deps, themeId, own.loaded, publish, previous !== themeId)
    if (!decided.ok) return { ...decided, themeId }
    if (decided.value.length === 0) return { ok: true, appends: [], result: () => after(loaded.state, []) }
    const live = decideStoreThemes({ type: 'ChangeLiveTheme', themeId }, registry.state, at)
    if (!live.ok) return live
    const appends = [
      themeStream(ctx, themeId, loaded.streamVersion, decided.value, loaded.state),
      registryStream(ctx, registry.streamVersion, live.value),
    ]
    if (previous && previous !== themeId) {
      const unpublish = (state: ThemeState) =>
        decide({ type: 'UnpublishTheme', replacedBy: themeId }, state, { storeId: ctx.storeId, known: emptyKnown, at })
      // The registry says it is live: a copy of it that says it is not is stale.
      const { loaded: former, decided: unpublished } = await decideOnFreshCopy(
        deps,
        previous,
        await loadCachedTheme(deps, previous),
        unpublish,
        true,
      )
      if (!unpublished.ok) return unpublished
      appends.push(themeStream(ctx, previous, former.streamVersion, unpublished.value, former.state))
      unpublishedId = previous
    }
    return { ok: true, appends, result: () => after(loaded.state, decided.value) }
  })
  remember(deps, themeId, outcome)
  // The former live theme changed too; its next command reads it.
  if (unpublishedId) deps.themes?.drop(unpublishedId)
  return outcome
}

const emptyKnown = { productIds: new Set<string>(), collectionIds: new Set<string>() }
