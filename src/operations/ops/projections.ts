import { projectionNamed, projections } from '../../projections/index.ts'
import { projectionStates, type ProjectionState } from '../../projections/lag.ts'
import type { Projection } from '../../projections/projection.ts'
import { rebuildProjection } from '../../projections/rebuild.ts'
import { catchUp } from '../../projections/runner.ts'
import {
  rebuildStoreProjection,
  storeProjectionStates,
  type StoreProjectionState,
  type StoreRebuildResult,
} from '../../projections/store-rebuild.ts'
import type { Services } from '../../services.ts'

// The operator's projection commands (npm run projections:*, and /metrics' lag): no REST route
// or MCP tool exposes them, and they act on the whole database or on one store named by the operator.

export type { ProjectionState, StoreProjectionState }

export const projectionNames = (): string[] => projections.map((p) => p.name)

function named(name: string): Projection {
  const projection = projectionNamed(name)
  if (!projection) throw new Error(`unknown projection "${name}"`)
  return projection
}

// Checkpoint against the head of the log, lag, and whether a rebuild is needed: every
// projection's, or those named.
export async function projectionStatus(
  services: Services,
  names: readonly string[] = projectionNames(),
): Promise<ProjectionState[]> {
  return projectionStates(services.db, names.map(named))
}

// From position 0 into tables aside, swapped in when done (src/projections/rebuild.ts).
export async function rebuildProjectionNamed(
  services: Services,
  name: string,
  onProgress?: (applied: number) => void,
): Promise<{ events: number; resumed: boolean }> {
  const result = await rebuildProjection(services.db, services.eventStore, named(name), {
    ...(onProgress ? { onProgress } : {}),
  })
  return { events: result.events, resumed: result.resumed }
}

// The events past the projection's checkpoint.
export async function catchUpProjectionNamed(
  services: Services,
  name: string,
  onBatch?: (applied: number) => void,
): Promise<{ applied: number }> {
  const result = await catchUp(services.db, services.eventStore, named(name), {
    ...(onBatch ? { onBatch: (applied: number) => onBatch(applied) } : {}),
  })
  return { applied: result.applied }
}

// One store's rows rebuilt from its events and swapped in under its streams' locks
// (src/projections/store-rebuild.ts); other stores are not touched.
export async function rebuildStoreProjectionNamed(
  services: Services,
  storeId: string,
  name: string,
  onProgress?: (applied: number) => void,
): Promise<StoreRebuildResult> {
  return rebuildStoreProjection(services.db, services.eventStore, named(name), storeId, {
    ...(onProgress ? { onProgress } : {}),
  })
}

export async function storeProjectionStatus(
  services: Services,
  storeId: string,
  names: readonly string[] = projectionNames(),
): Promise<StoreProjectionState[]> {
  return storeProjectionStates(services.db, names.map(named), storeId)
}

export async function storeExists(services: Services, storeId: string): Promise<boolean> {
  return (
    (await services.db.selectFrom('stores').select('store_id').where('store_id', '=', storeId).executeTakeFirst()) !==
    undefined
  )
}
