import { readdirSync } from 'node:fs'
import t from 'tap'
import { MIGRATION_FOLDER } from '../../src/db/migrate.ts'

// Migration names cannot collide: the first fifteen keep the names databases recorded; every
// later one starts with the UTC minute it was written, so two branches never pick the same name.
const LEGACY = [
  '0001-event-store',
  '0002-projections',
  '0003-commerce',
  '0004-access',
  '0005-event-store-epochs-and-append',
  '0006-merchants',
  '0006-projection-versions',
  '0007-oauth',
  '0008-read-models',
  '0009-event-store-append-projected',
  '0010-context-themes-from-themes',
  '0011-change-notifications',
  '0012-projection-write-functions',
  '0013-room-for-hot-updates',
  '0014-theme-documents-lz4',
  '0015-streams-kept-without-foreign-key',
]
const TIMESTAMPED = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})-[a-z0-9]+(?:-[a-z0-9]+)*$/

export function namingProblems(names: readonly string[]): string[] {
  const problems: string[] = []
  const prefixes = new Map<string, string>()
  for (const name of names) {
    if (LEGACY.includes(name)) continue
    const m = TIMESTAMPED.exec(name)
    if (!m) {
      problems.push(`${name}: a new migration is named YYYYMMDDHHMM-what-it-does (the UTC minute it was written)`)
      continue
    }
    const [, y, mo, d, h, mi] = m.map(Number) as number[]
    const when = Date.UTC(y!, mo! - 1, d!, h!, mi!)
    if (new Date(when).getUTCMonth() !== mo! - 1 || h! > 23 || mi! > 59 || when < Date.UTC(2026, 10, 26))
      problems.push(`${name}: ${name.slice(0, 12)} is not a UTC minute after the naming rule began`)
    const prefix = name.slice(0, 12)
    const other = prefixes.get(prefix)
    if (other) problems.push(`${name} and ${other} share the prefix ${prefix}: give one the next minute`)
    prefixes.set(prefix, name)
  }
  return problems
}

t.test('the migrations folder follows the naming rule', async (t) => {
  const files = readdirSync(MIGRATION_FOLDER)
  t.ok(
    files.every((f) => f.endsWith('.ts')),
    'only migrations (.ts) in the folder',
  )
  const names = files.map((f) => f.replace(/\.ts$/, ''))
  t.same(
    LEGACY.filter((n) => !names.includes(n)),
    [],
    'every recorded name is still there',
  )
  t.same(namingProblems(names), [])
})

t.test('the rule catches what parallel branches could do', async (t) => {
  t.same(namingProblems(['0016-orders']).length, 1, 'a sequence number, which two branches would both pick')
  t.same(namingProblems(['202611261200-orders', '202611261200-partitions']).length, 1, 'the same minute twice')
  t.same(namingProblems(['202613011200-orders']).length, 1, 'not a date')
  t.same(namingProblems(['202611261200-orders', '202611261201-partitions']), [], 'one minute apart')
  t.same(namingProblems(['202611261200_Orders']).length, 1, 'lowercase words joined by "-"')
})
