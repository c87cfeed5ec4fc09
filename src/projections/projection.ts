import type { QueryCreator } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RecordedEvent } from '../events/event-store.ts'
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
  apply: (db: QueryCreator<Database>, events: RecordedEvent[]) => Promise<void>
  // The same rows as `apply` would write for these events on a fresh append, decided before the
  // append and written by its own statement (one round trip for a command). null: this append
  // needs `apply` (the projection would have to read first), which then runs in a transaction.
  // A prepared write must not overwrite a row it did not expect: it lets the insert fail
  // (unique_violation), and the append is tried again the `apply` way.
  prepare?: (pending: PendingAppend) => PreparedWrite[] | null
}

export function groupPending(events: readonly PendingEvent[], prefix: string): Map<string, PendingEvent[]> {
  const byStream = new Map<string, PendingEvent[]>()
  for (const e of events) {
    if (!e.streamId.startsWith(prefix)) continue
    const list = byStream.get(e.streamId)
    if (list) list.push(e)
    else byStream.set(e.streamId, [e])
  }
  return byStream
}

export function groupByStream(events: RecordedEvent[], prefix: string): Map<string, RecordedEvent[]> {
  const byStream = new Map<string, RecordedEvent[]>()
  for (const e of events) {
    if (!e.streamId.startsWith(prefix)) continue
    const list = byStream.get(e.streamId)
    if (list) list.push(e)
    else byStream.set(e.streamId, [e])
  }
  return byStream
}

export const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString()
