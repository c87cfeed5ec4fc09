import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, type AddressInfo } from 'node:net'
import { request as httpRequest } from 'node:http'
import { SERVICE_ARGV } from '../../src/service-node-flags.ts'

// `npm start` as a newcomer runs it: embedded database, first-start seed, printed keys; then
// SIGTERM with a request in flight.
t.test('first start seeds and prints where to look; SIGTERM drains in-flight requests and exits 0', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfts-start-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // A free port of our own: BASE_URL is derived from PORT, so port 0 would print a useless address.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
  const env = {
    ...process.env,
    DATA_DIR: dir,
    PORT: String(port),
    LOG_LEVEL: 'silent',
    NODE_ENV: 'development',
  } as Record<string, string>
  delete env.DATABASE_URL
  delete env.SIGNING_SECRET
  const child = spawn(process.execPath, SERVICE_ARGV, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  // A bound for a start that never ends, not a speed limit: a first start initialises PGlite,
  // migrates and seeds, which took more than the 60 s this once was on a loaded machine.
  const deadline = Date.now() + 240_000
  while (!/Demo API keys/.test(out) || !/\n\n/.test(out.split('Demo API keys')[1] ?? '')) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  const base = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!
  t.match(out, /node v24\./, 'runs on Node 24')
  t.match(out, /Storefront\s+http:\/\/127\.0\.0\.1:\d+\/s\/atlas/)
  t.match(out, /embedded PGlite/)
  const key = /all scopes, can publish\s+(sk_live_\w+)/.exec(out)![1]!

  // In flight for sure: the server has the request's headers and waits for its body when the
  // signal comes (a request that had not reached the server yet would rightly get 503).
  const body = JSON.stringify({ name: 'Sent across the shutdown', provider: 'test' })
  const request = httpRequest(`${base}/api/v1/themes`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    },
  })
  const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
    request.on('response', (res) => {
      let text = ''
      res.on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    request.on('error', reject)
  })
  request.flushHeaders()
  await new Promise((r) => setTimeout(r, 300))
  child.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 100))
  request.end(body)
  const response = await inFlight
  t.equal(response.status, 201, 'the request in flight completed')
  t.equal((JSON.parse(response.text) as { data: { name: string } }).data.name, 'Sent across the shutdown')
  t.equal(await exited, 0, 'exited cleanly')
})
