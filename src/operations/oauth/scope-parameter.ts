import { DEFAULT_AGENT_SCOPES, isScope, SCOPES } from '../../auth/scopes.ts'

// The scope parameter (authorization request, refresh). RFC 6749 §3.3: space-delimited. Unknown names are an error, not silently dropped.
export function parseScope(value: string | undefined): { ok: true; scopes: string[] } | { ok: false; message: string } {
  if (value === undefined || value.trim() === '') return { ok: true, scopes: [...DEFAULT_AGENT_SCOPES] }
  const names = [...new Set(value.split(' ').filter((s) => s !== ''))]
  const unknown = names.filter((s) => !isScope(s))
  if (unknown.length > 0)
    return { ok: false, message: `unknown scope ${unknown.join(', ')}; known scopes: ${SCOPES.join(' ')}` }
  // In the contract's order, so the consent page and the token's scope read the same way.
  return { ok: true, scopes: SCOPES.filter((s) => names.includes(s)) }
}
