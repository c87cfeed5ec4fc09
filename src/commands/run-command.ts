import type { AppendOptions, AppendToStream, RecordedEvent } from '../events/event-store.ts'
import { streams, streamTypes } from '../events/theme-events.ts'
import type { CommandContext, CommandDeps } from './context.ts'
import { metadataFor } from './context.ts'
import { fail, type DomainError, type Result } from './errors.ts'

export type Decision<T> =
  | { ok: false; error: DomainError; themeId?: string | null }
  | { ok: true; appends: (Omit<AppendToStream, 'events'> & { events: { type: string; data: unknown }[] })[]; result: (events: RecordedEvent[]) => T; within?: AppendOptions['within'] }

const MAX_ATTEMPTS = 8

// Runs one command: decide against freshly loaded state, append with the versions that state
// was read at, and on a stream conflict load and decide again. A caller's own expected version
// is checked by the decider, so a retry never silently overrides it.
export async function runCommand<T>(deps: CommandDeps, ctx: CommandContext, attempt: () => Promise<Decision<T>>): Promise<Result<T> & { events?: RecordedEvent[] }> {
  const commandId = deps.newId('cmd')
  const metadata = metadataFor(ctx, commandId)
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const decision = await attempt()
    if (!decision.ok) {
      await recordRejection(deps, ctx, commandId, decision.error, decision.themeId ?? null)
      return { ok: false, error: decision.error }
    }
    const appends = decision.appends.map((a) => ({ ...a, events: a.events.map((e) => ({ type: e.type, data: e.data, metadata })) }))
    const appended = await deps.eventStore.append(appends, decision.within ? { within: decision.within } : {})
    if (appended.ok) return { ok: true, value: decision.result(appended.events), events: appended.events }
    await new Promise((r) => setTimeout(r, Math.random() * 5 * (i + 1)))
  }
  const error = fail('VERSION_CONFLICT', 'the theme changed concurrently too many times; read it again and retry').error
  return { ok: false, error }
}

// Refusals are audited in the store's activity stream; a missing resource is not (it may not be theirs).
async function recordRejection(deps: CommandDeps, ctx: CommandContext, commandId: string, error: DomainError, themeId: string | null): Promise<void> {
  if (error.code === 'NOT_FOUND') return
  await deps.eventStore.append([
    {
      streamId: streams.activity(ctx.storeId),
      streamType: streamTypes.activity,
      storeId: ctx.storeId,
      expected: 'any',
      events: [{ type: 'CommandRejected', data: { themeId, code: error.code, message: error.message, at: deps.clock().toISOString() }, metadata: metadataFor(ctx, commandId) }],
    },
  ])
}
