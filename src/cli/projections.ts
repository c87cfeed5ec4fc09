import { parseArgs } from 'node:util'
import {
  catchUpProjectionNamed,
  projectionNames,
  projectionStatus,
  rebuildProjectionNamed,
  rebuildStoreProjectionNamed,
  storeExists,
  storeProjectionStatus,
  type ProjectionState,
  type StoreProjectionState,
} from '../operations/ops/projections.ts'
import { progress } from './progress.ts'
import { runCli } from './open.ts'

const usage = `Usage:
  npm run projections:rebuild [-- <name>]   rebuild one projection (or all) from position 0, swapped in without emptying readers' tables
  npm run projections:catch-up              apply events past each projection's checkpoint
  npm run projections:status                checkpoints, lag (events and seconds), and whether a rebuild is needed
  npm run projections:rebuild -- --store <id> [<name>]   one store's rows (of one projection, or all), swapped in under the store's locks
  npm run projections:status -- --store <id>             the store's events and rows per projection, and which code version built them
Projections: ${projectionNames().join(', ')}`

const { positionals, values } = parseArgs({ allowPositionals: true, options: { store: { type: 'string' } } })
const [command, name] = positionals
const storeId = values.store

function describe(s: ProjectionState): string {
  const lag = s.behindEvents === 0 ? 'caught up' : `${s.behindEvents} events, ${s.behindSeconds.toFixed(1)} s behind`
  const version = s.rebuildNeeded
    ? `  REBUILD NEEDED: tables built by code version ${s.builtVersion}, code is version ${s.codeVersion} (npm run projections:rebuild -- ${s.name})`
    : `  code version ${s.codeVersion}`
  const rebuilding = s.rebuildAt !== null ? `  (rebuild in progress at ${s.rebuildAt})` : ''
  return `${s.name.padEnd(20)} checkpoint ${s.checkpoint ?? 'none'} of ${s.head}  ${lag};${version}${rebuilding}`
}

function describeStore(s: StoreProjectionState): string {
  const built = s.rebuiltAt ? `rebuilt for the store ${s.rebuiltAt.toISOString()}` : 'built with the whole table'
  const version = s.rebuildNeeded
    ? `REBUILD NEEDED: code version ${s.builtVersion} built these rows, code is version ${s.codeVersion} (npm run projections:rebuild -- --store ${s.storeId} ${s.name})`
    : `code version ${s.codeVersion}`
  return `${s.name.padEnd(20)} ${String(s.rows).padStart(8)} rows from ${s.events} store events; ${built}; ${version}`
}

await runCli(async (s) => {
  if (name !== undefined && !projectionNames().includes(name)) {
    process.stderr.write(`unknown projection "${name}"\n${usage}\n`)
    return 2
  }
  const chosen = name ? [name] : projectionNames()
  if (storeId !== undefined) {
    if (!(await storeExists(s, storeId))) {
      process.stderr.write(`unknown store "${storeId}"\n`)
      return 2
    }
    if (command === 'rebuild') {
      for (const p of chosen) {
        const started = Date.now()
        const result = await rebuildStoreProjectionNamed(s, storeId, p)
        const seconds = (Date.now() - started) / 1000
        process.stderr.write(
          `${p}: ${storeId} rebuilt from ${result.events} events (${result.tail} applied after the build, under the store's locks), ${result.rows} rows, in ${seconds.toFixed(2)} s\n`,
        )
      }
      return 0
    }
    if (command === 'status') {
      for (const state of await storeProjectionStatus(s, storeId, chosen))
        process.stdout.write(`${describeStore(state)}\n`)
      return 0
    }
    process.stderr.write(`--store goes with rebuild or status\n${usage}\n`)
    return 2
  }
  if (command === 'rebuild') {
    // The head of the log when the rebuild starts: each projection's progress is counted against it.
    const total = (await projectionStatus(s, chosen))[0]?.head ?? 0
    for (const p of chosen) {
      const started = Date.now()
      const shown = progress(`${p}: rebuilding`, total)
      const result = await rebuildProjectionNamed(s, p, (n) => shown.tick(n))
      shown.finish()
      const seconds = (Date.now() - started) / 1000
      process.stderr.write(
        `${p}: rebuilt from ${result.events} events in ${seconds.toFixed(1)} s${result.resumed ? ' (resumed)' : ''}\n`,
      )
    }
    return 0
  }
  if (command === 'catch-up') {
    const behind = new Map((await projectionStatus(s, chosen)).map((state) => [state.name, state.behindEvents]))
    for (const p of chosen) {
      const shown = progress(`${p}: catching up`, behind.get(p) ?? 0)
      const result = await catchUpProjectionNamed(s, p, (n) => shown.tick(n))
      shown.finish()
      process.stderr.write(`${p}: ${result.applied} events applied\n`)
    }
    return 0
  }
  if (command === 'status') {
    for (const state of await projectionStatus(s, chosen)) process.stdout.write(`${describe(state)}\n`)
    return 0
  }
  process.stderr.write(`${usage}\n`)
  return 2
})
