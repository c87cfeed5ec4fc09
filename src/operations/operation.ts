import type { z } from 'zod'
import type { Actor } from '../events/event-store.ts'
import type { DomainError } from '../commands/errors.ts'
import type { Services } from '../services.ts'
import type { Scope } from './scopes.ts'

// Who is calling: always derived from the credential, never from the request.
export type Caller = {
  storeId: string
  scopes: ReadonlySet<string>
  actor: Actor
  channel: 'rest' | 'mcp'
  tool?: string | undefined
  requestId: string
  idempotencyKey?: string | undefined
}

export type Pagination = { nextCursor: string | null; hasMore: boolean; limit: number }

export type ApiError = { code: string; message: string; details?: Record<string, unknown> | undefined }

export type Outcome<T> =
  | { ok: true; status?: 200 | 201; data: T; pagination?: Pagination; etag?: string }
  | { ok: false; error: ApiError | DomainError }

export type McpToolSpec = {
  name: string
  title: string
  description: string
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean }
}

type AnyObject = z.ZodObject<z.core.$ZodLooseShape>

// One contract operation, written once. The REST adapter takes params, query and body apart;
// the MCP adapter takes their merge as tool arguments; both call `run` with the same input.
export type OperationDefinition<I = any, O = any> = {
  operationId: string
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  path: string
  scopes: readonly Scope[]
  summary: string
  description: string
  tag: string
  params?: AnyObject
  query?: AnyObject
  body?: AnyObject
  // Present for multipart uploads: the body may also be multipart/form-data with a `file` part.
  multipart?: boolean
  // Bytes a JSON body may have, when the app's default (2 MiB) is not enough.
  bodyLimit?: number
  data: z.ZodType<O>
  // Name of the list inside `data` for paginated lists ({ data: { products: [...] }, pagination }).
  paginated?: boolean
  successStatus: 200 | 201
  // Mutations accept Idempotency-Key (except the preview-token and MCP operations).
  idempotent: boolean
  // Theme mutations accept If-Match with the ETag getTheme returned.
  ifMatch?: boolean
  etag?: boolean
  mcp?: McpToolSpec | McpToolSpec[]
  run: (input: I, caller: Caller, services: Services) => Promise<Outcome<O>>
}

export const defineOperation = <I, O>(op: OperationDefinition<I, O>): OperationDefinition<I, O> => op
