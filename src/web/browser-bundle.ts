import { build, type OutputFile } from 'esbuild'

// The browser code the service ships (the editor's front end, the MCP App's review view) is
// bundled by esbuild in memory, once per process, on first use: nothing is written to disk, so
// there is no build output to go stale and `npm start` needs no extra step.

// One entry point, minified for the browsers the pages support; the output files (script, and
// a stylesheet when the entry imports CSS) come back in memory.
export async function bundleForBrowser(entry: string, jsx?: { importSource: string }): Promise<OutputFile[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    ...(jsx ? { jsx: 'automatic' as const, jsxImportSource: jsx.importSource } : {}),
    write: false,
    outdir: 'out',
    legalComments: 'none',
    logLevel: 'silent',
  })
  return result.outputFiles
}

// Build on first call and hand every later caller the same promise; a failed build is
// forgotten, so the next request tries again instead of failing for the life of the process.
export function builtOnce<T>(buildIt: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null
  return () => {
    pending ??= buildIt().catch((error: unknown) => {
      pending = null
      throw error
    })
    return pending
  }
}
