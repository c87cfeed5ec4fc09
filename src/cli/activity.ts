import { parseArgs } from 'node:util'
import { listActivity } from '../queries/activity.ts'
import { runCli } from './open.ts'

// The merchant's developer-activity view, in a terminal: who did what to which theme, through which door.
const { values } = parseArgs({
  options: { store: { type: 'string' }, limit: { type: 'string', default: '50' }, theme: { type: 'string' } },
})

await runCli(async (s) => {
  if (!values.store) {
    process.stderr.write('Usage: npm run activity -- --store <storeId> [--theme <themeId>] [--limit 50]\n')
    return 2
  }
  const rows = await listActivity(
    s.db,
    values.store,
    { themeId: values.theme ?? null },
    { limit: Number(values.limit) },
  )
  for (const r of rows) {
    const door = r.tool ? `${r.channel}:${r.tool}` : r.channel
    const who = r.credential_id ? `${r.credential_kind} ${r.credential_id}` : r.credential_kind
    process.stdout.write(
      `${new Date(r.occurred_at).toISOString()}  ${r.outcome.padEnd(8)} ${r.action.padEnd(24)} ${door.padEnd(24)} ${who.padEnd(28)} ${r.theme_id ?? '-'}\n    ${r.summary}\n`,
    )
  }
  return 0
})
