import { sql, type Kysely, type Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { Projection } from './projection.ts'

export type ProjectionState = {
  name: string
  // Global position of the catch-up checkpoint (null: the runner never ran).
  checkpoint: number | null
  head: number
  // Positions past the checkpoint (positions are gapless but for rolled-back appends).
  behindEvents: number
  // Age of the oldest event past the checkpoint; 0 when caught up.
  behindSeconds: number
  builtVersion: number
  codeVersion: number
  rebuildNeeded: boolean
  // Position reached by an unfinished rebuild, if one was started and not swapped in.
  rebuildAt: number | null
}

export const codeVersion = (p: Projection): number => p.version ?? 1

// Where each projection stands: checkpoint against the head of the log, and whether its tables
// were built by the current code. A handful of indexed reads, cheap enough for every scrape.
export async function projectionStates(db: Kysely<Database>, list: readonly Projection[]): Promise<ProjectionState[]> {
  const head = Number(
    (await sql<{ p: number | null }>`select max(global_position) as p from events`.execute(db)).rows[0]?.p ?? 0,
  )
  const names = list.flatMap((p) => [p.name, `rebuild:${p.name}`])
  const checkpoints = new Map(
    (
      await db
        .selectFrom('projection_checkpoints')
        .select(['name', 'global_position'])
        .where('name', 'in', names)
        .execute()
    ).map((r) => [r.name, Number(r.global_position)]),
  )
  const versions = new Map(
    (await db.selectFrom('projection_versions').select(['name', 'code_version']).execute()).map((r) => [
      r.name,
      r.code_version,
    ]),
  )
  const states: ProjectionState[] = []
  for (const p of list) {
    const checkpoint = checkpoints.get(p.name) ?? null
    const behindEvents = Math.max(0, head - (checkpoint ?? 0))
    let behindSeconds = 0
    if (behindEvents > 0) {
      const { rows } = await sql<{ s: number | string | null }>`
        select extract(epoch from now() - recorded_at) as s from events where global_position > ${checkpoint ?? 0} order by global_position limit 1`.execute(
        db,
      )
      behindSeconds = Math.max(0, Number(rows[0]?.s ?? 0))
    }
    const builtVersion = versions.get(p.name) ?? 1
    states.push({
      name: p.name,
      checkpoint,
      head,
      behindEvents,
      behindSeconds,
      builtVersion,
      codeVersion: codeVersion(p),
      rebuildNeeded: builtVersion !== codeVersion(p),
      rebuildAt: checkpoints.get(`rebuild:${p.name}`) ?? null,
    })
  }
  return states
}

// Called in the rebuild's swap transaction: the live tables are now the current code's.
export async function recordBuiltVersion(trx: Transaction<Database> | Kysely<Database>, p: Projection): Promise<void> {
  await trx
    .insertInto('projection_versions')
    .values({ name: p.name, code_version: codeVersion(p) })
    .onConflict((oc) => oc.column('name').doUpdateSet({ code_version: codeVersion(p), built_at: sql`now()` }))
    .execute()
}

// A database without events has nothing built by older code: record the current versions.
export async function recordVersionsIfEmpty(db: Kysely<Database>, list: readonly Projection[]): Promise<void> {
  const any = await db.selectFrom('events').select('global_position').limit(1).executeTakeFirst()
  if (any) return
  for (const p of list) {
    await db
      .insertInto('projection_versions')
      .values({ name: p.name, code_version: codeVersion(p) })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute()
  }
}
