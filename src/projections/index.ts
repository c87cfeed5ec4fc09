import type { Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RecordedEvent } from '../events/event-store.ts'
import { activityProjection } from './activity-projection.ts'
import { liveThemesProjection } from './live-themes-projection.ts'
import { mediaProjection } from './media-projection.ts'
import { navigationProjection } from './navigation-projection.ts'
import type { Projection } from './projection.ts'
import { storeContextProjection } from './store-context-projection.ts'
import { themesProjection } from './themes-projection.ts'

export const projections: readonly Projection[] = [themesProjection, liveThemesProjection, activityProjection, navigationProjection, mediaProjection, storeContextProjection]

export function projectionNamed(name: string): Projection | undefined {
  return projections.find((p) => p.name === name)
}

// Applied inside every append transaction, so a read right after a command sees it.
export function inlineProjector(list: readonly Projection[] = projections) {
  return async (trx: Transaction<Database>, events: RecordedEvent[]) => {
    for (const p of list) await p.apply(trx, events)
  }
}
