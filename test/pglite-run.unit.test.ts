import { readFileSync } from 'node:fs'
import t from 'tap'
import {
  allTestFiles,
  isBrowserFile,
  NOT_STORAGE,
  pgliteFiles,
  STORAGE_FILES,
  STORAGE_FOLDERS,
} from './support/pglite-run.ts'

// The PGlite run takes the files that exercise storage (decision 0071): a new file of that kind
// cannot be left out by mistake, and the lists name files that exist.
const all = allTestFiles()
const run = new Set(pgliteFiles(all))

t.test('every *.int file runs on PGlite', async (t) => {
  const ints = all.filter((f) => f.endsWith('.int.test.ts'))
  t.ok(ints.length > 30)
  t.same(
    ints.filter((f) => !run.has(f)),
    [],
  )
})

t.test('every e2e file of the REST, MCP and OAuth contract runs on PGlite, or says why not', async (t) => {
  const contract = all.filter((f) => f.endsWith('.e2e.test.ts') && STORAGE_FOLDERS.some((d) => f.startsWith(d)))
  t.ok(contract.length > 40)
  t.same(
    contract.filter((f) => !run.has(f) && !isBrowserFile(f) && !(f in NOT_STORAGE)),
    [],
  )
  for (const file of STORAGE_FILES) t.ok(run.has(file), `${file} runs on PGlite`)
  for (const [file, reason] of Object.entries(NOT_STORAGE)) t.ok(reason.length > 0 && !run.has(file), file)
})

t.test('unit and browser files run once, on PostgreSQL', async (t) => {
  t.same(
    [...run].filter((f) => f.endsWith('.unit.test.ts') || isBrowserFile(f)),
    [],
  )
})

t.test('the lists name test files that exist', async (t) => {
  for (const file of [...STORAGE_FILES, ...Object.keys(NOT_STORAGE)]) t.ok(all.includes(file), file)
  for (const dir of STORAGE_FOLDERS)
    t.ok(
      all.some((f) => f.startsWith(dir)),
      dir,
    )
})

t.test('npm run test:pglite runs this selection', async (t) => {
  const scripts = (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>
    }
  ).scripts
  // The selection first, and only if it succeeded: tap given no file would run them all.
  t.match(
    scripts['test:pglite'],
    /^files=\$\(node test\/support\/pglite-run\.ts\) && .*TEST_DATABASE=pglite tap .*\$files$/,
  )
})
