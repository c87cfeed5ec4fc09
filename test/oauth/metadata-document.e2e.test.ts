import t from 'tap'
import { validateRedirectUri } from '../../src/auth/redirect-uri.ts'
import { fetchMetadataDocument, isMetadataDocumentUrl, isPublicAddress } from '../../src/oauth/metadata-document.ts'
import { testApp } from '../support/app.ts'
import { httpsServer } from './https-server.ts'
import { pkce } from './support.ts'

t.test('a client_id that is an https URL is fetched, checked and cached; private addresses are refused', async (t) => {
  let documents: Record<string, { body: string; type?: string; cache?: string }> = {}
  const server = await httpsServer(t, (req, res) => {
    const doc = documents[req.url ?? '']
    if (!doc) return res.writeHead(404).end()
    res
      .writeHead(200, {
        'content-type': doc.type ?? 'application/json',
        ...(doc.cache ? { 'cache-control': doc.cache } : {}),
      })
      .end(doc.body)
  })
  const base = `https://localhost:${server.port}`
  const app = await testApp(t, { env: { OAUTH_CIMD_ALLOW_HOSTS: 'localhost', OAUTH_CIMD_CA_FILE: server.caFile } })
  const doc = (id: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      client_id: id,
      client_name: 'Metadata agent',
      redirect_uris: ['http://127.0.0.1:33418/callback'],
      token_endpoint_auth_method: 'none',
      ...extra,
    })
  documents = {
    '/good.json': { body: doc(`${base}/good.json`), cache: 'max-age=600' },
    '/mismatch.json': { body: doc(`${base}/other.json`) },
    '/html.json': { body: doc(`${base}/html.json`), type: 'text/html' },
    '/huge.json': { body: doc(`${base}/huge.json`, { padding: 'x'.repeat(6000) }) },
    '/secret.json': { body: doc(`${base}/secret.json`, { token_endpoint_auth_method: 'client_secret_basic' }) },
    '/badredirect.json': { body: doc(`${base}/badredirect.json`, { redirect_uris: ['javascript:alert(1)'] }) },
  }
  const { challenge } = pkce()
  const authorize = (clientId: string) =>
    app.app.inject({
      method: 'GET',
      url: `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: 'http://127.0.0.1:51000/callback', state: 'state-12345678', code_challenge: challenge, code_challenge_method: 'S256' })}`,
    })

  const good = await authorize(`${base}/good.json`)
  t.equal(good.statusCode, 303, 'the document is accepted: on to sign-in (the loopback port is free)')
  const row = await app.services.db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('client_id', '=', `${base}/good.json`)
    .executeTakeFirstOrThrow()
  t.equal(row.kind, 'metadata_document')
  t.equal(row.client_name, 'Metadata agent')
  const ttl = (new Date(row.fresh_until!).getTime() - new Date(row.fetched_at!).getTime()) / 1000
  t.equal(ttl, 600, 'cached for its max-age')
  const fetches = server.requests.length
  await authorize(`${base}/good.json`)
  t.equal(server.requests.length, fetches, 'served from the cache the second time')

  let refused = 0
  for (const [path, why] of [
    ['/mismatch.json', 'differs from its URL'],
    ['/html.json', 'not served as application/json'],
    ['/huge.json', 'larger than'],
    ['/secret.json', 'invalid'],
    ['/badredirect.json', 'redirect URI'],
    ['/missing.json', 'HTTP 404'],
  ] as const) {
    const res = await authorize(`${base}${path}`)
    t.equal(res.statusCode, 400, `${path}: refused with a page`)
    t.notOk(res.headers.location, `${path}: never redirected`)
    t.match(res.body, /could not be fetched or is not acceptable/, `${path}: one message for every reason`)
    t.notOk(res.body.includes(why), `${path}: the reason is not told to the browser`)
    // The reason, as the log gets it.
    const direct = await fetchMetadataDocument(
      `${base}${path}`,
      {
        metadataDocumentAllowHosts: ['localhost'],
        metadataDocumentCaFile: server.caFile,
      },
      (uri) => validateRedirectUri(uri).ok,
    )
    t.ok(!direct.ok && direct.message.includes(why), `${path}: ${why}`)
    refused++
  }

  // The same server by IP address is not on the allow-list: refused before any connection.
  const before = server.requests.length
  const privateAddress = await authorize(`https://127.0.0.1:${server.port}/good.json`)
  t.equal(privateAddress.statusCode, 400)
  t.match(privateAddress.body, /could not be fetched or is not acceptable/)
  t.equal(server.requests.length, before, 'no request reached the private address')
  refused++
  const clients = await app.services.db.selectFrom('oauth_clients').select('client_id').execute()
  t.same(
    clients.map((c) => c.client_id),
    [`${base}/good.json`],
    'only the good document was kept',
  )
  t.comment(`metadata documents refused: ${refused}`)
})

t.test('the SSRF guard and the URL rules', async (t) => {
  for (const a of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '224.0.0.1',
  ])
    t.notOk(isPublicAddress(a), `${a} is not public`)
  for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])
    t.ok(isPublicAddress(a), `${a} is public`)
  for (const u of [
    'http://example.com/client.json',
    'https://example.com',
    'https://example.com/',
    'https://user@example.com/c.json',
    'https://example.com/c.json#x',
    'https://example.com/a/../c.json',
    'notaurl',
  ])
    t.notOk(isMetadataDocumentUrl(u), `${u} is not a metadata document URL`)
  t.ok(isMetadataDocumentUrl('https://example.com/oauth/client.json'))
})
