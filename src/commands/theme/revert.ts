import type { ThemeEvent } from '../../aggregates/theme/events.ts'
import { themeAt, versionEntries, type HistoryEvent } from '../../aggregates/theme/history.ts'
import { compensatingEvents, planUndo } from '../../aggregates/theme/revert.ts'
import { fold, type Theme } from '../../aggregates/theme/state.ts'
import { streams, streamTypes } from '../../events/theme-events.ts'
import { collectReferences, validateThemeDocument, type KnownReferences } from '../../theme/validate.ts'
import type { ThemeDocument } from '../../theme/document.ts'
import type { CommandContext, CommandDeps } from '../context.ts'
import { fail, invalid, ok, type Result } from '../errors.ts'
import { runCommand, type Decision } from '../run-command.ts'

export type RevertRequest = {
  toVersion?: number | undefined
  commandId?: string | undefined
  expectedVersion?: number | undefined
}

// The document a revert aims at: an earlier version, or today's document without one past command.
export function revertTarget(
  history: readonly HistoryEvent[],
  current: Theme,
  request: RevertRequest,
): Result<ThemeDocument> {
  if (request.toVersion !== undefined) {
    const then = request.toVersion < current.version ? themeAt(history, request.toVersion) : null
    if (!then)
      return fail(
        'NOT_FOUND',
        `version ${request.toVersion} not found: give an earlier version of this theme (1 to ${current.version - 1})`,
      )
    return ok(then.document)
  }
  const entry = versionEntries(history).find((e) => e.commandId === request.commandId)
  if (!entry)
    return fail('NOT_FOUND', `command ${request.commandId} not found in this theme's history (see listThemeVersions)`)
  if (entry.fromVersion === 1)
    return fail('VALIDATION_FAILED', 'the command that created the theme cannot be undone; archive the theme instead', {
      issues: [{ path: 'commandId', code: 'VALIDATION_FAILED', message: 'the creation cannot be undone' }],
    })
  const before = themeAt(history, entry.fromVersion - 1)!.document
  const after = themeAt(history, entry.toVersion)!.document
  const plan = planUndo(before, after, current.document)
  if (!plan.ok) {
    return fail(
      'UNDO_CONFLICT',
      `later changes touched what command ${request.commandId} changed: ${plan.conflicts.slice(0, 5).join(', ')}${plan.conflicts.length > 5 ? ', …' : ''}. Revert to a version instead, or edit by hand.`,
      { conflicts: plan.conflicts },
    )
  }
  return ok(plan.target)
}

// Pure: checks, target, validation of the result, and the compensating events.
export function decideRevert(
  history: readonly HistoryEvent[],
  current: Theme,
  request: RevertRequest,
  known: KnownReferences,
  at: string,
): Result<ThemeEvent[]> {
  if (current.status !== 'draft')
    return fail(
      'THEME_NOT_EDITABLE',
      `the theme is ${current.status}; only a draft can be reverted (duplicate it to get an editable draft)`,
      { status: current.status },
    )
  if (request.expectedVersion !== undefined && request.expectedVersion !== current.version) {
    return fail(
      'VERSION_CONFLICT',
      `the theme is at version ${current.version}, not ${request.expectedVersion}; read it again and retry`,
      { currentVersion: current.version },
    )
  }
  const target = revertTarget(history, current, request)
  if (!target.ok) return target
  // A referenced product may have left the catalog since: the result must be valid today.
  const checked = validateThemeDocument(target.value, known)
  if (!checked.ok)
    return invalid(checked.issues.map((i) => ({ ...i, path: i.path ? `document.${i.path}` : 'document' })))
  return ok(compensatingEvents(current.document, checked.document, at))
}

// Appends the compensating events as one command on the theme's stream (nothing is erased).
export async function revertTheme(deps: CommandDeps, ctx: CommandContext, themeId: string, request: RevertRequest) {
  const outcome = await runCommand(deps, ctx, async (deps): Promise<Decision<Theme>> => {
    const streamId = streams.theme(themeId)
    const recorded = await deps.eventStore.readStream<ThemeEvent>(streamId)
    const history = recorded as unknown as HistoryEvent[]
    const state = fold(history)
    if (!state.exists || state.storeId !== ctx.storeId) return fail('NOT_FOUND', 'theme not found')
    const target = revertTarget(history, state, request)
    const refs = target.ok
      ? collectReferences(target.value)
      : { productIds: new Set<string>(), collectionIds: new Set<string>() }
    const known = await deps.references(ctx.storeId, {
      productIds: new Set(refs.productIds),
      collectionIds: new Set(refs.collectionIds),
    })
    const decided = decideRevert(history, state, request, known, deps.clock().toISOString())
    if (!decided.ok) return { ...decided, themeId }
    const result = fold(decided.value, state) as Theme
    if (decided.value.length === 0) return { ok: true, appends: [], result: () => result }
    return {
      ok: true,
      appends: [
        {
          streamId,
          streamType: streamTypes.theme,
          storeId: ctx.storeId,
          expected: recorded.at(-1)!.streamVersion,
          events: decided.value,
          state,
        },
      ],
      result: () => result,
    }
  })
  // It reads the whole stream itself; the theme it leaves is read afresh by the next command.
  deps.themes?.drop(themeId)
  return outcome
}
