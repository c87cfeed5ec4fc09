// The Bearer challenges (RFC 6750 §3, RFC 9728 §5.1) every HTTP adapter answers with. Both point
// at the one protected-resource metadata document, so an OAuth-capable client (an MCP client
// first of all) finds the authorization server from any 401 or 403 and can step up its scopes.

export const MCP_RESOURCE_PATH = '/api/v1/mcp'
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource'

export const resourceMetadataUrl = (baseUrl: string) =>
  `${baseUrl}${PROTECTED_RESOURCE_METADATA_PATH}${MCP_RESOURCE_PATH}`

// 403 INSUFFICIENT_SCOPE: `scope` lists every scope the operation needs (space-separated, as
// RFC 6750 §3 has it), not only the missing ones, so a client asks for the whole set at once.
export function insufficientScopeChallenge(baseUrl: string, requiredScopes: readonly string[]): string {
  return `Bearer error="insufficient_scope", scope="${requiredScopes.join(' ')}", resource_metadata="${resourceMetadataUrl(baseUrl)}"`
}
