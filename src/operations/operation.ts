import type { z } from 'zod'
import type { Caller } from '../auth/caller.ts'
import type { Scope } from '../auth/scopes.ts'
import type { AppError } from '../errors.ts'
import type { Services } from '../services.ts'

export type Pagination = { nextCursor: string | null; hasMore: boolean; limit: number }

// json: `data` as JSON text, when the read already holds it so (a theme document, product cards):
// REST sends it on as it is, and `data` is parsed from it only when an adapter asks for the object
// (results.ts: jsonOutcome).
export type Outcome<T> =
  | { ok: true; status?: 200 | 201; data: T; json?: string; pagination?: Pagination; etag?: string }
  | { ok: false; error: AppError }

export type McpToolSpec = {
  name: string
  title: string
  description: string
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean }
}

type AnyObject = z.ZodObject<z.core.$ZodLooseShape>
type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown
// What `run` receives: the parsed params, query and body side by side.
// REST's If-Match header arrives as expectedVersion, also on operations without a body.
export type OperationInput<P, Q, B> = Parsed<P> & Parsed<Q> & Parsed<B> & { expectedVersion?: number | undefined }

// One contract operation, written once. The REST adapter takes params, query and body apart;
// the MCP adapter takes their merge as tool arguments; both reach `run` through `invoke`.
// biome-ignore lint/suspicious/noExplicitAny: the registry holds operations of every input and output type
export type OperationDefinition<I = any, O = any> = {
  operationId: string
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  path: string
  scopes: readonly Scope[]
  summary: string
  description: string
  tag: string
  params?: AnyObject | undefined
  query?: AnyObject | undefined
  body?: AnyObject | undefined
  // Present for multipart uploads: the body may also be multipart/form-data with a `file` part
  // of at most maxFileBytes.
  multipart?: { maxFileBytes: number }
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
  // The outcome carries an ETag: true, the theme version; 'content', a weak digest of the data,
  // for reads with no version of their own (contentEtag). A GET with either revalidates (304).
  etag?: boolean | 'content'
  mcp?: McpToolSpec | McpToolSpec[]
  run: (input: I, caller: Caller, services: Services) => Promise<Outcome<O>>
}

// `run`'s input is inferred from the zod schemas, so a schema change that the handler does not
// follow is a compile error.
export const defineOperation = <
  O,
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends AnyObject | undefined = undefined,
>(
  op: Omit<OperationDefinition<OperationInput<P, Q, B>, O>, 'params' | 'query' | 'body'> & {
    params?: P
    query?: Q
    body?: B
  },
): OperationDefinition<OperationInput<P, Q, B>, O> => op
