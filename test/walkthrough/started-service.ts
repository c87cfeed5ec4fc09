import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../oauth/live.ts'
import { SERVICE_ARGV } from '../../src/service-node-flags.ts'

type T = { teardown: (fn: () => unknown) => void }

export type Banner = {
  url: string
  storefronts: { url: string; name: string; storeId: string }[]
  merchants: { store: string; email: string; password: string }[]
  keys: { store: string; name: string; key: string }[]
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

// The service as `npm start` runs it (node SERVICE_ARGV from the project root) on a first start:
// embedded PGlite in an empty data directory, no DATABASE_URL, no Redis. Resolves with what the
// start banner told the merchant; the process is stopped (SIGTERM) and its data removed at teardown.
// timeoutMs bounds a start that never ends; it is no speed limit (a first start seeds, and on a
// loaded machine that took minutes).
export async function startService(t: T, timeoutMs = 240_000): Promise<Banner & { output: () => string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'walkthrough-'))
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  }
  const child = spawn(process.execPath, SERVICE_ARGV, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  t.teardown(async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  })
  // The banner is one write that ends with the demo API keys and an empty line.
  const banner = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start banner within ${timeoutMs} ms:\n${out}`)), timeoutMs)
    const check = () => {
      const m = /\nStorefront theme service on [\s\S]*?\nDemo API keys[^\n]*\n(?: {2}[^\n]+\n)+\n/.exec(out)
      if (m) {
        clearTimeout(timer)
        child.stdout.off('data', check)
        resolve(m[0])
      }
    }
    child.stdout.on('data', check)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the service exited (${code}) before its banner:\n${out}`))
    })
  })
  return { ...parseBanner(banner), output: () => out }
}

export function parseBanner(text: string): Banner {
  const url = /Storefront theme service on (\S+)/.exec(text)?.[1]
  if (!url) throw new Error(`no address in the banner:\n${text}`)
  const storefronts = [...text.matchAll(/^ {2}Storefront\s+(\S+)\s+\((.+), (st_\w+)\)$/gm)].map((m) => ({
    url: m[1]!,
    name: m[2]!,
    storeId: m[3]!,
  }))
  const section = (heading: string) => (text.split(`\n${heading}`)[1] ?? '').split('\n\n')[0]!.split('\n').slice(1)
  // "  Atlas Outfitters   owner@atlas-outfitters.example     LkTtyo-y4825a-X7Fg72-NEPvf6"
  const merchants = section('Demo merchant sign-ins')
    .map((line) => /^ {2}(.+?)\s{2,}(\S+@\S+)\s+(\S+)$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ store: m[1]!, email: m[2]!, password: m[3]! }))
  // "  Atlas Outfitters   all scopes, can publish    sk_live_…"
  const keys = section('Demo API keys')
    .map((line) => /^ {2}(.+?)\s{2,}(.+?)\s{2,}(sk_\w+)$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ store: m[1]!, name: m[2]!, key: m[3]! }))
  return { url, storefronts, merchants, keys }
}
