import type { QueryCreator } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RecordedEvent } from '../events/event-store.ts'

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

export const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString())
