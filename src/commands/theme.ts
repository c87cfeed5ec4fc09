import { fail, ok } from '../aggregates/result.ts'
import { decideStoreThemes, storeThemesDecider } from '../aggregates/store-themes/decider.ts'
import { assignIds } from '../aggregates/theme/assign-ids.ts'
import { type ThemeCommand, themeDecider } from '../aggregates/theme/decider.ts'
import type { CheckErrors, ThemeEvent } from '../aggregates/theme/events.ts'
import type { Edit } from '../aggregates/theme/edits.ts'
import type { HistoryEvent } from '../aggregates/theme/history.ts'
import { decidePublish } from '../aggregates/theme/publish.ts'
import { decideRevert, type RevertRequest, revertTarget } from '../aggregates/theme/revert.ts'
import type { Theme, ThemeState } from '../aggregates/theme/state.ts'
import { defaultThemeDocument, type ThemeDocument } from '../theme/document.ts'
import { collectReferences, documentReferences } from '../theme/validate.ts'
import type { CommandContext, CommandDeps } from './context.ts'
import { type CommandOutcome, change, handleCommand, type Loaded, type StreamReader } from './handle-command.ts'

// The theme commands: each a plan for the one command handler (handle-command.ts), its decision
// made by the theme aggregate (src/aggregates/theme) and, where the store's registry takes part
// (create, archive, publish), by that aggregate too, appended in one transaction.

export type ThemeOutcome = CommandOutcome<Theme>
type ThemeStream = Loaded<ThemeState, ThemeEvent>

const NO_REFERENCES = { productIds: new Set<string>(), collectionIds: new Set<string>() }
const owned = (state: ThemeState, ctx: CommandContext): state is ThemeState & { exists: true } =>
  state.exists && state.storeId === ctx.storeId
const themeNotFound = () => fail('NOT_FOUND', 'theme not found')
const themeAfter = <L extends { theme: ThemeStream }>({ theme }: L, after: <S>(s: Loaded<S, never>) => S) =>
  after(theme) as Theme

// Which of the ids the document (and the command) refer to exist in the store's catalogue.
const knownIn = (reader: StreamReader, document: ThemeDocument, also?: unknown) =>
  reader.references(documentReferences(document, also))

// A new theme with this document, added to the store's registry (which enforces the limit).
function createFrom(
  deps: CommandDeps,
  ctx: CommandContext,
  source: { themeId: string | null; name: (from: ThemeState | null) => string },
  input: { provider: string; document: (from: ThemeState | null) => ThemeDocument | null },
): Promise<ThemeOutcome> {
  const themeId = deps.newId('thm')
  return handleCommand(deps, ctx, {
    themeId: source.themeId,
    async load(r) {
      const from = source.themeId ? (await r.read(themeDecider, source.themeId)).state : null
      const document = from === null || owned(from, ctx) ? input.document(from) : null
      return {
        theme: r.create(themeDecider, themeId),
        registry: await r.read(storeThemesDecider, ctx.storeId),
        from,
        document,
        known: document ? await knownIn(r, document) : NO_REFERENCES,
        at: r.at,
      }
    },
    decide({ theme, registry, from, document, known, at }) {
      if (!document) return themeNotFound()
      const added = decideStoreThemes({ type: 'AddTheme', themeId }, registry.state, at)
      if (!added.ok) return added
      const created = themeDecider.decide(
        {
          type: 'CreateTheme',
          themeId,
          name: source.name(from),
          provider: input.provider,
          document,
          duplicatedFrom: source.themeId,
        },
        theme.state,
        { storeId: ctx.storeId, known, at },
      )
      if (!created.ok) return created
      return ok([change(theme, created.value), change(registry, added.value)])
    },
    result: themeAfter,
  })
}

export function createTheme(deps: CommandDeps, ctx: CommandContext, input: { name: string; provider: string }) {
  return createFrom(
    deps,
    ctx,
    { themeId: null, name: () => input.name },
    { provider: input.provider, document: () => defaultThemeDocument() },
  )
}

export function duplicateTheme(
  deps: CommandDeps,
  ctx: CommandContext,
  sourceId: string,
  input: { name?: string | undefined; provider: string },
) {
  const sourceOf = (from: ThemeState | null) => (from?.exists ? from : null)
  return createFrom(
    deps,
    ctx,
    { themeId: sourceId, name: (from) => input.name ?? `Copy of ${sourceOf(from)?.name ?? ''}`.slice(0, 100) },
    { provider: input.provider, document: (from) => sourceOf(from)?.document ?? null },
  )
}

// A command on one theme's stream only (edits, rename, a recorded preview).
function onTheme(
  deps: CommandDeps,
  ctx: CommandContext,
  themeId: string,
  command: ThemeCommand,
  opts: { dryRun?: boolean } = {},
): Promise<ThemeOutcome> {
  return handleCommand(deps, ctx, {
    themeId,
    dryRun: opts.dryRun ?? false,
    async load(r) {
      const theme = await r.read(themeDecider, themeId)
      const known = owned(theme.state, ctx) ? await knownIn(r, theme.state.document, command) : NO_REFERENCES
      return { theme, known, at: r.at }
    },
    decide({ theme, known, at }) {
      const decided = themeDecider.decide(command, theme.state, { storeId: ctx.storeId, known, at })
      return decided.ok ? ok([change(theme, decided.value)]) : decided
    },
    result: themeAfter,
  })
}

export type EditInput = { operations: Edit[]; expectedVersion?: number | undefined; dryRun?: boolean | undefined }

// Batches and every single page/section/token/navigation edit go through here.
export function applyThemeEdits(deps: CommandDeps, ctx: CommandContext, themeId: string, input: EditInput) {
  const operations = assignIds(input.operations, deps.newId)
  return onTheme(
    deps,
    ctx,
    themeId,
    { type: 'ApplyEdits', operations, expectedVersion: input.expectedVersion },
    { dryRun: input.dryRun ?? false },
  )
}

export type UpdateInput = {
  name?: string | undefined
  tokens?: Extract<Edit, { op: 'updateTokens' }>['tokens'] | undefined
  navigation?: unknown[] | undefined
  expectedVersion?: number | undefined
}

export function updateTheme(deps: CommandDeps, ctx: CommandContext, themeId: string, input: UpdateInput) {
  const operations: Edit[] = []
  if (input.tokens) operations.push({ op: 'updateTokens', tokens: input.tokens })
  if (input.navigation) operations.push({ op: 'setNavigation', navigation: input.navigation })
  return onTheme(deps, ctx, themeId, {
    type: 'UpdateTheme',
    name: input.name,
    operations,
    expectedVersion: input.expectedVersion,
  })
}

export function recordPreviewIssued(
  deps: CommandDeps,
  ctx: CommandContext,
  themeId: string,
  input: { tokenId: string; expiresAt: string },
) {
  return onTheme(deps, ctx, themeId, { type: 'RecordPreviewIssued', ...input })
}

export function archiveTheme(
  deps: CommandDeps,
  ctx: CommandContext,
  themeId: string,
  input: { expectedVersion?: number | undefined },
): Promise<ThemeOutcome> {
  return handleCommand(deps, ctx, {
    themeId,
    load: async (r) => ({
      theme: await r.read(themeDecider, themeId),
      registry: await r.read(storeThemesDecider, ctx.storeId),
      at: r.at,
    }),
    decide({ theme, registry, at }) {
      const archived = themeDecider.decide(
        { type: 'ArchiveTheme', expectedVersion: input.expectedVersion },
        theme.state,
        { storeId: ctx.storeId, known: NO_REFERENCES, at },
      )
      if (!archived.ok) return archived
      const removed = decideStoreThemes({ type: 'RemoveTheme', themeId }, registry.state, at)
      if (!removed.ok) return removed
      return ok([change(theme, archived.value), change(registry, removed.value)])
    },
    result: themeAfter,
  })
}

// The theme goes live, the one that was live becomes private, the registry records it: one
// transaction (src/aggregates/theme/publish.ts). Concurrent publishes in one store conflict on
// the registry stream, so exactly one theme ends up active.
export function publishTheme(
  deps: CommandDeps,
  ctx: CommandContext,
  themeId: string,
  input: { expectedVersion?: number | undefined; checkErrors?: CheckErrors | undefined },
): Promise<ThemeOutcome> {
  return handleCommand(deps, ctx, {
    themeId,
    async load(r) {
      const theme = await r.read(themeDecider, themeId)
      const registry = await r.read(storeThemesDecider, ctx.storeId)
      const live = registry.state.activeThemeId
      const formerLive = live && live !== themeId ? await r.read(themeDecider, live) : null
      const known = owned(theme.state, ctx) ? await knownIn(r, theme.state.document) : NO_REFERENCES
      return { theme, registry, formerLive, known, at: r.at }
    },
    decide({ theme, registry, formerLive, known, at }) {
      const decided = decidePublish(
        {
          themeId,
          theme: theme.state,
          registry: registry.state,
          formerLive: formerLive?.state ?? null,
          expectedVersion: input.expectedVersion,
          checkErrors: input.checkErrors,
        },
        { storeId: ctx.storeId, known, at },
      )
      if (!decided.ok) return decided
      const changes = [change(theme, decided.value.theme), change(registry, decided.value.registry)]
      if (formerLive) changes.push(change(formerLive, decided.value.formerLive))
      return ok(changes)
    },
    result: themeAfter,
  })
}

// Appends the compensating events as one command on the theme's stream (nothing is erased).
export function revertTheme(deps: CommandDeps, ctx: CommandContext, themeId: string, request: RevertRequest) {
  const intent = request.toVersion !== undefined ? { revertTo: request.toVersion } : { undo: request.commandId ?? '' }
  return handleCommand(
    deps,
    { ...ctx, intent },
    {
      themeId,
      async load(r) {
        const theme = await r.history(themeDecider, themeId)
        const history = theme.events as unknown as HistoryEvent[]
        const target = owned(theme.state, ctx) ? revertTarget(history, theme.state, request) : null
        const refs = target?.ok ? collectReferences(target.value) : NO_REFERENCES
        const known = await r.references({
          productIds: new Set(refs.productIds),
          collectionIds: new Set(refs.collectionIds),
        })
        return { theme, history, known, at: r.at }
      },
      decide({ theme, history, known, at }) {
        if (!owned(theme.state, ctx)) return themeNotFound()
        const decided = decideRevert(history, theme.state, request, known, at)
        return decided.ok ? ok([change(theme, decided.value)]) : decided
      },
      result: themeAfter,
    },
  )
}
