import type { AppendResult, AppendToStream, RecordedEvent } from '../events/event-store.ts'
import type { PostgresAppendOptions } from '../events/postgres-event-store.ts'
import { streams, streamTypes } from '../events/theme-events.ts'
import type { CommandContext, CommandDeps } from './context.ts'
import { metadataFor } from './context.ts'
import { fail, type DomainError, type Result } from './errors.ts'
import { countCommand } from '../metrics/registry.ts'

export type Decision<T> =
  | { ok: false; error: DomainError; themeId?: string | null }
  | {
      ok: true
      appends: (Omit<AppendToStream, 'events'> & { events: { type: string; data: unknown }[] })[]
      result: (events: RecordedEvent[]) => T
      within?: PostgresAppendOptions['within']
    }

// Only reached if the streams a command writes keep changing between decisions (a publish whose
// former live theme changes each time); a command on fixed streams succeeds on its first locked try.
const MAX_LOCKED_ATTEMPTS = 8

type Locked<T> =
  | { kind: 'decided'; decision: Decision<T>; appended: AppendResult | null }
  | { kind: 'widen'; streamIds: string[] }

// Runs one command: decide against freshly loaded state and append with the versions that state
// was read at. The first try takes no lock (most commands meet no contention). If another writer
// got in between, the command is decided again holding its streams' append locks, so it waits its
// turn in the lock queue instead of retrying until it gives up: a command without an expected
// version is never refused for losing races. A caller's own expected version is checked by the
// decider, so deciding again never silently overrides it.
export async function runCommand<T>(
  deps: CommandDeps,
  ctx: CommandContext,
  attempt: (deps: CommandDeps) => Promise<Decision<T>>,
): Promise<Result<T> & { events?: RecordedEvent[] }> {
  const commandId = deps.newId('cmd')
  const metadata = metadataFor(ctx, commandId)
  const append = (on: CommandDeps, d: Decision<T> & { ok: true }) =>
    on.eventStore.append(
      d.appends.map((a) => ({ ...a, events: a.events.map((e) => ({ type: e.type, data: e.data, metadata })) })),
      d.within ? { within: d.within } : {},
    )
  const finish = async (
    decision: Decision<T>,
    appended: AppendResult | null,
  ): Promise<Result<T> & { events?: RecordedEvent[] }> => {
    if (!decision.ok) {
      await recordRejection(deps, ctx, commandId, decision.error, decision.themeId ?? null)
      countCommand(ctx.operation, decision.error.code)
      return { ok: false, error: decision.error }
    }
    const events = appended?.ok ? appended.events : []
    countCommand(ctx.operation, 'applied')
    return { ok: true, value: decision.result(events), events }
  }

  // A refusal decided on a cached theme may be the cache's staleness talking: decided again fresh.
  const tracked = deps.themes?.tracking()
  let first = await attempt(tracked ? { ...deps, themes: tracked } : deps)
  if (!first.ok && tracked?.hit) first = await attempt(withoutCache(deps))
  if (!first.ok) return finish(first, null)
  const appended = await append(deps, first)
  if (appended.ok) return finish(first, appended)

  let locked = new Set([...first.appends.map((a) => a.streamId), appended.conflict.streamId])
  for (let i = 0; i < MAX_LOCKED_ATTEMPTS; i++) {
    const outcome = await deps.serialized([...locked], async (bound): Promise<Locked<T>> => {
      const decision = await attempt(bound)
      if (!decision.ok) return { kind: 'decided', decision, appended: null }
      const more = decision.appends.map((a) => a.streamId).filter((s) => !locked.has(s))
      // Locks are taken in one order only; a stream not yet held means starting again with it.
      if (more.length > 0) return { kind: 'widen', streamIds: more }
      return { kind: 'decided', decision, appended: await append(bound, decision) }
    })
    if (outcome.kind === 'widen') {
      locked = new Set([...locked, ...outcome.streamIds])
      continue
    }
    if (outcome.appended && !outcome.appended.ok) {
      locked.add(outcome.appended.conflict.streamId)
      continue
    }
    return finish(outcome.decision, outcome.appended)
  }
  const error = fail('VERSION_CONFLICT', 'the theme changed concurrently too many times; read it again and retry').error
  countCommand(ctx.operation, error.code)
  return { ok: false, error }
}

function withoutCache(deps: CommandDeps): CommandDeps {
  const { themes: _, ...fresh } = deps
  return fresh
}

// Refusals are audited in the store's activity stream; a missing resource is not (it may not be
// theirs), nor a credential's refusals past its audit budget (README: which refusals are audited).
async function recordRejection(
  deps: CommandDeps,
  ctx: CommandContext,
  commandId: string,
  error: { code: string; message: string },
  themeId: string | null,
): Promise<void> {
  if (error.code === 'NOT_FOUND') return
  if (deps.admitRefusalAudit && !deps.admitRefusalAudit(ctx)) return
  await deps.eventStore.append([
    {
      streamId: streams.activity(ctx.storeId),
      streamType: streamTypes.activity,
      storeId: ctx.storeId,
      expected: 'any',
      events: [
        {
          type: 'CommandRejected',
          data: { themeId, code: error.code, message: error.message, at: deps.clock().toISOString() },
          metadata: metadataFor(ctx, commandId),
        },
      ],
    },
  ])
}

// A state-changing operation refused before any command ran (a missing scope, input its schema
// refuses) is an attempt the merchant should see too; it spends the same per-credential budget.
export async function recordRefusedAttempt(
  deps: CommandDeps,
  ctx: CommandContext,
  error: { code: string; message: string },
): Promise<void> {
  await recordRejection(deps, ctx, deps.newId('cmd'), error, null)
}
