import { type Aggregate, fold } from '../aggregates/decider.ts'
import type { DomainEvent } from '../aggregates/events.ts'
import { activityStream, keptIssues } from '../aggregates/refusals/events.ts'
import { type DomainError, fail, type Result } from '../aggregates/result.ts'
import type { OrderInputs } from '../aggregates/orders/decider.ts'
import type { AppendResult, AppendToStream, EventShape, RecordedEvent } from '../events/event-store.ts'
import type { PostgresAppendOptions } from '../events/postgres-event-store.ts'
import { countCommand } from '../metrics/registry.ts'
import type { KnownReferences } from '../theme/validate.ts'
import { type CommandContext, type CommandDeps, metadataFor } from './context.ts'

// The one command handler: load the streams a command needs, decide (pure), append the events
// with the versions the streams were read at, and answer with the result, the recorded events
// and what was decided. Every command of the service runs through it.

// A stream as a command read it.
export type Loaded<S, E = EventShape> = {
  aggregate: Aggregate<S, E>
  streamId: string
  state: S
  // The version the state was read at (0: the stream does not exist yet).
  version: number
  // Taken from this process's stream cache instead of the database.
  cached: boolean
}

// A stream a command appends to without reading it (an audit log: no decision depends on it).
export type AuditLog = { streamId: string; streamType: string }

// What a command decided for one stream.
export type Change = { on: Loaded<unknown, unknown> | AuditLog; events: readonly DomainEvent[] }
export const change = <S, E extends DomainEvent>(on: Loaded<S, E> | AuditLog, events: readonly E[]): Change => ({
  on: on as Change['on'],
  events,
})

export type StreamReader = {
  // The stream's state: from the cache, or its snapshot plus the events past it, or all its events.
  read<S, E>(aggregate: Aggregate<S, E>, id: string): Promise<Loaded<S, E>>
  // Every recorded event of the stream as well (history, undo), read from the database.
  history<S, E extends EventShape>(
    aggregate: Aggregate<S, E>,
    id: string,
  ): Promise<Loaded<S, E> & { events: RecordedEvent<E['type'], E['data']>[] }>
  // A stream this command creates: nothing to read.
  create<S, E>(aggregate: Aggregate<S, E>, id: string): Loaded<S, E>
  // Which of these product and collection ids exist in the store's catalogue.
  references(refs: { productIds: Set<string>; collectionIds: Set<string> }): Promise<KnownReferences>
  // The command's time.
  at: string
  // The ordered variants' price and stock and the store's checkout terms, read on this attempt's
  // connection (the transaction holding the streams' locks when deciding again).
  orderInputs(variantIds: readonly string[]): Promise<OrderInputs>
}

export type CommandPlan<L, T> = {
  // Reads what the decision needs.
  load: (reader: StreamReader) => Promise<L>
  // Pure: the events for each stream, or a refusal.
  decide: (loaded: L) => Result<readonly Change[]>
  // The answer, given the states the streams are in after the command.
  result: (loaded: L, after: <S>(stream: Loaded<S, never>) => S) => T
  // The theme a refusal concerns, for the activity view.
  themeId?: string | null
  // Decide and answer, append nothing.
  dryRun?: boolean
  // Runs in the append's transaction (rows a command keeps beside its events: upload bytes, keys).
  within?: PostgresAppendOptions['within']
}

export type Decided = DomainEvent & { streamId: string }
export type CommandOutcome<T> =
  | { ok: true; value: T; events: RecordedEvent[]; decided: Decided[] }
  | { ok: false; error: DomainError }

// Only reached if the streams a command writes keep changing between decisions (a publish whose
// former live theme changes each time); a command on fixed streams succeeds on its first locked try.
const MAX_LOCKED_ATTEMPTS = 8

type Attempt<L> = { loaded: L; decision: Result<readonly Change[]>; reads: Loaded<unknown, unknown>[] }

const isLoaded = (on: Change['on']): on is Loaded<unknown, unknown> => 'aggregate' in on

// Runs one command. The first try takes no lock and may read from the stream cache (most commands
// meet no contention). If another writer got in between, the command is decided again holding its
// streams' append locks, so it waits its turn in the lock queue instead of retrying until it gives
// up: a command without an expected version is never refused for losing races. A caller's own
// expected version is checked by the decider, so deciding again never silently overrides it.
export async function handleCommand<L, T>(
  deps: CommandDeps,
  ctx: CommandContext,
  plan: CommandPlan<L, T>,
): Promise<CommandOutcome<T>> {
  const commandId = deps.newId('cmd')
  const metadata = metadataFor(ctx, commandId)
  const at = deps.clock().toISOString()

  const attempt = async (on: CommandDeps): Promise<Attempt<L>> => {
    const reads: Loaded<unknown, unknown>[] = []
    const loaded = await plan.load(reader(on, ctx.storeId, at, reads))
    return { loaded, decision: plan.decide(loaded), reads }
  }
  const append = (on: CommandDeps, changes: readonly Change[]) =>
    on.eventStore.append(
      changes
        .filter((c) => c.events.length > 0)
        .map(
          (c): AppendToStream => ({
            streamId: c.on.streamId,
            streamType: isLoaded(c.on) ? c.on.aggregate.stream.type : c.on.streamType,
            storeId: ctx.storeId,
            expected: isLoaded(c.on) ? (c.on.version === 0 ? 'no_stream' : c.on.version) : 'any',
            events: c.events.map((e) => ({ type: e.type, data: e.data, metadata })),
            ...(isLoaded(c.on) ? { state: c.on.state } : {}),
          }),
        ),
      plan.within ? { within: plan.within } : {},
    )

  // A copy from the cache is trusted only where the append checks its version: a refusal or a
  // decision that leaves a cached stream untouched is decided again on fresh reads.
  let first = await attempt(deps)
  if (first.reads.some((r) => r.cached) && !trustsCache(first, plan.dryRun === true))
    first = await attempt(withoutCache(deps))
  if (!first.decision.ok || plan.dryRun || !writes(first.decision.value)) return finish(first, null)
  const appended = await append(deps, first.decision.value)
  if (appended.ok) return finish(first, appended)

  let locked = new Set([...streamIds(first.decision.value), appended.conflict.streamId])
  for (let i = 0; i < MAX_LOCKED_ATTEMPTS; i++) {
    const outcome = await deps.serialized([...locked], async (bound) => {
      const next = await attempt(bound)
      if (!next.decision.ok) return { next, appended: null, widen: [] }
      // Locks are taken in one order only; a stream not yet held means starting again with it.
      const widen = streamIds(next.decision.value).filter((s) => !locked.has(s))
      if (widen.length > 0) return { next, appended: null, widen }
      return { next, appended: await append(bound, next.decision.value), widen }
    })
    if (outcome.widen.length > 0) {
      locked = new Set([...locked, ...outcome.widen])
      continue
    }
    if (outcome.appended && !outcome.appended.ok) {
      locked.add(outcome.appended.conflict.streamId)
      continue
    }
    return finish(outcome.next, outcome.appended)
  }
  const error = fail('VERSION_CONFLICT', 'the theme changed concurrently too many times; read it again and retry').error
  countCommand(ctx.operation, error.code)
  return { ok: false, error }

  async function finish(done: Attempt<L>, appended: AppendResult | null): Promise<CommandOutcome<T>> {
    if (!done.decision.ok) {
      await recordRejection(deps, ctx, commandId, done.decision.error, plan.themeId ?? null)
      countCommand(ctx.operation, done.decision.error.code)
      return { ok: false, error: done.decision.error }
    }
    const changes = done.decision.value
    const events = appended?.ok ? appended.events : []
    const afterOf = new Map<string, unknown>()
    for (const c of changes) {
      if (!isLoaded(c.on)) continue
      const state = fold(c.on.aggregate, c.events, afterOf.get(c.on.streamId) ?? c.on.state)
      afterOf.set(c.on.streamId, state)
      const version = events.filter((e) => e.streamId === c.on.streamId).at(-1)?.streamVersion
      if (version !== undefined) deps.streams?.put(c.on.streamId, { state, streamVersion: version })
    }
    countCommand(ctx.operation, 'applied')
    const after = <S>(stream: Loaded<S, never>): S => (afterOf.get(stream.streamId) as S | undefined) ?? stream.state
    return {
      ok: true,
      value: plan.result(done.loaded, after),
      events,
      decided: changes.flatMap((c) => c.events.map((e): Decided => ({ ...e, streamId: c.on.streamId }))),
    }
  }
}

const writes = (changes: readonly Change[]) => changes.some((c) => c.events.length > 0)
const streamIds = (changes: readonly Change[]) => changes.filter((c) => c.events.length > 0).map((c) => c.on.streamId)

function trustsCache(attempt: Attempt<unknown>, dryRun: boolean): boolean {
  if (!attempt.decision.ok || dryRun) return false
  const appended = new Set(streamIds(attempt.decision.value))
  return attempt.reads.every((r) => !r.cached || appended.has(r.streamId))
}

function withoutCache(deps: CommandDeps): CommandDeps {
  const { streams: _, ...fresh } = deps
  return fresh
}

function reader(deps: CommandDeps, storeId: string, at: string, reads: Loaded<unknown, unknown>[]): StreamReader {
  const remember = <S, E>(loaded: Loaded<S, E>) => {
    reads.push(loaded as Loaded<unknown, unknown>)
    return loaded
  }
  return {
    at,
    references: (refs) => deps.references(storeId, refs),
    orderInputs: (variantIds) => deps.orderInputs(storeId, variantIds),
    create: (aggregate, id) =>
      remember({ aggregate, streamId: aggregate.stream(id), state: aggregate.initialState, version: 0, cached: false }),
    async read(aggregate, id) {
      const streamId = aggregate.stream(id)
      const cached = deps.streams?.get(streamId)
      if (cached)
        return remember({
          aggregate,
          streamId,
          state: cached.state as never,
          version: cached.streamVersion,
          cached: true,
        })
      // A snapshot is written in the same transaction as its events; the events past it (a
      // projection that lags or is being rebuilt) are replayed on top.
      const snapshot = await deps.snapshots[aggregate.stream.type]?.(id)
      if (snapshot && snapshot.streamVersion === snapshot.snapshotVersion)
        return remember({
          aggregate,
          streamId,
          state: snapshot.state as never,
          version: snapshot.snapshotVersion,
          cached: false,
        })
      const from = snapshot?.snapshotVersion ?? 0
      const tail = await deps.eventStore.readStream(streamId, { fromVersion: from + 1 })
      const base = snapshot ? (snapshot.state as never) : aggregate.initialState
      const state = fold(aggregate, tail as never[], base)
      const version = tail.at(-1)?.streamVersion ?? from
      if (version > 0) deps.streams?.put(streamId, { state, streamVersion: version })
      return remember({ aggregate, streamId, state, version, cached: false })
    },
    async history(aggregate, id) {
      const streamId = aggregate.stream(id)
      const events = await deps.eventStore.readStream(streamId)
      const state = fold(aggregate, events as never[])
      const version = events.at(-1)?.streamVersion ?? 0
      return { ...remember({ aggregate, streamId, state, version, cached: false }), events: events as never }
    },
  }
}

type Refusal = { code: string; message: string; details?: Record<string, unknown> | undefined }

// Refusals are audited in the store's activity stream; a missing resource is not (it may not be
// theirs), nor a credential's refusals past its audit budget (docs/decisions/0020-audited-refusals.md).
async function recordRejection(
  deps: CommandDeps,
  ctx: CommandContext,
  commandId: string,
  error: Refusal,
  themeId: string | null,
): Promise<void> {
  if (error.code === 'NOT_FOUND') return
  if (deps.admitRefusalAudit && !deps.admitRefusalAudit(ctx)) return
  await deps.eventStore.append([
    {
      streamId: activityStream(ctx.storeId),
      streamType: activityStream.type,
      storeId: ctx.storeId,
      expected: 'any',
      events: [
        {
          type: 'CommandRejected',
          data: {
            themeId,
            code: error.code,
            message: error.message,
            // The merchant reads the same problems the caller was told, at their fields.
            ...keptIssues(error.details),
            at: deps.clock().toISOString(),
          },
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
  error: Refusal,
  themeId: string | null = null,
): Promise<void> {
  await recordRejection(deps, ctx, deps.newId('cmd'), error, themeId)
}
