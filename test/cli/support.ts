import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

export type CliResult = { code: number; stdout: string; stderr: string }
export type Cli = (script: string, args?: string[]) => Promise<CliResult>

const run = promisify(execFile)

// An operator command (src/cli/<script>.ts) in a process of its own, as `npm run <script>` runs it.
export function spawnedCli(env: Record<string, string>): Cli {
  return async (script, args = []) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [`src/cli/${script}.ts`, ...args], {
        env,
        maxBuffer: 64 * 1024 * 1024,
      })
      return { code: 0, stdout, stderr }
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string }
      return { code: e.code, stdout: e.stdout, stderr: e.stderr }
    }
  }
}

// The same command run in this process: the script module evaluated afresh with the arguments in
// process.argv and the variables in process.env, its output and exit code caught. Everything past
// the process start is the same code (runCli opens the services from the environment, runs, closes
// them, exits with the code); a process of its own costs seconds of CPU to load the service's
// modules, and on PGlite to compile the database, for each call. One call at a time.
let runs = 0
export function inProcessCli(env: Record<string, string>): Cli {
  return async (script, args = []) => {
    const saved = { argv: process.argv, env: { ...process.env }, exit: process.exit }
    const stdoutWrite = process.stdout.write
    const stderrWrite = process.stderr.write
    let stdout = ''
    let stderr = ''
    let code: number | undefined
    const catcher =
      (append: (text: string) => void) =>
      (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
        append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString())
        const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined
        done?.()
        return true
      }
    process.argv = [process.execPath, `src/cli/${script}.ts`, ...args]
    for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name]
    Object.assign(process.env, env)
    process.exit = ((c?: number) => {
      code ??= c ?? 0
    }) as typeof process.exit
    process.stdout.write = catcher((text) => (stdout += text)) as typeof process.stdout.write
    process.stderr.write = catcher((text) => (stderr += text)) as typeof process.stderr.write
    try {
      await import(`${new URL(`../../src/cli/${script}.ts`, import.meta.url).href}?run=${++runs}`)
    } catch (error) {
      // What node prints for an error thrown at the top level, and its exit code.
      stderr += `${error instanceof Error ? error.stack : String(error)}\n`
      code ??= 1
    } finally {
      process.stdout.write = stdoutWrite
      process.stderr.write = stderrWrite
      process.exit = saved.exit
      process.argv = saved.argv
      for (const name of Object.keys(process.env)) if (!(name in saved.env)) delete process.env[name]
      Object.assign(process.env, saved.env)
    }
    return { code: code ?? 0, stdout, stderr }
  }
}
