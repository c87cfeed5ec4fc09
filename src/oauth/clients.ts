import { timingSafeEqual } from 'node:crypto'
import { hashCredential } from '../auth/credentials.ts'
import { validateRedirectUri } from '../auth/redirect-uri.ts'
import { rememberMetadataDocumentClient } from '../operations/oauth/clients.ts'
import { oauthError, type OAuthError } from '../operations/oauth/oauth-error.ts'
import { dashboardAppClient, storedClient } from '../queries/oauth/clients.ts'
import type { Services } from '../services.ts'
import { storableText } from './storable-text.ts'
import { isMetadataDocumentUrl, privateRedirectHost } from './metadata-document.ts'
import { MetadataDocumentFetcher } from './metadata-document-fetcher.ts'

// Who is asking for tokens. Three ways to be known: an app the merchant created in the dashboard
// (verified, belongs to one store), a client that registered itself (RFC 7591), or a client id
// that is the https URL of its metadata document. The last two are "unverified" on consent.
export type OAuthClient = {
  clientId: string
  name: string
  source: 'app' | 'registered' | 'metadata_document'
  verified: boolean
  // Dashboard apps belong to one store; self-registered clients to none until a merchant approves.
  storeId: string | null
  appId: string | null
  redirectUris: string[]
  secretHash: string | null
}

export type ClientLookup =
  | { ok: true; client: OAuthClient }
  | { ok: false; reason: 'unknown' | 'metadata_document'; message: string }
  | { ok: false; reason: 'fetch_limited'; message: string; retryAfterSeconds: number }

// One fetcher per service instance (its failure cache and outbound cap).
const fetchers = new WeakMap<Services, MetadataDocumentFetcher>()
const fetcherOf = (services: Services) => {
  let fetcher = fetchers.get(services)
  if (!fetcher) fetchers.set(services, (fetcher = new MetadataDocumentFetcher(services.config.oauth, services.logger)))
  return fetcher
}

// What a stranger learns about a metadata document that could not be used; the reason is logged.
export const METADATA_DOCUMENT_REFUSED = 'the client metadata document could not be fetched or is not acceptable'

// mayFetch: asked before a new outbound fetch (the authorization page's per-address limit).
export async function findClient(
  services: Services,
  clientId: string,
  mayFetch?: () => Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>,
): Promise<ClientLookup> {
  if (clientId === '' || clientId.length > 2048 || !storableText(clientId))
    return { ok: false, reason: 'unknown', message: 'client_id is missing or too long' }
  const app = await dashboardAppClient(services.db, clientId)
  if (app) {
    return {
      ok: true,
      client: {
        clientId: app.client_id,
        name: app.name,
        source: 'app',
        verified: true,
        storeId: app.store_id,
        appId: app.app_id,
        redirectUris: app.redirect_uris,
        secretHash: app.client_secret_hash,
      },
    }
  }
  const now = services.clock()
  const row = await storedClient(services.db, clientId)
  if (row && (row.kind === 'registered' || (row.fresh_until && new Date(row.fresh_until) > now))) {
    return {
      ok: true,
      client: {
        clientId: row.client_id,
        name: row.client_name,
        source: row.kind,
        verified: false,
        storeId: null,
        appId: null,
        redirectUris: row.redirect_uris,
        secretHash: row.client_secret_hash,
      },
    }
  }
  if (!isMetadataDocumentUrl(clientId))
    return { ok: false, reason: 'unknown', message: 'no client is registered with this client_id' }
  const fetcher = fetcherOf(services)
  if (mayFetch && fetcher.wouldFetch(clientId)) {
    const allowed = await mayFetch()
    if (!allowed.ok)
      return {
        ok: false,
        reason: 'fetch_limited',
        message: 'too many client metadata documents asked for from this address',
        retryAfterSeconds: allowed.retryAfterSeconds,
      }
  }
  const fetched = await fetcher.fetch(clientId, (uri) => !privateRedirectHost(uri) && validateRedirectUri(uri).ok)
  if (!fetched.ok) return { ok: false, reason: 'metadata_document', message: METADATA_DOCUMENT_REFUSED }
  const doc = fetched.document
  const freshUntil = new Date(now.getTime() + fetched.maxAgeSeconds * 1000)
  await rememberMetadataDocumentClient(services, {
    clientId,
    clientName: doc.clientName,
    redirectUris: doc.redirectUris,
    document: doc.raw,
    fetchedAt: now,
    freshUntil,
  })
  return {
    ok: true,
    client: {
      clientId,
      name: doc.clientName,
      source: 'metadata_document',
      verified: false,
      storeId: null,
      appId: null,
      redirectUris: doc.redirectUris,
      secretHash: null,
    },
  }
}

// RFC 6749 §2.3.1: the Basic credentials are form-urlencoded before base64.
function basicCredentials(header: string | undefined): { id: string; secret: string } | null | undefined {
  if (header === undefined) return undefined
  const match = /^Basic +([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (!match) return null
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    }
  } catch {
    return null
  }
}

const secretMatches = (secret: string, hash: string) => {
  const a = Buffer.from(hashCredential(secret))
  const b = Buffer.from(hash)
  return a.length === b.length && timingSafeEqual(a, b)
}

// client_secret_basic, client_secret_post, or none for public clients (which always use PKCE).
// A confidential client must authenticate; a public one must not send a secret.
export async function authenticateClient(
  services: Services,
  form: Record<string, string>,
  authorization: string | undefined,
): Promise<{ ok: true; client: OAuthClient } | { ok: false; error: OAuthError }> {
  const basic = basicCredentials(authorization?.toLowerCase().startsWith('basic') ? authorization : undefined)
  if (basic === null) return { ok: false, error: oauthError('invalid_client', 'the Basic credentials are malformed') }
  if (basic && form.client_secret !== undefined)
    return {
      ok: false,
      error: oauthError(
        'invalid_request',
        'use one client authentication method, not Basic and client_secret together',
      ),
    }
  if (basic && form.client_id !== undefined && form.client_id !== basic.id)
    return { ok: false, error: oauthError('invalid_client', 'client_id differs from the Basic credentials') }
  const clientId = basic?.id ?? form.client_id
  if (!clientId)
    return {
      ok: false,
      error: oauthError('invalid_client', 'client_id is required (in the form, or with Basic authentication)'),
    }
  const found = await findClient(services, clientId)
  if (!found.ok) return { ok: false, error: oauthError('invalid_client', found.message) }
  const client = found.client
  const secret = basic?.secret ?? form.client_secret
  if (client.secretHash === null) {
    if (secret !== undefined && secret !== '')
      return { ok: false, error: oauthError('invalid_client', 'this is a public client: it has no secret to send') }
    return { ok: true, client }
  }
  if (secret === undefined || !secretMatches(secret, client.secretHash))
    return { ok: false, error: oauthError('invalid_client', 'client authentication failed') }
  return { ok: true, client }
}
