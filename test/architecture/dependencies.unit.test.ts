import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import t from 'tap'

// The import graph between the folders of src, read from the sources: adapters never import
// each other, the application core never imports an adapter, and folders form no cycle.
const SRC = resolve(dirname(new URL(import.meta.url).pathname), '../../src')
const ADAPTERS = ['http', 'mcp', 'dashboard', 'oauth', 'editor', 'storefront']
// Below every adapter: the application, the storefront renderer and its page cache (src/render:
// the storefront pages and the dashboard's merchant previews both serve through it), and the
// plumbing HTTP adapters share (src/web).
const CORE = [
  'theme',
  'aggregates',
  'events',
  'commands',
  'projections',
  'queries',
  'operations',
  'auth',
  'db',
  'errors.ts',
  'web',
  'metrics',
  'render',
  'preview',
  'notifications',
  'checks',
  'images',
]

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

// The first segment under src: a folder, or a file that stands at the top (services.ts).
const unit = (file: string) => relative(SRC, file).split('/')[0]!

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g

export type Edge = { from: string; to: string; file: string; target: string }

export function edges(): Edge[] {
  const out: Edge[] = []
  for (const file of files(SRC)) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3]!
      const target = resolve(dirname(file), spec)
      if (!target.startsWith(`${SRC}/`)) continue
      const from = unit(file)
      const to = unit(target)
      if (from !== to) out.push({ from, to, file: relative(SRC, file), target: relative(SRC, target) })
    }
  }
  return out
}

const all = edges()
const show = (list: Edge[]) => list.map((e) => `${e.file} -> ${e.target}`)

t.test('adapters never import each other', async (t) => {
  t.same(show(all.filter((e) => ADAPTERS.includes(e.from) && ADAPTERS.includes(e.to))), [])
})

t.test('the application core never imports an adapter', async (t) => {
  t.same(show(all.filter((e) => CORE.includes(e.from) && ADAPTERS.includes(e.to))), [])
})

t.test('no import cycle between folders', async (t) => {
  const graph = new Map<string, Set<string>>()
  for (const e of all) (graph.get(e.from) ?? graph.set(e.from, new Set()).get(e.from)!).add(e.to)
  // Tarjan's strongly connected components: any component of more than one folder is a cycle.
  let index = 0
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (v: string) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) cycles.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!idx.has(v)) visit(v)
  const inside = (c: string[]) => show(all.filter((e) => c.includes(e.from) && c.includes(e.to)))
  t.same(
    cycles.map((c) => ({ folders: c, imports: inside(c) })),
    [],
  )
})

// Adapters hold no SQL and reach the application through operations and queries only (issue 32 B):
// no import of the command side, the database or the projections, type-only imports included. The
// storefront renderer and the CLI count as adapters here; the composition roots (src/main.ts,
// src/services.ts, src/plugins.ts) wire the layers together and are no adapter's.
const BELOW_OPERATIONS = ['commands', 'db', 'projections']
const WITHOUT_SQL = ['http', 'mcp', 'dashboard', 'oauth', 'editor', 'render', 'storefront', 'cli']

t.test('no adapter imports src/commands, src/db or src/projections', async (t) => {
  t.same(show(all.filter((e) => WITHOUT_SQL.includes(e.from) && BELOW_OPERATIONS.includes(e.to))), [])
})

t.test('no adapter holds SQL', async (t) => {
  const SQL = /\.(?:selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql(?:<[^`]*?>)?`|\bsql\.(?:raw|ref|join|lit)\(/
  const found = files(SRC)
    .filter((file) => WITHOUT_SQL.includes(unit(file)))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (SQL.test(line) ? [`${relative(SRC, file)}:${i + 1}`] : [])),
    )
  t.same(found, [])
})

// Aggregates are pure decisions over the theme model.
const AGGREGATES_MAY_IMPORT = ['theme', 'errors.ts']

t.test('src/aggregates imports only src/theme and src/errors.ts', async (t) => {
  t.same(show(all.filter((e) => e.from === 'aggregates' && !AGGREGATES_MAY_IMPORT.includes(e.to))), [])
})

// Which database a read uses is decided in one place (src/db/replica-routing.ts, asked through
// services.readFor / services.forReads): only the composition roots open or route to replicas,
// and no adapter or query picks a pool of its own.
t.test('only the composition roots import the replica pools and their routing', async (t) => {
  const ROOTS = ['main.ts', 'services.ts']
  const REPLICA_FILES = ['db/replicas.ts', 'db/replica-routing.ts']
  t.same(show(all.filter((e) => REPLICA_FILES.includes(e.target) && !ROOTS.includes(e.from) && e.from !== 'db')), [])
})
