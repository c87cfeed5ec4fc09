import { hashCredential, newClientId, newClientSecret } from '../../auth/credentials.ts'
import type { Services } from '../../services.ts'

// The clients this authorization server stores: those that registered themselves (RFC 7591) and
// those known by a Client ID Metadata Document, kept as long as the document said it stays fresh.
// No caller is authenticated yet when they arrive, so these are plain application functions.

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post'

export type Registered = {
  clientId: string
  // Shown once, in the registration response; only its hash is stored.
  secret: string | null
  issuedAt: Date
  metadata: {
    client_name: string
    redirect_uris: string[]
    token_endpoint_auth_method: TokenEndpointAuthMethod
    grant_types: string[]
    response_types: string[]
  }
}

export async function registerClient(
  services: Services,
  input: {
    name: string
    redirectUris: string[]
    tokenEndpointAuthMethod: TokenEndpointAuthMethod
    grantTypes: string[]
    responseTypes: string[]
    registeredFrom: string
  },
): Promise<Registered> {
  const clientId = newClientId()
  const secret = input.tokenEndpointAuthMethod === 'none' ? null : newClientSecret()
  const now = services.clock()
  const metadata = {
    client_name: input.name,
    redirect_uris: input.redirectUris,
    token_endpoint_auth_method: input.tokenEndpointAuthMethod,
    grant_types: input.grantTypes,
    response_types: input.responseTypes,
  }
  await services.db
    .insertInto('oauth_clients')
    .values({
      client_id: clientId,
      kind: 'registered',
      client_name: input.name,
      client_secret_hash: secret ? hashCredential(secret) : null,
      token_endpoint_auth_method: input.tokenEndpointAuthMethod,
      redirect_uris: input.redirectUris,
      metadata: JSON.stringify(metadata),
      registered_from: input.registeredFrom,
      created_at: now,
    })
    .execute()
  return { clientId, secret, issuedAt: now, metadata }
}

// A metadata document just fetched: stored, or refreshed in place, until freshUntil.
export async function rememberMetadataDocumentClient(
  services: Services,
  input: {
    clientId: string
    clientName: string
    redirectUris: string[]
    document: unknown
    fetchedAt: Date
    freshUntil: Date
  },
): Promise<void> {
  const metadata = JSON.stringify(input.document)
  await services.db
    .insertInto('oauth_clients')
    .values({
      client_id: input.clientId,
      kind: 'metadata_document',
      client_name: input.clientName,
      client_secret_hash: null,
      token_endpoint_auth_method: 'none',
      redirect_uris: input.redirectUris,
      metadata,
      registered_from: null,
      fetched_at: input.fetchedAt,
      fresh_until: input.freshUntil,
    })
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet({
        client_name: input.clientName,
        redirect_uris: input.redirectUris,
        metadata,
        fetched_at: input.fetchedAt,
        fresh_until: input.freshUntil,
      }),
    )
    .execute()
}
