import { lookup as dnsLookup } from 'node:dns/promises'
import { readFileSync } from 'node:fs'
import { request } from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { z } from 'zod'
import { unstorablePath } from './storable-text.ts'

// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client_id that
// is an https URL names a JSON document describing the client. Fetching a URL a stranger chose
// is a server-side request forgery risk, so the address is resolved first, refused when it is
// private, loopback, link-local or otherwise not public (unless the host is on the configured
// allow-list), and the connection goes to exactly the address that was checked.

const TIMEOUT_MS = 5000
const MAX_BYTES = 5 * 1024
const DEFAULT_MAX_AGE = 3600
const MAX_MAX_AGE = 24 * 3600
const MIN_MAX_AGE = 60

const blocked = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4')
}
// IPv4-mapped addresses (::ffff:a.b.c.d) are checked as the IPv4 address they carry (below).
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6')
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  if (family === 6 && /^::ffff:/i.test(address)) {
    const v4 = address.slice(7)
    return isIP(v4) === 4 ? !blocked.check(v4, 'ipv4') : false
  }
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6')
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

export async function fetchMetadataDocument(
  clientId: string,
  settings: Settings,
  validRedirect: (uri: string) => boolean = () => true,
): Promise<FetchResult> {
  const url = new URL(clientId)
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const allowed = settings.metadataDocumentAllowHosts.includes(host)
  let addresses: { address: string; family: number }[]
  try {
    addresses = isIP(host)
      ? [{ address: host, family: isIP(host) }]
      : await dnsLookup(host, { all: true, verbatim: true })
  } catch {
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
  return new Promise<FetchResult>((resolve) => {
    const req = request(
      url,
      {
        method: 'GET',
        lookup: pinned,
        headers: { accept: 'application/json' },
        timeout: TIMEOUT_MS,
        ...(ca ? { ca } : {}),
      },
      (res) => {
        const fail = (message: string) => {
          res.destroy()
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
          let json: unknown
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8'))
          } catch {
            return resolve({ ok: false, message: 'the client metadata document is not valid JSON' })
          }
          const unstorable = unstorablePath(json)
          if (unstorable !== null)
            return resolve({
              ok: false,
              message: `the client metadata document holds a NUL character or a lone surrogate at ${unstorable}`,
            })
          const parsed = documentSchema.safeParse(json)
          if (!parsed.success)
            return resolve({
              ok: false,
              message: `the client metadata document is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
            })
          const doc = parsed.data
          if (doc.client_id !== clientId)
            return resolve({ ok: false, message: 'the client_id inside the metadata document differs from its URL' })
          const bad = doc.redirect_uris.find((u) => !validRedirect(u))
          if (bad !== undefined)
            return resolve({
              ok: false,
              message: `the metadata document lists a redirect URI this service does not accept: ${bad}`,
            })
          resolve({
            ok: true,
            document: {
              clientName: doc.client_name ?? url.host,
              redirectUris: doc.redirect_uris,
              raw: doc as Record<string, unknown>,
            },
            maxAgeSeconds: maxAge(res.headers['cache-control']),
          })
        })
      },
    )
    req.on('timeout', () => {
      req.destroy()
      resolve({ ok: false, message: 'the client metadata document did not arrive in time' })
    })
    req.on('error', () => resolve({ ok: false, message: 'the client metadata document could not be fetched' }))
    req.end()
  })
}
