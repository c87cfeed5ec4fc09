import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { projectionNamed, projections } from '../projections/index.ts'
import { rebuildProjection } from '../projections/rebuild.ts'
import { catchUp, readProjectionCheckpoint } from '../projections/runner.ts'
import { runCli } from './open.ts'

const usage = `Usage:
  npm run projections:rebuild [-- <name>]   rebuild one projection (or all) from position 0, swapped in without emptying readers' tables
  npm run projections:catch-up              apply events past each projection's checkpoint
  npm run projections:status                checkpoints and lag
Projections: ${projections.map((p) => p.name).join(', ')}`

const { positionals } = parseArgs({ allowPositionals: true })
const [command, name] = positionals

await runCli(async (s) => {
  const chosen = name ? [projectionNamed(name)] : projections
  if (chosen.some((p) => !p)) {
    process.stderr.write(`unknown projection "${name}"\n${usage}\n`)
    return 2
  }
  if (command === 'rebuild') {
    for (const p of chosen) {
      const started = Date.now()
      const result = await rebuildProjection(s.db, s.eventStore, p!, { onProgress: (n) => process.stderr.write(`\r${p!.name}: ${n} events`) })
      const seconds = (Date.now() - started) / 1000
      process.stderr.write(`\r${p!.name}: rebuilt from ${result.events} events in ${seconds.toFixed(1)} s${result.resumed ? ' (resumed)' : ''}\n`)
    }
    return 0
  }
  if (command === 'catch-up') {
    for (const p of chosen) {
      const result = await catchUp(s.db, s.eventStore, p!)
      process.stderr.write(`${p!.name}: ${result.applied} events applied\n`)
    }
    return 0
  }
  if (command === 'status') {
    const last = (await sql<{ p: number | null }>`select max(global_position) as p from events`.execute(s.db)).rows[0]?.p ?? 0
    for (const p of chosen) {
      const cp = await readProjectionCheckpoint(s.db, p!.name)
      const rebuilding = await readProjectionCheckpoint(s.db, `rebuild:${p!.name}`)
      process.stdout.write(`${p!.name.padEnd(20)} checkpoint ${cp ? cp.globalPosition : 'none'} of ${last}${rebuilding ? `  (rebuild in progress at ${rebuilding.globalPosition})` : ''}\n`)
    }
    return 0
  }
  process.stderr.write(`${usage}\n`)
  return 2
})
