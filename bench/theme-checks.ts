// Theme checks (issue 36) on real PostgreSQL: all the rules over the demo stores' live themes,
// as the operations run them (src/checks/checker.ts: probe, catalogue facts, every template and
// page rendered, parsed and weighed, the rules). Target: p99 under 20 ms, so they can run on every
// edit. Cases, per demo store:
//   after an edit:   the home template changes every time (a new hero heading), so its page is
//                    rendered, parsed and weighed anew and the other pages come from the checker's
//                    caches; the findings of an unstored version are never kept (what a batch pays);
//   same document:   every page's HTML is unchanged (nothing parsed or weighed again);
//   first check:     a new checker each time (store view, catalogue reads, image decoding): what
//                    the first check of a store pays after a restart.
//
//   node_modules/.bin/node bench/theme-checks.ts [--iterations 500] [--cold 20]
//   BENCH_DATABASE_URL (or TEST_DATABASE_URL): the PostgreSQL server (a database is created and dropped)
import { createThemeChecker } from '../src/checks/checker.ts'
import { findTheme, listThemes } from '../src/queries/themes/theme-queries.ts'
import { DEMO_STORE_IDS } from '../src/seed/demo-catalog.ts'
import type { ThemeDocument } from '../src/theme/document.ts'
import { createBenchDatabase } from './support/database.ts'
import { fmt, headerWithLoad, numberArg, percentile, table, verdict } from './support/measure.ts'
import { seededServices } from './support/services.ts'

const ITERATIONS = numberArg('iterations', 500)
const COLD = numberArg('cold', 20)
const WARMUP = 50
const TARGET_MS = 20

await headerWithLoad('theme checks (bench/theme-checks.ts)', [
  `${ITERATIONS} iterations per case after ${WARMUP} warm-up, ${COLD} for the first check; target p99 < ${TARGET_MS} ms`,
])
const database = await createBenchDatabase('checks', { poolSize: 4 })
try {
  const { services } = await seededServices(database.db)
  const rows: Record<string, string | number>[] = []
  let met = true
  const measure = async (
    store: string,
    label: string,
    runs: number,
    warmup: number,
    fn: (i: number) => Promise<unknown>,
  ) => {
    for (let i = 0; i < warmup; i++) await fn(i)
    const times: number[] = []
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now()
      await fn(warmup + i)
      times.push(performance.now() - t0)
    }
    times.sort((a, b) => a - b)
    const p99 = percentile(times, 99)
    if (label !== 'first check') met &&= p99 < TARGET_MS
    rows.push({
      store,
      case: label,
      runs,
      'p50 ms': fmt(percentile(times, 50), 2),
      'p99 ms': fmt(p99, 2),
      'max ms': fmt(times.at(-1)!, 2),
    })
  }
  for (const storeId of DEMO_STORE_IDS) {
    const live = (await listThemes(services.read, storeId)).find((t) => t.status === 'active')!
    const doc = (await findTheme(services.read, storeId, live.themeId))!.document
    const edited = (i: number): ThemeDocument => ({
      ...doc,
      templates: {
        ...doc.templates,
        home: doc.templates.home.map((s) =>
          s.type === 'hero' ? ({ ...s, settings: { ...s.settings, heading: `Edit ${i}` } } as typeof s) : s,
        ),
      },
    })
    const checker = createThemeChecker(services)
    const found = await checker.findings(storeId, doc)
    console.log(
      `${storeId}: ${found.length} findings on the live theme (${found.filter((f) => f.severity === 'error').length} errors)`,
    )
    await measure(storeId, 'after an edit', ITERATIONS, WARMUP, (i) => checker.findings(storeId, edited(i)))
    await measure(storeId, 'same document', ITERATIONS, WARMUP, () => checker.findings(storeId, doc))
    await measure(storeId, 'first check', COLD, 2, () => createThemeChecker(services).findings(storeId, doc))
  }
  console.log()
  console.log(table(rows))
  console.log()
  console.log(`p99 < ${TARGET_MS} ms after an edit and for the same document: ${verdict(met)}`)
  await services.close()
} finally {
  await database.drop()
}
