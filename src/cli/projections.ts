import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { projectionNamed, projections } from '../projections/index.ts'
import { projectionStates, type ProjectionState } from '../projections/lag.ts'
import { rebuildProjection } from '../projections/rebuild.ts'
import { catchUp, readProjectionCheckpoint } from '../projections/runner.ts'
import { progress } from './progress.ts'
import { runCli } from './open.ts'

const usage = `Usage:
  npm run projections:rebuild [-- <name>]   rebuild one projection (or all) from position 0, swapped in without emptying readers' tables
  npm run projections:catch-up              apply events past each projection's checkpoint
  npm run projections:status                checkpoints, lag (events and seconds), and whether a rebuild is needed
Projections: ${projections.map((p) => p.name).join(', ')}`

const { positionals } = parseArgs({ allowPositionals: true })
const [command, name] = positionals

function describe(s: ProjectionState): string {
  const lag = s.behindEvents === 0 ? 'caught up' : `${s.behindEvents} events, ${s.behindSeconds.toFixed(1)} s behind`
  const version = s.rebuildNeeded
    ? `  REBUILD NEEDED: tables built by code version ${s.builtVersion}, code is version ${s.codeVersion} (npm run projections:rebuild -- ${s.name})`
    : `  code version ${s.codeVersion}`
  const rebuilding = s.rebuildAt !== null ? `  (rebuild in progress at ${s.rebuildAt})` : ''
  return `${s.name.padEnd(20)} checkpoint ${s.checkpoint ?? 'none'} of ${s.head}  ${lag};${version}${rebuilding}`
}

await runCli(async (s) => {
  const chosen = name ? [projectionNamed(name)] : projections
  if (chosen.some((p) => !p)) {
    process.stderr.write(`unknown projection "${name}"\n${usage}\n`)
    return 2
  }
  const head = async () =>
    Number(
      (await sql<{ p: number | null }>`select max(global_position) as p from events`.execute(s.db)).rows[0]?.p ?? 0,
    )
  if (command === 'rebuild') {
    const total = await head()
    for (const p of chosen) {
      const started = Date.now()
      const shown = progress(`${p!.name}: rebuilding`, total)
      const result = await rebuildProjection(s.db, s.eventStore, p!, { onProgress: (n) => shown.tick(n) })
      shown.finish()
      const seconds = (Date.now() - started) / 1000
      process.stderr.write(
        `${p!.name}: rebuilt from ${result.events} events in ${seconds.toFixed(1)} s${result.resumed ? ' (resumed)' : ''}\n`,
      )
    }
    return 0
  }
  if (command === 'catch-up') {
    const last = await head()
    for (const p of chosen) {
      const from = (await readProjectionCheckpoint(s.db, p!.name))?.globalPosition ?? 0
      const shown = progress(`${p!.name}: catching up`, Math.max(0, last - from))
      const result = await catchUp(s.db, s.eventStore, p!, { onBatch: (n) => shown.tick(n) })
      shown.finish()
      process.stderr.write(`${p!.name}: ${result.applied} events applied\n`)
    }
    return 0
  }
  if (command === 'status') {
    for (const state of await projectionStates(s.db, chosen as typeof projections))
      process.stdout.write(`${describe(state)}\n`)
    return 0
  }
  process.stderr.write(`${usage}\n`)
  return 2
})
