import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { builtOnce, bundleForBrowser } from '../web/browser-bundle.ts'

// The editor's front end (src/editor/client, Preact + SortableJS), bundled in memory on first
// use or when the server starts listening (src/web/browser-bundle.ts).
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
  const outputFiles = await bundleForBrowser(ENTRY, { importSource: 'preact' })
  const js = outputFiles.find((f) => f.path.endsWith('.js'))
  const css = outputFiles.find((f) => f.path.endsWith('.css'))
  if (!js || !css) throw new Error('the editor build produced no script or stylesheet')
  return {
    script: asset('editor', 'js', js.text),
    style: asset('editor', 'css', css.text),
    buildMs: Math.round(performance.now() - started),
  }
}

export const editorAssets: () => Promise<EditorAssets> = builtOnce(buildEditorAssets)

// `node src/editor/assets.ts`: build once and print the figures docs/decisions/0050-editor-front-end.md quotes.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildEditorAssets()
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`
  process.stdout.write(
    `editor build: ${built.buildMs} ms\n  ${built.script.name}: ${kb(built.script.body.length)} minified, ${kb(built.script.gzip.length)} gzip\n  ${built.style.name}: ${kb(built.style.body.length)} minified, ${kb(built.style.gzip.length)} gzip\n`,
  )
}
