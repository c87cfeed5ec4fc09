import { parseArgs } from 'node:util'
import { exportEvents, themeAt } from '../operations/ops/audit.ts'
import { storeEventCount } from '../queries/event-log.ts'
import { runCli } from './open.ts'
import { progress } from './progress.ts'

const usage = `Usage:
  npm run audit -- export --store <storeId>            every event of a store, in commit order, as NDJSON
  npm run audit -- export --stream <streamId>          one stream (e.g. theme-thm_…) as NDJSON
  npm run audit -- theme-at --theme <themeId> --position <globalPosition>
  npm run audit -- theme-at --theme <themeId> --time <ISO time>`

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    store: { type: 'string' },
    stream: { type: 'string' },
    theme: { type: 'string' },
    position: { type: 'string' },
    time: { type: 'string' },
  },
})

await runCli(async (s) => {
  if (positionals[0] === 'export') {
    const total = values.stream ? null : await storeEventCount(s.db, values.store ?? '')
    const shown = progress('export', total)
    let done = 0
    const n = await exportEvents(
      s,
      { ...(values.store ? { storeId: values.store } : {}), ...(values.stream ? { streamId: values.stream } : {}) },
      (line) => {
        process.stdout.write(`${line}\n`)
        shown.tick(++done)
      },
    )
    shown.finish()
    process.stderr.write(`${n} events\n`)
    return 0
  }
  if (positionals[0] === 'theme-at' && values.theme && (values.position || values.time)) {
    const time = values.time ? new Date(values.time) : undefined
    if (time && Number.isNaN(time.getTime())) throw new Error(`not a time: ${values.time}`)
    const result = await themeAt(s, {
      themeId: values.theme,
      ...(values.position ? { position: Number(values.position) } : {}),
      ...(time ? { time } : {}),
    })
    if (!result) {
      process.stderr.write('no such theme at that point\n')
      return 1
    }
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    return 0
  }
  process.stderr.write(`${usage}\n`)
  return 2
})
