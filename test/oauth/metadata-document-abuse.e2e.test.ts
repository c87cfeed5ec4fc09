import { performance } from 'node:perf_hooks'
import t from 'tap'
import { fetchMetadataDocument, isPublicAddress } from '../../src/oauth/metadata-document.ts'
import { testApp, type TestApp } from '../support/app.ts'
import { httpsServer } from './https-server.ts'
import { pkce } from './support.ts'

// A stranger names the URL the service fetches (client_id = https URL of a metadata document):
// the fetch has one deadline, failures are remembered, outbound fetches are capped per
// instance, and authorization requests that would fetch are limited per client address.

const { challenge } = pkce()
const authorize = (app: TestApp, clientId: string) =>
  app.app.inject({
    method: 'GET',
    url: `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: 'http://127.0.0.1:51000/callback', state: 'state-12345678', code_challenge: challenge, code_challenge_method: 'S256' })}`,
  })
const message = (html: string) => /<p>([^<]*)<\/p>/.exec(html)?.[1]

t.test('a document server that drips one byte at a time is cut off at the deadline', async (t) => {
  let closedEarly = false
  let bytesSent = 0
  const server = await httpsServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.flushHeaders()
    // 60 bytes, one a second: a minute if nobody hangs up.
    const drip = setInterval(() => {
      if (bytesSent === 60) {
        clearInterval(drip)
        return res.end()
      }
      res.write(bytesSent === 0 ? '{' : ' ')
      bytesSent++
    }, 1000)
    res.on('close', () => {
      clearInterval(drip)
      if (!res.writableEnded) closedEarly = true
    })
  })
  const app = await testApp(t, { env: { OAUTH_CIMD_ALLOW_HOSTS: 'localhost', OAUTH_CIMD_CA_FILE: server.caFile } })
  const started = performance.now()
  const res = await authorize(app, `https://localhost:${server.port}/drip.json`)
  const seconds = (performance.now() - started) / 1000
  t.equal(res.statusCode, 400, 'answered with the error page')
  t.match(message(res.body), /could not be fetched or is not acceptable/)
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.ok(closedEarly, 'the service hung up while the server was still dripping')
  t.ok(bytesSent < 60, `the server sent ${bytesSent} of 60 bytes`)
  t.comment(`the authorization page answered after ${seconds.toFixed(1)} s (${bytesSent} bytes dripped)`)
})

t.test('a storm of authorization requests: one fetch per failing URL, at most 4 at a time, one message', async (t) => {
  let active = 0
  let peak = 0
  const server = await httpsServer(t, (req, res) => {
    active++
    peak = Math.max(peak, active)
    // Each answer takes a moment, so concurrent fetches overlap at the server.
    setTimeout(() => {
      active--
      if (req.url?.startsWith('/html')) res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>')
      else if (req.url?.startsWith('/notjson')) res.writeHead(200, { 'content-type': 'application/json' }).end('{')
      else res.writeHead(404).end()
    }, 300)
  })
  const app = await testApp(t, {
    env: { OAUTH_CIMD_ALLOW_HOSTS: 'localhost,does-not-resolve.invalid', OAUTH_CIMD_CA_FILE: server.caFile },
  })
  const base = `https://localhost:${server.port}`

  // 30 parallel requests for 3 failing URLs: 3 fetches, not 30.
  const urls = [`${base}/missing.json`, `${base}/html.json`, `${base}/notjson.json`]
  const storm = await Promise.all(Array.from({ length: 30 }, (_, i) => authorize(app, urls[i % 3]!)))
  t.ok(
    storm.every((r) => r.statusCode === 400),
    'every request gets the error page',
  )
  t.equal(server.requests.length, 3, '30 requests for 3 URLs made 3 outbound fetches')
  // Asked again within 5 minutes: the failure is remembered, nothing is fetched.
  await authorize(app, urls[0]!)
  t.equal(server.requests.length, 3, 'a failure is remembered')

  // One message, whatever the reason (404, not JSON, wrong type, no such host).
  const unresolvable = await authorize(app, 'https://does-not-resolve.invalid/client.json')
  const messages = new Set([...storm, unresolvable].map((r) => message(r.body)))
  t.equal(messages.size, 1, 'the page says the same thing for every failure')
  t.notMatch([...messages][0], /404|resolve|JSON|fetched or is not acceptable: /, 'and names no reason')

  // Ten different slow URLs at once: never more than 4 outbound fetches in flight.
  peak = 0
  const ten = await Promise.all(Array.from({ length: 10 }, (_, i) => authorize(app, `${base}/slow-${i}.json`)))
  t.ok(
    ten.every((r) => r.statusCode === 400),
    'all ten answered',
  )
  t.ok(peak <= 4, `at most 4 fetches in flight (saw ${peak})`)
  t.ok(peak >= 2, 'fetches do run in parallel')
  t.comment(`outbound fetches: ${server.requests.length} for ${30 + 1 + 1 + 10} authorization requests; peak ${peak}`)
})

t.test('authorization requests that would fetch are limited to 20 a minute per client address', async (t) => {
  const server = await httpsServer(t, (_req, res) => res.writeHead(404).end())
  const app = await testApp(t, { env: { OAUTH_CIMD_ALLOW_HOSTS: 'localhost', OAUTH_CIMD_CA_FILE: server.caFile } })
  const base = `https://localhost:${server.port}`
  const statuses: number[] = []
  for (let i = 0; i < 22; i++) statuses.push((await authorize(app, `${base}/c-${i}.json`)).statusCode)
  t.same(statuses.slice(0, 20), Array(20).fill(400), 'the first 20 are fetched (and refused: 404)')
  const limited = await authorize(app, `${base}/c-99.json`)
  t.equal(limited.statusCode, 429, 'the 21st and later: 429')
  t.match(limited.headers['retry-after'], /^\d+$/)
  t.match(limited.headers['content-type'], /text\/html/)
  t.equal(server.requests.length, 20, 'no fetch past the limit')
  // What needs no fetch is not limited: a known failure, or a client registered here.
  const known = await authorize(app, `${base}/c-0.json`)
  t.equal(known.statusCode, 400, 'a remembered failure still answers its page')
})

t.test('the address filter refuses the special IPv6 forms', async (t) => {
  for (const a of [
    '::7f00:1',
    '::a9fe:a9fe',
    '::a00:1',
    '64:ff9b::7f00:1',
    '64:ff9b:1::1',
    '64:ff9b:1:ffff::a00:1',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::1',
    '2002:5db8:d822::1',
    '2001:0:4136:e378::1',
    'fec0::1',
    '::',
    '::1',
    '100::1',
    '2001:db8::1',
    '2001:2::1',
    'fe80::1',
    'fc00::1',
    'ff02::1',
    '5f00::1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '[::7f00:1]',
    '192.0.2.1',
    '198.18.0.1',
    '255.255.255.255',
  ])
    t.notOk(isPublicAddress(a), `${a} is refused`)
  for (const a of [
    '2606:2800:220:1:248:1893:25c8:1946',
    '2a00:1450:4001:800::200e',
    '::ffff:93.184.216.34',
    '93.184.216.34',
  ])
    t.ok(isPublicAddress(a), `${a} is public`)

  // And none of them is connected to: refused after the address check, before any connection.
  for (const host of ['[::7f00:1]', '[64:ff9b:1::1]', '[2002:7f00:1::1]', '[2002:a9fe:a9fe::1]', '[fec0::1]']) {
    const result = await fetchMetadataDocument(`https://${host}:9/client.json`, { metadataDocumentAllowHosts: [] })
    t.ok(!result.ok && /non-public address/.test(result.message), `${host}: refused as non-public`)
  }
})
