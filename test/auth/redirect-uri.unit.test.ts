import t from 'tap'
import {
  MAX_REDIRECT_URIS,
  redirectUriMatches,
  validateRedirectUri,
  validateRedirectUris,
} from '../../src/auth/redirect-uri.ts'

const accepted = [
  'https://claude.ai/api/mcp/auth_callback',
  'https://claude.com/api/mcp/auth_callback',
  'https://chatgpt.com/connector_platform_oauth_redirect',
  'https://example.com/cb?x=1',
  'https://example.com:8443/cb',
  'https://localhost/cb',
  'https://203.0.113.5/cb',
  'http://127.0.0.1/callback',
  'http://127.0.0.1:8765/callback',
  'http://[::1]:5000/cb',
  'http://localhost:3000/oauth/callback',
  'http://localhost/',
  'com.example.app:/callback',
  'com.example.app:/oauth2redirect/example-provider',
  'io.cursor.desktop://auth/callback',
]

const refused: [string, RegExp][] = [
  ['', /empty/],
  ['/relative/path', /absolute/],
  ['example.com/cb', /absolute|scheme/],
  ['https://example.com/cb#frag', /fragment/],
  ['https://example.com/cb#', /fragment/],
  ['https://*.example.com/cb', /wildcard/],
  ['https://example.com/*', /wildcard/],
  ['http://example.com/cb', /loopback/],
  ['http://127.0.0.1.nip.io/cb', /loopback/],
  ['http://localhost.evil.com/cb', /loopback/],
  ['http://0x7f.1/cb', /plain form/],
  ['http://2130706433/cb', /plain form/],
  ['http://LOCALHOST/cb', /plain form/],
  ['http://127.0.0.1:80/cb', /plain form/],
  ['https://Example.com/cb', /plain form/],
  ['https://user:pw@example.com/cb', /user name/],
  ['https://evil.com@example.com/cb', /user name/],
  ['https://exa%6dple.com/cb', /plain form/],
  ['javascript:alert(1)', /scheme/],
  ['data:text/html,<script>', /scheme|spaces/],
  ['file:///etc/passwd', /scheme/],
  ['ftp://example.com/cb', /scheme/],
  ['myapp:/callback', /scheme/],
  ['com.example.app:', /path/],
  ['https://example.com/c b', /spaces/],
  ['https://example.com/cb\n', /spaces|control/],
  ['https://example.com/\u0000', /control/],
  ['https://example.com/\ud800', /well-formed/],
  [`https://example.com/${'a'.repeat(2001)}`, /longer/],
  ['https:///cb', /host|plain/],
  ['https:example.com', /https:\/\//],
]

t.test('accepted redirect URIs', async (t) => {
  for (const uri of accepted) t.same(validateRedirectUri(uri), { ok: true, uri }, uri)
})

t.test('refused redirect URIs each say why', async (t) => {
  for (const [uri, why] of refused) {
    const check = validateRedirectUri(uri)
    t.equal(check.ok, false, JSON.stringify(uri))
    if (!check.ok) t.match(check.message, why, JSON.stringify(uri))
  }
})

t.test('a list: duplicates and more than 10 are refused, every problem named', async (t) => {
  const eleven = Array.from({ length: MAX_REDIRECT_URIS + 1 }, (_, i) => `https://example.com/cb${i}`)
  const tooMany = validateRedirectUris(eleven)
  t.equal(tooMany.ok, false)
  if (!tooMany.ok) t.match(tooMany.problems[0]!.message, /at most 10/)
  t.same(validateRedirectUris(eleven.slice(0, 10)), { ok: true, uris: eleven.slice(0, 10) })
  const mixed = validateRedirectUris(['https://a.example/cb', 'http://b.example/cb', 'https://a.example/cb', 'x'])
  t.equal(mixed.ok, false)
  if (!mixed.ok)
    t.same(
      mixed.problems.map((p) => p.uri),
      ['http://b.example/cb', 'https://a.example/cb', 'x'],
    )
})

t.test('matching: exact, except the port of a registered http loopback URI', async (t) => {
  const yes: [string, string][] = [
    ['https://claude.ai/api/mcp/auth_callback', 'https://claude.ai/api/mcp/auth_callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:51234/callback'],
    ['http://127.0.0.1:8000/callback', 'http://127.0.0.1:9000/callback'],
    ['http://[::1]/cb', 'http://[::1]:4000/cb'],
    ['http://localhost/cb?x=1', 'http://localhost:4000/cb?x=1'],
    ['com.example.app:/callback', 'com.example.app:/callback'],
  ]
  const no: [string, string][] = [
    ['https://example.com/cb', 'https://example.com/cb/'],
    ['https://example.com/cb', 'https://example.com:443/cb'],
    ['https://example.com/cb', 'https://EXAMPLE.com/cb'],
    ['https://example.com/cb', 'https://example.com/cb?x=1'],
    ['https://example.com:8443/cb', 'https://example.com:9443/cb'],
    ['http://127.0.0.1/callback', 'http://localhost:5000/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:5000/callback/other'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:5000/callback#x'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:99999/callback'],
    ['http://127.0.0.1/callback', 'https://127.0.0.1:5000/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1@evil.com:5000/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:5000@evil.com/callback'],
    ['com.example.app:/callback', 'com.example.app:/callback2'],
  ]
  for (const [r, q] of yes) t.ok(redirectUriMatches(r, q), `${r} ~ ${q}`)
  for (const [r, q] of no) t.notOk(redirectUriMatches(r, q), `${r} !~ ${q}`)
})
