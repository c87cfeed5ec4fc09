import type { Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RecordedEvent } from '../events/event-store.ts'
import type { InlinePlan, InlineProjector, PendingAppend, PreparedWrite } from '../events/postgres-event-store.ts'
import { activityProjection } from './activity-projection.ts'
import { liveThemesProjection } from './live-themes-projection.ts'
import { mediaProjection } from './media-projection.ts'
import { navigationProjection } from './navigation-projection.ts'
import { ordersProjection } from './orders-projection.ts'
import type { Projection } from './projection.ts'
import { themesProjection } from './themes-projection.ts'

export const projections: readonly Projection[] = [
  themesProjection,
  liveThemesProjection,
  activityProjection,
  navigationProjection,
  mediaProjection,
  ordersProjection,
]

export function projectionNamed(name: string): Projection | undefined {
  return projections.find((p) => p.name === name)
}

// Applied inside every append transaction, so a read right after a command sees it. Projections
// that can decide their rows before the append write them within the append's own statement; the
// others apply to the recorded events in the same transaction.
export function inlineProjector(list: readonly Projection[] = projections): InlineProjector {
  const project = async (trx: Transaction<Database>, events: RecordedEvent[]) => {
    for (const p of list) await p.apply(trx, events)
  }
  const prepare = (pending: PendingAppend): InlinePlan => {
    const writes: PreparedWrite[] = []
    const remaining: Projection[] = []
    for (const p of list) {
      const prepared = p.prepare ? p.prepare(pending) : null
      if (prepared) writes.push(...prepared)
      else remaining.push(p)
    }
    return {
      writes,
      remaining:
        remaining.length === 0
          ? null
          : async (trx, events) => {
              for (const p of remaining) await p.apply(trx, events)
            },
    }
  }
  return Object.assign(project, { prepare })
}
