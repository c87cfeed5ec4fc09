import { projectionNamed, projections } from '../../projections/index.ts'
import { projectionStates, type ProjectionState } from '../../projections/lag.ts'
import type { Projection } from '../../projections/projection.ts'
import { rebuildProjection } from '../../projections/rebuild.ts'
import { catchUp } from '../../projections/runner.ts'
import type { Services } from '../../services.ts'

// The operator's projection commands (npm run projections:*, and /metrics' lag): no REST route
// or MCP tool exposes them, and they act on the whole database, not on one store.

export type { ProjectionState }

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
