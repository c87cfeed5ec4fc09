import type { RecordedEvent } from '../../events/event-store.ts'
import { START } from '../../events/event-store.ts'
import type { ThemeEvent } from '../../aggregates/theme/events.ts'
import { themeStream } from '../../aggregates/theme/events.ts'
import { fold } from '../../aggregates/theme/state.ts'
import type { Services } from '../../services.ts'

// Auditors' tools (npm run audit): events as NDJSON, and any theme as it was at a point in the log.

export type Write = (line: string) => void

export async function exportEvents(
  s: Services,
  opts: { storeId?: string; streamId?: string },
  write: Write,
): Promise<number> {
  if (!opts.storeId && !opts.streamId) throw new Error('give --store <id> or --stream <id>')
  let count = 0
  const emit = (e: RecordedEvent) => {
    write(JSON.stringify(e))
    count++
  }
  if (opts.streamId) {
    for (const e of await s.eventStore.readStream(opts.streamId))
      if (!opts.storeId || e.storeId === opts.storeId) emit(e)
    return count
  }
  let position = START
  for (;;) {
    const page = await s.eventStore.readAll({ after: position, limit: 1000, storeId: opts.storeId! })
    for (const e of page.events) emit(e)
    if (page.events.length === 0) return count
    position = page.position
  }
}

export async function themeAt(s: Services, opts: { themeId: string; position?: number; time?: Date }) {
  const events = await s.eventStore.readStream<ThemeEvent>(themeStream(opts.themeId), {
    ...(opts.position !== undefined ? { toPosition: opts.position } : {}),
    ...(opts.time ? { toTime: opts.time } : {}),
  })
  if (events.length === 0) return null
  const state = fold(events)
  if (!state.exists) return null
  const last = events.at(-1)!
  return {
    themeId: state.themeId,
    storeId: state.storeId,
    name: state.name,
    status: state.status,
    version: state.version,
    asOf: {
      globalPosition: last.globalPosition,
      streamVersion: last.streamVersion,
      recordedAt: last.recordedAt.toISOString(),
    },
    document: state.document,
  }
}
