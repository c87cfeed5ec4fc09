import { z } from 'zod'
import { SCOPES } from '../auth/scopes.ts'

export const AUTHORIZE_PATH = '/oauth/authorize'
export const TOKEN_PATH = '/api/oauth/token'
export const REGISTER_PATH = '/api/oauth/register'
export const REVOKE_PATH = '/api/oauth/revoke'
export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server'

export const authorizationServerMetadataSchema = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string().optional(),
    revocation_endpoint: z.string(),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.literal('code')),
    response_modes_supported: z.array(z.literal('query')),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.literal('S256')),
    authorization_response_iss_parameter_supported: z.literal(true),
    client_id_metadata_document_supported: z.literal(true),
    service_documentation: z.string(),
  })
  .meta({ description: 'OAuth 2.0 authorization server metadata (RFC 8414).' })

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none']

export function authorizationServerMetadata(
  baseUrl: string,
  dynamicRegistration: boolean,
): z.output<typeof authorizationServerMetadataSchema> {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}${AUTHORIZE_PATH}`,
    token_endpoint: `${baseUrl}${TOKEN_PATH}`,
    ...(dynamicRegistration ? { registration_endpoint: `${baseUrl}${REGISTER_PATH}` } : {}),
    revocation_endpoint: `${baseUrl}${REVOKE_PATH}`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${baseUrl}/api/v1/openapi.json`,
  }
}
