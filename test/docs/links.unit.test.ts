import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, extname, join, relative, resolve } from 'node:path'
import t from 'tap'

// Every relative link of every Markdown file resolves to a file (and, for a link into Markdown, to
// one of its headings), and every repository path a document or a code comment names exists: a
// moved or deleted file shows up here instead of in a newcomer's reading.
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..')
const IGNORED = new Set(['node_modules', '.git', '.data', '.tap', 'coverage', 'test-artifacts'])
// bench/results/ records runs of the code as it was then: its links are checked, the file names
// it mentions are history and are not.
const HISTORY = 'bench/results/'

function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (IGNORED.has(e.name)) return []
    const path = join(dir, e.name)
    return e.isDirectory() ? walk(path, keep) : keep(e.name) ? [path] : []
  })
}

const rel = (path: string) => relative(ROOT, path)
const markdownFiles = [
  ...readdirSync(ROOT)
    .filter((n) => n.endsWith('.md'))
    .map((n) => join(ROOT, n)),
  ...['docs', 'bench', 'infra', 'src', 'test'].flatMap((d) => walk(join(ROOT, d), (n) => n.endsWith('.md'))),
]
const codeFiles = ['src', 'test', 'bench'].flatMap((d) => walk(join(ROOT, d), (n) => /\.(ts|tsx|js|mjs)$/.test(n)))

const FENCE = /^\s*(```|~~~)/

// Markdown text outside fenced code blocks and inline code spans, lines kept in place.
export function prose(markdown: string): string {
  let inFence = false
  return markdown
    .split('\n')
    .map((line) => {
      if (FENCE.test(line)) {
        inFence = !inFence
        return ''
      }
      return inFence ? '' : line.replace(/(`+)[^`]*?\1/g, '')
    })
    .join('\n')
}

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered.
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  let inFence = false
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence
    const m = inFence ? null : /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!m) continue
    const text = m[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '')
    const slug = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    out.add(n === 0 ? slug : `${slug}-${n}`)
  }
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]!)
  return out
}

// The targets of inline links, images, reference definitions and HTML src and href attributes.
export function linkTargets(markdown: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = []
  prose(markdown)
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
        out.push({ target: m[1]!, line: i + 1 })
      for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)) out.push({ target: m[1]!, line: i + 1 })
      for (const m of text.matchAll(/\s(?:src|href)="([^"]+)"/g)) out.push({ target: m[1]!, line: i + 1 })
    })
  return out
}

// Repository paths named in text: src/…, test/…, bench/…, docs/…, infra/…, with an optional #anchor.
// A path is cut at the first character that cannot be in one, so `src/aggregates/<name>/` names
// the folder; trailing sentence punctuation is not part of it.
const NAMED_PATH = /(?<![\w./@:~$-])((?:src|test|bench|docs|infra)\/[\w./-]*)(#[\w-]+)?/g

export function namedPaths(text: string): { path: string; anchor?: string; index: number }[] {
  return [...text.matchAll(NAMED_PATH)].map((m) => ({
    path: m[1]!.replace(/[.]+$/, ''),
    ...(m[2] ? { anchor: m[2].slice(1) } : {}),
    index: m.index,
  }))
}

// A bare source file name (`stream-cache.ts`) names a file that exists somewhere in the repository.
const FILE_NAME = /(?<![\w./@:~$-])([\w-]+(?:\.[\w-]+)*\.tsx?)(?![\w/])/g
const sourceNames = new Set(
  ['src', 'test', 'bench'].flatMap((d) => walk(join(ROOT, d), () => true)).map((f) => f.slice(f.lastIndexOf('/') + 1)),
)

export function missingFileNames(text: string): { name: string; index: number }[] {
  return [...text.matchAll(FILE_NAME)]
    .filter((m) => !sourceNames.has(m[1]!))
    .map((m) => ({ name: m[1]!, index: m.index }))
}

const REGEX_BEFORE = new Set([...'(,=:[!&|?{};+-*%<>~^'])
const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'case', 'in', 'of', 'else', 'void', 'yield', 'await', 'delete'])

// The comments of a TypeScript or JavaScript source, with the line each starts on. Strings,
// template literals (nested too) and regular expression literals are skipped, so `'//'` or
// /https?:\/\// is not taken for a comment.
export function comments(source: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = []
  const templates: number[] = []
  let depth = 0
  let line = 1
  let prev = ''
  let word = ''
  let i = 0
  const skipTemplate = () => {
    while (i < source.length) {
      const c = source[i]!
      if (c === '\\') i += 2
      else if (c === '`') {
        i++
        return
      } else if (c === '$' && source[i + 1] === '{') {
        templates.push(depth++)
        i += 2
        return
      } else {
        if (c === '\n') line++
        i++
      }
    }
  }
  while (i < source.length) {
    const c = source[i]!
    const next = source[i + 1]
    if (c === '\n') {
      line++
      i++
    } else if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i)
      const stop = end === -1 ? source.length : end
      out.push({ text: source.slice(i + 2, stop), line })
      i = stop
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2)
      const stop = end === -1 ? source.length : end
      const text = source.slice(i + 2, stop)
      out.push({ text, line })
      line += text.split('\n').length - 1
      i = stop + 2
    } else if (c === '"' || c === "'") {
      i++
      while (i < source.length && source[i] !== c && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1
      i++
      prev = c
      word = ''
    } else if (c === '`') {
      i++
      skipTemplate()
      prev = '`'
      word = ''
    } else if (c === '}' && templates.length > 0 && templates[templates.length - 1] === depth - 1) {
      templates.pop()
      depth--
      i++
      skipTemplate()
      prev = '`'
      word = ''
    } else if (c === '/' && (prev === '' || REGEX_BEFORE.has(prev) || REGEX_AFTER_WORD.has(word))) {
      i++
      let inClass = false
      while (i < source.length && source[i] !== '\n') {
        const d = source[i]!
        if (d === '\\') i++
        else if (d === '[') inClass = true
        else if (d === ']') inClass = false
        else if (d === '/' && !inClass) break
        i++
      }
      i++
      prev = '/'
      word = ''
    } else {
      if (c === '{') depth++
      else if (c === '}') depth--
      if (!/\s/.test(c)) {
        word = /[\w$]/.test(c) ? (/[\w$]/.test(prev) ? word : '') + c : ''
        prev = c
      }
      i++
    }
  }
  return out
}

const headingCache = new Map<string, Set<string>>()
const headingsOf = (file: string) => {
  let set = headingCache.get(file)
  if (!set) headingCache.set(file, (set = anchors(readFileSync(file, 'utf8'))))
  return set
}

// Why a target does not resolve, or undefined when it does.
function unresolved(file: string, path: string, anchor: string | undefined): string | undefined {
  if (!existsSync(file)) return `${path} does not exist`
  if (anchor && statSync(file).isFile() && extname(file) === '.md' && !headingsOf(file).has(anchor.toLowerCase()))
    return `${path} has no heading #${anchor}`
  return undefined
}

export function brokenLinks(files = markdownFiles): string[] {
  const broken: string[] = []
  for (const file of files) {
    const markdown = readFileSync(file, 'utf8')
    for (const { target, line } of linkTargets(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue
      const [rawPath = '', anchor] = target.split('#', 2)
      const path = decodeURIComponent(rawPath)
      const resolved = path === '' ? file : path.startsWith('/') ? join(ROOT, path) : resolve(dirname(file), path)
      const why = unresolved(resolved, path || rel(file), anchor)
      if (why) broken.push(`${rel(file)}:${line}: (${target}): ${why}`)
    }
  }
  return broken
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length

export function missingPathsInDocs(files = markdownFiles): string[] {
  const missing: string[] = []
  for (const file of files) {
    if (rel(file).startsWith(HISTORY)) continue
    const markdown = readFileSync(file, 'utf8')
    for (const { path, anchor, index } of namedPaths(markdown)) {
      const why = unresolved(join(ROOT, path), path, anchor)
      if (why) missing.push(`${rel(file)}:${lineAt(markdown, index)}: ${why}`)
    }
    for (const { name, index } of missingFileNames(markdown))
      missing.push(`${rel(file)}:${lineAt(markdown, index)}: no file is named ${name}`)
  }
  return missing
}

export function missingPathsInComments(files = codeFiles): string[] {
  const missing: string[] = []
  for (const file of files) {
    for (const comment of comments(readFileSync(file, 'utf8'))) {
      for (const { path, anchor, index } of namedPaths(comment.text)) {
        const why = unresolved(join(ROOT, path), path, anchor)
        if (why) missing.push(`${rel(file)}:${comment.line + lineAt(comment.text, index) - 1}: ${why}`)
      }
      for (const { name, index } of missingFileNames(comment.text))
        missing.push(`${rel(file)}:${comment.line + lineAt(comment.text, index) - 1}: no file is named ${name}`)
    }
  }
  return missing
}

t.test('the scanners read what they should', async (t) => {
  t.same(
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the input is source text holding a template literal
    comments("const a = '// no' + `x ${b /* c1 */} // no` // c2\nconst r = /a\\/\\/b/ // c3\nx = 4 / 2 // c4").map(
      (c) => [c.text.trim(), c.line],
    ),
    [
      ['c1', 1],
      ['c2', 1],
      ['c3', 2],
      ['c4', 3],
    ],
  )
  t.same(
    namedPaths('see src/errors.ts. And `src/aggregates/<name>/decider.ts`, docs/scaling.md#caches, a/src/x').map(
      (p) => [p.path, p.anchor],
    ),
    [
      ['src/errors.ts', undefined],
      ['src/aggregates/', undefined],
      ['docs/scaling.md', 'caches'],
    ],
  )
  t.same(
    [...anchors('# Backup and restore\n## Epochs: commit order\n```\n# not a heading\n```\n## Backup and restore')],
    ['backup-and-restore', 'epochs-commit-order', 'backup-and-restore-1'],
  )
  t.same(
    linkTargets('[a](docs/a.md#x) `[b](no.md)` ![c](img.png "t")\n```\n[d](no.md)\n```\n[e]: ./e.md').map(
      (l) => l.target,
    ),
    ['docs/a.md#x', 'img.png', './e.md'],
  )
})

t.test('every relative link in the Markdown files resolves', async (t) => {
  t.ok(markdownFiles.length > 10, `found ${markdownFiles.length} Markdown files`)
  t.same(brokenLinks(), [])
})

t.test('every repository path the Markdown files name exists', async (t) => {
  t.same(missingPathsInDocs(), [])
})

t.test('every repository path a code comment names exists', async (t) => {
  t.ok(codeFiles.length > 100, `found ${codeFiles.length} source files`)
  t.same(missingPathsInComments(), [])
})
