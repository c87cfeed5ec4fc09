// OAuth redirect URIs (contract-decisions.md, "OAuth"; RFC 8252 for native apps).
// Registered: https with any host; http on loopback only (127.0.0.1, [::1], localhost);
// private-use schemes in reverse-domain form (com.example.app:/callback). No fragment, no
// wildcard, no user information, no control characters or spaces, at most 10 per app.
// Matching is exact string comparison, except that the port of a registered http loopback URI
// is ignored (RFC 8252 §7.3: native apps listen on an ephemeral port).
// Pure: no I/O, so the dashboard, the OAuth endpoints and registration share it.

export const MAX_REDIRECT_URIS = 10
export const MAX_REDIRECT_URI_LENGTH = 2000

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost'])
// scheme "://" authority rest, taken from the raw text (the URL parser would normalise it).
const HIERARCHICAL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s
// A private-use scheme is a domain name the app controls, reversed: at least two labels.
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9-]*(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\u2028\u2029\s]/

export type RedirectUriCheck = { ok: true; uri: string } | { ok: false; message: string }

export function validateRedirectUri(uri: string): RedirectUriCheck {
  if (typeof uri !== 'string' || uri === '') return { ok: false, message: 'the redirect URI is empty' }
  if (uri.length > MAX_REDIRECT_URI_LENGTH)
    return { ok: false, message: `the redirect URI is longer than ${MAX_REDIRECT_URI_LENGTH} characters` }
  if (FORBIDDEN_CHARACTERS.test(uri))
    return { ok: false, message: 'the redirect URI contains spaces or control characters' }
  if (!uri.isWellFormed()) return { ok: false, message: 'the redirect URI is not well-formed Unicode' }
  if (uri.includes('#')) return { ok: false, message: 'a redirect URI may not contain a fragment (#)' }
  if (uri.includes('*'))
    return { ok: false, message: 'a redirect URI may not contain wildcards (*); register each URI in full' }
  let parsed: URL
  try {
    parsed = new URL(uri)
  } catch {
    return { ok: false, message: 'the redirect URI is not an absolute URI (it needs a scheme such as https://)' }
  }
  const scheme = parsed.protocol.slice(0, -1).toLowerCase()
  if (scheme === 'https' || scheme === 'http') return checkWebUri(uri, parsed, scheme)
  if (!REVERSE_DOMAIN_SCHEME.test(scheme)) {
    return {
      ok: false,
      message: `the scheme "${scheme}:" is not allowed; use https, http on a loopback address, or a private-use scheme in reverse-domain form (com.example.app:/callback)`,
    }
  }
  if (uri.slice(scheme.length + 1) === '' || uri.slice(scheme.length + 1) === '/')
    return { ok: false, message: 'a private-use redirect URI needs a path (com.example.app:/callback)' }
  if (parsed.username || parsed.password)
    return { ok: false, message: 'a redirect URI may not carry a user name or password' }
  return { ok: true, uri }
}

function checkWebUri(uri: string, parsed: URL, scheme: 'http' | 'https'): RedirectUriCheck {
  const raw = HIERARCHICAL.exec(uri)
  if (!raw) return { ok: false, message: `an ${scheme} redirect URI must start with ${scheme}://` }
  const authority = raw[2]!
  if (authority.includes('@') || parsed.username || parsed.password)
    return { ok: false, message: 'a redirect URI may not carry a user name or password' }
  if (parsed.hostname === '') return { ok: false, message: 'the redirect URI has no host' }
  // The host must be written the way the parser reads it: no percent-encoding, no numeric
  // tricks (http://0x7f.1 is 127.0.0.1), no trailing dot games that change what matches.
  // Lower case and no default port, so that exact matching compares canonical strings.
  if (authority !== parsed.host) return { ok: false, message: `write the host in its plain form (${parsed.host})` }
  if (scheme === 'http' && !LOOPBACK_HOSTS.has(parsed.hostname)) {
    return {
      ok: false,
      message:
        'http is allowed only on a loopback address (127.0.0.1, [::1] or localhost); use https for any other host',
    }
  }
  return { ok: true, uri }
}

// The whole list an app registers: each URI checked, duplicates and more than 10 refused.
// Returns one message per refused entry, naming it, so a form can show them all.
export function validateRedirectUris(
  uris: readonly string[],
): { ok: true; uris: string[] } | { ok: false; problems: { uri: string; message: string }[] } {
  const problems: { uri: string; message: string }[] = []
  const seen = new Set<string>()
  const kept: string[] = []
  for (const uri of uris) {
    const check = validateRedirectUri(uri)
    if (!check.ok) problems.push({ uri, message: check.message })
    else if (seen.has(uri)) problems.push({ uri, message: 'this redirect URI is listed twice' })
    else {
      seen.add(uri)
      kept.push(uri)
    }
  }
  if (kept.length > MAX_REDIRECT_URIS)
    problems.push({
      uri: '',
      message: `an app may register at most ${MAX_REDIRECT_URIS} redirect URIs (${kept.length} given)`,
    })
  return problems.length > 0 ? { ok: false, problems } : { ok: true, uris: kept }
}

// Exact comparison; for a registered http loopback URI any port of the same host matches.
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true
  const r = loopbackParts(registered)
  const q = loopbackParts(requested)
  if (!r || !q) return false
  return r.scheme === q.scheme && r.host === q.host && r.rest === q.rest
}

function loopbackParts(uri: string): { scheme: string; host: string; rest: string } | null {
  if (!validateRedirectUri(uri).ok) return null
  const raw = HIERARCHICAL.exec(uri)
  if (raw?.[1] !== 'http') return null
  const authority = raw[2]!
  const m = /^(\[::1\]|127\.0\.0\.1|localhost)(?::(\d{1,5}))?$/.exec(authority)
  if (!m) return null
  if (m[2] !== undefined && Number(m[2]) > 65535) return null
  return { scheme: raw[1]!, host: m[1]!, rest: raw[3]! }
}
