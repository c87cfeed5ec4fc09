import { z } from 'zod'
import type { Authentication } from '../auth/authenticate.ts'
import type { Caller } from '../auth/caller.ts'
import {
  classifyError,
  validationError,
  zodIssues,
  type AppError,
  type Issue,
  type PathSegment,
  type Thrown,
} from '../errors.ts'
import type { Services } from '../services.ts'
import { commandContext } from './command-context.ts'
import { recordRefusedAttempt } from '../commands/handle-command.ts'
import type { OperationDefinition, Outcome } from './operation.ts'
import { findTheme } from '../queries/themes/theme-queries.ts'

// The one path from an adapter into the application. Every adapter (REST, MCP, and the coming
// dashboard and editor) calls `invoke`; it runs the steps in one order — authentication result,
// scope, text check and parse, run, classify — and the adapter only adds its own wrapping
// (REST: multipart, If-Match and idempotency; MCP: its argument checks; dashboard: session and CSRF).

export type InputParts = { params?: unknown; query?: unknown; body?: unknown }
export type Refused = { ok: false; error: AppError }

export type Invocation<R = never> = {
  // What src/auth made of the credential or session.
  authentication: Authentication
  // The raw input; a function when reading it may fail (a multipart body), read after the scope check.
  input: InputParts | (() => Promise<{ ok: true; parts: InputParts } | Refused>)
  // When `input` is read later: the parts known before (REST: the path and query), so a refusal
  // before the read still records the theme the path names.
  known?: InputParts
  // Problems the adapter found in its own arguments, reported together with the schema's.
  argumentIssues?: readonly Issue[]
  // The adapter's check of the parsed input before anything runs (REST: If-Match).
  check?: (input: Record<string, unknown>) => AppError | null
  // The adapter's wrapping of the run (REST: idempotency keys); it may answer without running (R).
  around?: (
    input: Record<string, unknown>,
    caller: Caller,
    run: (caller: Caller) => Promise<Outcome<unknown>>,
  ) => Promise<Outcome<unknown> | R>
  // Where an error that escaped the operation is logged (it is answered INTERNAL or UNAVAILABLE).
  logError: (error: unknown, caller: Caller) => void
  // The caller presented a version it holds (REST: If-None-Match): a read then goes to the primary,
  // never to a replica that may be older than what the caller has seen.
  exact?: boolean
}

export async function invoke<R = never>(
  op: OperationDefinition,
  services: Services,
  steps: Invocation<R>,
): Promise<Outcome<unknown> | R> {
  if (!steps.authentication.ok) return { ok: false, error: steps.authentication.refusal.error }
  const caller = steps.authentication.caller
  const denied = scopeError(op, caller.scopes)
  if (denied)
    return refuseAttempt(op, services, steps, denied, typeof steps.input === 'function' ? steps.known : steps.input)
  let parts: InputParts
  if (typeof steps.input === 'function') {
    const read = await steps.input()
    if (!read.ok) return read
    parts = read.parts
  } else parts = steps.input
  const parsed = parseInput(op, parts, steps.argumentIssues ?? [])
  if (!parsed.ok) return refuseAttempt(op, services, steps, parsed.error, parts)
  const refused = steps.check?.(parsed.input)
  if (refused) return { ok: false, error: refused }
  // A read-only operation reads where services.forReads sends the store's reads now (a replica,
  // or the primary while a write of the store is not replayed there; src/db/replica-routing.ts);
  // everything else, commands and their reads included, uses the primary.
  const on = op.method === 'GET' && !steps.exact ? services.forReads(caller.storeId) : services
  const run = async (as: Caller): Promise<Outcome<unknown>> => {
    try {
      return await op.run(parsed.input, as, on)
    } catch (error) {
      const { log, ...classified } = classifyError(error as Thrown)
      if (log) steps.logError(error, as)
      return { ok: false, error: classified }
    }
  }
  return steps.around ? steps.around(parsed.input, caller, run) : run(caller)
}

// Attempts at a change that never reached a command (a missing scope, input the schema refuses)
// still get an activity row, within the credential's refusal budget (which refusals are audited:
// docs/decisions/0020-audited-refusals.md). Reads refused the same way are only in the request log.
async function refuseAttempt(
  op: OperationDefinition,
  services: Services,
  steps: Invocation<unknown>,
  error: AppError,
  parts: InputParts | undefined,
): Promise<Refused> {
  if (op.method === 'GET' || !steps.authentication.ok) return { ok: false, error }
  const caller = steps.authentication.caller
  try {
    // Filed under the theme only if it is the caller's store's: another store's id stays unnamed.
    const named = themeNamed(op, parts)
    const themeId = named && (await findTheme(services.read, caller.storeId, named)) ? named : null
    await recordRefusedAttempt(services.commands, commandContext(caller, op.operationId), error, themeId)
  } catch (failure) {
    // The caller still gets its refusal; the lost row is in the error log.
    steps.logError(failure, caller)
  }
  return { ok: false, error }
}

// The theme a refused attempt names, so the merchant finds it under that theme: the path's id of a
// theme operation, else the id the body names (an agent that sent `themeId` or `id` to a tool).
// Unparsed input: only an id-shaped string is taken.
const THEME_ID = /^[A-Za-z0-9_-]{1,100}$/
function themeNamed(op: OperationDefinition, input: InputParts | undefined): string | null {
  if (!input || !op.path.startsWith('/api/v1/themes/:id')) return null
  const field = (part: unknown, key: string) => {
    const v = part && typeof part === 'object' ? (part as Record<string, unknown>)[key] : undefined
    return typeof v === 'string' && THEME_ID.test(v) ? v : null
  }
  return (
    field(input.params, 'id') ??
    field(input.body, 'themeId') ??
    field(input.body, 'id') ??
    field(input.query, 'themeId')
  )
}

// Where the contract lists two scopes, both are required.
export function scopeError(op: OperationDefinition, granted: ReadonlySet<string>): AppError | null {
  const missing = op.scopes.filter((s) => !granted.has(s))
  if (missing.length === 0) return null
  return {
    code: 'INSUFFICIENT_SCOPE',
    message: `${op.operationId} needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}`,
    details: { requiredScopes: [...op.scopes], grantedScopes: [...granted].sort(), missingScopes: missing },
  }
}

// Text the database cannot store (NUL, unpaired UTF-16 surrogates) is refused up front, in any
// string or key of any part of the input, instead of failing at the insert.
export function textIssues(value: unknown, path = '', depth = 0): Issue[] {
  return unstorableIn(value, depth).map(({ at, message }) => ({
    path: at.reduce<string>(spell, path),
    code: 'VALIDATION_FAILED',
    message,
  }))
}

const spell = (path: string, segment: PathSegment) =>
  typeof segment === 'number' ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment

// `at` leads from `value` to what was found, and is built on the way back up, only for what was
// found: nearly every input is clean, and is checked without a path made for each of its values.
type Unstorable = { at: PathSegment[]; message: string }
const NOTHING: readonly Unstorable[] = []

function unstorableIn(value: unknown, depth: number): readonly Unstorable[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return [{ at: [], message: 'text may not contain NUL characters' }]
    if (!value.isWellFormed()) return [{ at: [], message: 'text is not well-formed Unicode (unpaired surrogate)' }]
    return NOTHING
  }
  if (depth > 64 || value === null || typeof value !== 'object') return NOTHING
  const list = Array.isArray(value)
  let found: Unstorable[] | null = null
  for (const key of Object.keys(value)) {
    // A key's own problem is reported at the key's path, before its value's.
    const inKey = list ? NOTHING : unstorableIn(key, depth + 1)
    const inValue = unstorableIn((value as Record<string, unknown>)[key], depth + 1)
    if (inKey.length + inValue.length === 0) continue
    found ??= []
    for (const f of [...inKey, ...inValue]) found.push({ at: [list ? Number(key) : key, ...f.at], message: f.message })
  }
  return found ?? NOTHING
}

export function parseInput(
  op: OperationDefinition,
  parts: InputParts,
  argumentIssues: readonly Issue[] = [],
): { ok: true; input: Record<string, unknown> } | Refused {
  const unstorable = [...textIssues(parts.params), ...textIssues(parts.query), ...textIssues(parts.body)]
  if (unstorable.length > 0) return { ok: false, error: validationError([...argumentIssues, ...unstorable]) }
  const issues: Issue[] = [...argumentIssues]
  const input: Record<string, unknown> = {}
  for (const [schema, value] of [
    [op.params, parts.params],
    [op.query, parts.query],
    [op.body, parts.body],
  ] as const) {
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

// Which arguments each operation reads, by part: worked out once per operation, not per call.
type ArgumentParts = { params: ReadonlySet<string>; query: ReadonlySet<string>; body: ReadonlySet<string> }
const argumentParts = new WeakMap<OperationDefinition, ArgumentParts>()
function partsOf(op: OperationDefinition): ArgumentParts {
  let parts = argumentParts.get(op)
  if (!parts) {
    parts = {
      params: new Set(Object.keys(op.params?.shape ?? {})),
      query: new Set(Object.keys(op.query?.shape ?? {})),
      body: new Set(Object.keys(op.body?.shape ?? {})),
    }
    argumentParts.set(op, parts)
  }
  return parts
}

export function splitToolArguments(op: OperationDefinition, args: Record<string, unknown>): InputParts {
  const parts = partsOf(op)
  const params: Record<string, unknown> = {}
  const query: Record<string, unknown> = {}
  const body: Record<string, unknown> = {}
  const extra: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(args)) {
    if (parts.params.has(k)) params[k] = v
    if (parts.query.has(k)) query[k] = v
    if (parts.body.has(k)) body[k] = v
    if (!parts.params.has(k) && !parts.query.has(k) && !parts.body.has(k)) extra[k] = v
  }
  // Unknown arguments go to the body (or query) schema, whose strictness reports them.
  return {
    params: op.params ? params : undefined,
    query: op.query ? (op.body ? query : { ...query, ...extra }) : undefined,
    body: op.body ? { ...body, ...extra } : undefined,
  }
}
