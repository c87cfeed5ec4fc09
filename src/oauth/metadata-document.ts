import { lookup as dnsLookup } from 'node:dns/promises'
import { readFileSync } from 'node:fs'
import { request } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'
import { z } from 'zod'
import { unstorablePath } from './storable-text.ts'

// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client_id that
// is an https URL names a JSON document describing the client. Fetching a URL a stranger chose
// is a server-side request forgery risk, so the address is resolved first, refused when it is
// private, loopback, link-local or otherwise not public (unless the host is on the configured
// allow-list), and the connection goes to exactly the address that was checked.

export const TIMEOUT_MS = 5000
const MAX_BYTES = 5 * 1024
const DEFAULT_MAX_AGE = 3600
const MAX_MAX_AGE = 24 * 3600
const MIN_MAX_AGE = 60

// Addresses a stranger's document URL may reach: public unicast only. ipaddr.js names the special
// ranges; it rates the IPv4-compatible ::7f00:1 "unicast", so IPv6 is also held to the global
// unicast block 2000::/3, with the forms that tunnel to IPv4 or elsewhere refused outright
// (6to4, Teredo, NAT64), and IPv4-mapped and IPv4-compatible addresses judged as the IPv4 inside.
const IPV4_EXTRA_REFUSED = [
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
].map((c) => ipaddr.IPv4.parseCIDR(c))
const IPV6_GLOBAL = ipaddr.IPv6.parseCIDR('2000::/3')
const IPV6_REFUSED = ['2002::/16', '2001::/32', '64:ff9b::/96', '64:ff9b:1::/48', '2001:db8::/32'].map((c) =>
  ipaddr.IPv6.parseCIDR(c),
)

function publicIPv4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast' && !IPV4_EXTRA_REFUSED.some((cidr) => address.match(cidr))
}

export function isPublicAddress(text: string): boolean {
  const literal = text.replace(/^\[|\]$/g, '')
  if (isIP(literal) === 0 || !ipaddr.isValid(literal)) return false
  const address = ipaddr.parse(literal)
  if (address.kind() === 'ipv4') return publicIPv4(address as ipaddr.IPv4)
  const v6 = address as ipaddr.IPv6
  if (v6.isIPv4MappedAddress()) return publicIPv4(v6.toIPv4Address())
  // IPv4-compatible (::a.b.c.d, deprecated): the first 96 bits are zero; :: and ::1 included.
  const parts = v6.parts
  if (parts.slice(0, 6).every((p) => p === 0)) {
    if (parts[6] === 0) return false
    return publicIPv4(ipaddr.IPv4.parse(`${parts[6]! >> 8}.${parts[6]! & 255}.${parts[7]! >> 8}.${parts[7]! & 255}`))
  }
  if (!v6.match(IPV6_GLOBAL) || IPV6_REFUSED.some((cidr) => v6.match(cidr))) return false
  return v6.range() === 'unicast'
}

// Self-registered clients may not send merchants' codes to a private network address (an https
// redirect to 10.x or 169.254.x); loopback stays allowed for http, where native apps listen.
export function privateRedirectHost(uri: string): boolean {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return false
  }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host) === 0) return false
  if (url.protocol === 'http:' && (host === '127.0.0.1' || host === '::1')) return false
  return !isPublicAddress(host)
}

// https, a path other than "/", no credentials, fragment, or dot segments (the draft's rules).
export function isMetadataDocumentUrl(value: string): boolean {
  if (!value.startsWith('https://')) return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.href !== value && `${url.href}` !== value) return false
  if (url.username || url.password || url.hash || value.includes('#')) return false
  if (url.pathname === '/' || /\/\.\.?(\/|$)/.test(value.slice(url.origin.length))) return false
  return true
}

const documentSchema = z.looseObject({
  client_id: z.string(),
  client_name: z.string().min(1).max(100).optional(),
  redirect_uris: z.array(z.string().min(1).max(2048)).min(1).max(10),
  token_endpoint_auth_method: z.literal('none').optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  client_secret: z.never().optional(),
})

export type MetadataDocument = { clientName: string; redirectUris: string[]; raw: Record<string, unknown> }
export type FetchResult =
  | { ok: true; document: MetadataDocument; maxAgeSeconds: number }
  | { ok: false; message: string }
type Settings = { metadataDocumentAllowHosts: string[]; metadataDocumentCaFile?: string | undefined }

function maxAge(cacheControl: string | undefined): number {
  if (!cacheControl) return DEFAULT_MAX_AGE
  if (/\b(no-store|no-cache)\b/i.test(cacheControl)) return MIN_MAX_AGE
  const m = /\bmax-age=(\d+)/i.exec(cacheControl)
  if (!m) return DEFAULT_MAX_AGE
  return Math.min(MAX_MAX_AGE, Math.max(MIN_MAX_AGE, Number(m[1])))
}

// One deadline (TIMEOUT_MS from the call) covers the name lookup, the connection, the headers
// and the body: a server that drips a byte at a time is cut off at the deadline, not kept open
// while each byte resets a socket timer.
export async function fetchMetadataDocument(
  clientId: string,
  settings: Settings,
  validRedirect: (uri: string) => boolean = () => true,
  signal: AbortSignal = AbortSignal.timeout(TIMEOUT_MS),
): Promise<FetchResult> {
  const late: FetchResult = {
    ok: false,
    message: `the client metadata document did not arrive within ${TIMEOUT_MS} ms`,
  }
  if (signal.aborted) return late
  const url = new URL(clientId)
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const allowed = settings.metadataDocumentAllowHosts.includes(host)
  let addresses: { address: string; family: number }[]
  try {
    addresses = isIP(host)
      ? [{ address: host, family: isIP(host) }]
      : await Promise.race([
          dnsLookup(host, { all: true, verbatim: true }),
          new Promise<never>((_resolve, reject) => signal.addEventListener('abort', reject, { once: true })),
        ])
  } catch {
    if (signal.aborted) return late
    return { ok: false, message: `the client metadata document host ${host} does not resolve` }
  }
  const target = addresses[0]
  if (!target) return { ok: false, message: `the client metadata document host ${host} does not resolve` }
  if (!allowed && addresses.some((a) => !isPublicAddress(a.address)))
    return { ok: false, message: `the client metadata document is at a non-public address; refused` }

  // The connection uses the address checked above, never a second DNS answer (rebinding).
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target])
    else callback(null, target.address, target.family)
  }
  const ca = settings.metadataDocumentCaFile ? readFileSync(settings.metadataDocumentCaFile, 'utf8') : undefined
  return new Promise<FetchResult>((resolveOnce) => {
    let settled = false
    const resolve = (result: FetchResult) => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      resolveOnce(result)
    }
    const req = request(url, {
      method: 'GET',
      lookup: pinned,
      headers: { accept: 'application/json' },
      ...(ca ? { ca } : {}),
    })
    const onAbort = () => {
      req.destroy()
      resolve(late)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    req.on('response', (res) => {
      const fail = (message: string) => {
        res.destroy()
        req.destroy()
        resolve({ ok: false, message })
      }
      if (res.statusCode !== 200)
        return fail(`the client metadata document answered HTTP ${res.statusCode} (redirects are not followed)`)
      const type = String(res.headers['content-type'] ?? '')
      if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type))
        return fail('the client metadata document is not served as application/json')
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_BYTES) return fail(`the client metadata document is larger than ${MAX_BYTES} bytes`)
        chunks.push(chunk)
      })
      res.on('error', () => resolve({ ok: false, message: 'the client metadata document could not be read' }))
      res.on('end', () => {
        if (size > MAX_BYTES) return
        resolve(parseDocument(clientId, url, Buffer.concat(chunks), res.headers['cache-control'], validRedirect))
      })
    })
    req.on('error', () => resolve({ ok: false, message: 'the client metadata document could not be fetched' }))
    req.end()
  })
}

function parseDocument(
  clientId: string,
  url: URL,
  body: Buffer,
  cacheControl: string | undefined,
  validRedirect: (uri: string) => boolean,
): FetchResult {
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    return { ok: false, message: 'the client metadata document is not valid JSON' }
  }
  const unstorable = unstorablePath(json)
  if (unstorable !== null)
    return {
      ok: false,
      message: `the client metadata document holds a NUL character or a lone surrogate at ${unstorable}`,
    }
  const parsed = documentSchema.safeParse(json)
  if (!parsed.success)
    return {
      ok: false,
      message: `the client metadata document is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    }
  const doc = parsed.data
  if (doc.client_id !== clientId)
    return { ok: false, message: 'the client_id inside the metadata document differs from its URL' }
  const bad = doc.redirect_uris.find((u) => !validRedirect(u))
  if (bad !== undefined)
    return { ok: false, message: `the metadata document lists a redirect URI this service does not accept: ${bad}` }
  return {
    ok: true,
    document: {
      clientName: doc.client_name ?? url.host,
      redirectUris: doc.redirect_uris,
      raw: doc as Record<string, unknown>,
    },
    maxAgeSeconds: maxAge(cacheControl),
  }
}
