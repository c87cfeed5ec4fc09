import { z } from 'zod'
import { validationError, zodIssues, type Issue } from '../http/errors.ts'
import type { ApiError, OperationDefinition } from './operation.ts'

// Steps every adapter runs before an operation: the same scope rule and the same input schema.

// Where the contract lists two scopes, both are required.
export function scopeError(op: OperationDefinition, granted: ReadonlySet<string>): ApiError | null {
  const missing = op.scopes.filter((s) => !granted.has(s))
  if (missing.length === 0) return null
  return {
    code: 'INSUFFICIENT_SCOPE',
    message: `${op.operationId} needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}`,
    details: { requiredScopes: [...op.scopes], grantedScopes: [...granted].sort(), missingScopes: missing },
  }
}

export type InputParts = { params?: unknown; query?: unknown; body?: unknown }

// Text the database cannot store (NUL, unpaired UTF-16 surrogates) is refused up front, in any
// string or key of any part of the input, instead of failing at the insert.
export function textIssues(value: unknown, path = '', depth = 0): Issue[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return [{ path, code: 'VALIDATION_FAILED', message: 'text may not contain NUL characters' }]
    if (!value.isWellFormed()) return [{ path, code: 'VALIDATION_FAILED', message: 'text is not well-formed Unicode (unpaired surrogate)' }]
    return []
  }
  if (depth > 64 || value === null || typeof value !== 'object') return []
  const issues: Issue[] = []
  for (const [key, item] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key
    if (!Array.isArray(value)) issues.push(...textIssues(key, `${at} (key)`, depth + 1).map((i) => ({ ...i, path: at })))
    issues.push(...textIssues(item, at, depth + 1))
  }
  return issues
}

export function parseInput(op: OperationDefinition, parts: InputParts): { ok: true; input: Record<string, unknown> } | { ok: false; error: ApiError } {
  const unstorable = [...textIssues(parts.params), ...textIssues(parts.query), ...textIssues(parts.body)]
  if (unstorable.length > 0) return { ok: false, error: validationError(unstorable) }
  const issues: Issue[] = []
  const input: Record<string, unknown> = {}
  for (const [schema, value] of [[op.params, parts.params], [op.query, parts.query], [op.body, parts.body]] as const) {
    if (!schema) continue
    const parsed = schema.safeParse(value ?? {})
    if (parsed.success) Object.assign(input, parsed.data)
    else issues.push(...zodIssues(parsed.error))
  }
  if (issues.length > 0) return { ok: false, error: validationError(issues) }
  return { ok: true, input }
}

// MCP tool arguments: path parameters, query and body of the REST twin, side by side.
export function toolInputSchema(op: OperationDefinition): z.ZodObject {
  return z.strictObject({ ...(op.params?.shape ?? {}), ...(op.query?.shape ?? {}), ...(op.body?.shape ?? {}) })
}

export function splitToolArguments(op: OperationDefinition, args: Record<string, unknown>): InputParts {
  const pick = (schema: z.ZodObject | undefined) => (schema ? Object.fromEntries(Object.entries(args).filter(([k]) => k in schema.shape)) : undefined)
  const known = new Set([...Object.keys(op.params?.shape ?? {}), ...Object.keys(op.query?.shape ?? {}), ...Object.keys(op.body?.shape ?? {})])
  const extra = Object.fromEntries(Object.entries(args).filter(([k]) => !known.has(k)))
  // Unknown arguments go to the body (or query) schema, whose strictness reports them.
  const body = op.body ? { ...pick(op.body), ...extra } : undefined
  const query = !op.body && op.query ? { ...pick(op.query), ...extra } : pick(op.query)
  return { params: pick(op.params), query, body }
}
