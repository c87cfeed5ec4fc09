import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

// The editor's front end (src/editor/client, Preact + SortableJS) bundled by esbuild in
// memory, once per process, on first use or when the server starts listening. Nothing is
// written to disk, so there is no build output to go stale and `npm start` needs no extra step.
export type EditorAsset = { name: string; type: string; body: Buffer; gzip: Buffer }
export type EditorAssets = { script: EditorAsset; style: EditorAsset; buildMs: number }

const ENTRY = fileURLToPath(new URL('./client/main.tsx', import.meta.url))

function asset(base: string, ext: 'js' | 'css', text: string): EditorAsset {
  const body = Buffer.from(text, 'utf8')
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12)
  return {
    name: `${base}-${hash}.${ext}`,
    type: ext === 'js' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
    body,
    gzip: gzipSync(body, { level: 9 }),
  }
}

export async function buildEditorAssets(): Promise<EditorAssets> {
  const started = performance.now()
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    write: false,
    outdir: 'out',
    legalComments: 'none',
    logLevel: 'silent',
  })
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'))
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'))
  if (!js || !css) throw new Error('the editor build produced no script or stylesheet')
  return {
    script: asset('editor', 'js', js.text),
    style: asset('editor', 'css', css.text),
    buildMs: Math.round(performance.now() - started),
  }
}

let pending: Promise<EditorAssets> | null = null

export function editorAssets(): Promise<EditorAssets> {
  pending ??= buildEditorAssets().catch((error: unknown) => {
    pending = null
    throw error
  })
  return pending
}

// `node src/editor/assets.ts`: build once and print the figures docs/decisions/0050-editor-front-end.md quotes.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildEditorAssets()
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`
  process.stdout.write(
    `editor build: ${built.buildMs} ms\n  ${built.script.name}: ${kb(built.script.body.length)} minified, ${kb(built.script.gzip.length)} gzip\n  ${built.style.name}: ${kb(built.style.body.length)} minified, ${kb(built.style.gzip.length)} gzip\n`,
  )
}
