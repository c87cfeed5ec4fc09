import type { QueryCreator } from 'kysely'
import type { DomainEvent } from '../aggregates/events.ts'
import type { Database } from '../db/database.ts'
import type { AppendToStream, Recorded, RecordedEvent } from '../events/event-store.ts'
import type { PendingAppend, PendingEvent, PreparedWrite } from '../events/postgres-event-store.ts'

// A read model built from events. `apply` must be idempotent: re-applying an event it has
// already seen changes nothing. That is what lets the same code run inline (in the append
// transaction), in the catch-up runner, and in a rebuild into shadow tables.
export type Projection = {
  name: string
  tables: readonly (keyof Database & string)[]
  // Bump when apply() would now write different rows for the same events: the live tables were
  // built by the older code, and `projections:status` then says a rebuild is needed. Default 1.
  version?: number
  // The event types it reads: it is handed those only.
  handles: readonly string[]
  apply: (db: QueryCreator<Database>, events: readonly RecordedEvent[]) => Promise<void>
  // The same rows as `apply` would write for these events on a fresh append, decided before the
  // append and written by its own statement (one round trip for a command). null: this append
  // needs `apply` (the projection would have to read first), which then runs in a transaction.
  // A prepared write must not overwrite a row it did not expect: it lets the insert fail
  // (unique_violation), and the append is tried again the `apply` way.
  // `apply` is the definition of a projection's rows. The prepared writes (the PL/pgSQL functions
  // of migration 0012, written for one round trip per command) repeat it, and are held to it by
  // test: every projection spec (test/support/projection-spec.ts) writes each case both ways and
  // requires the same rows, as does the rebuild test (test/projections/rebuild.int.test.ts).
  prepare?: (pending: PendingAppend) => PreparedWrite[] | null
}

// An event about to be appended, typed as the union E.
export type Pending<E extends DomainEvent> = E extends DomainEvent
  ? PendingEvent & { type: E['type']; data: E['data'] }
  : never

export type ProjectionSpec<E extends DomainEvent> = {
  name: string
  tables: readonly (keyof Database & string)[]
  version?: number
  handles: readonly E['type'][]
  apply: (db: QueryCreator<Database>, events: readonly Recorded<E>[]) => Promise<void>
  prepare?: (pending: { streams: readonly AppendToStream[]; events: readonly Pending<E>[] }) => PreparedWrite[] | null
}

// A projection receives only the events it declares, typed: the filter by type is what makes the
// narrowing below true.
export function defineProjection<E extends DomainEvent>(spec: ProjectionSpec<E>): Projection {
  const handled = new Set<string>(spec.handles)
  const isRecorded = (e: RecordedEvent): e is RecordedEvent & Recorded<E> => handled.has(e.type)
  const isPending = (e: PendingEvent): e is PendingEvent & Pending<E> => handled.has(e.type)
  const { prepare } = spec
  return {
    name: spec.name,
    tables: spec.tables,
    ...(spec.version ? { version: spec.version } : {}),
    handles: spec.handles,
    async apply(db, events) {
      const mine = events.filter(isRecorded)
      if (mine.length > 0) await spec.apply(db, mine)
    },
    ...(prepare
      ? {
          prepare: (pending: PendingAppend) =>
            prepare({ streams: pending.streams, events: pending.events.filter(isPending) }),
        }
      : {}),
  }
}

// Events in the order given, one list per stream.
export function byStream<T extends { streamId: string }>(events: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const e of events) {
    const list = out.get(e.streamId)
    if (list) list.push(e)
    else out.set(e.streamId, [e])
  }
  return out
}

export const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString()
