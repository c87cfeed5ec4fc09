import { z } from 'zod'
import type { OperationDefinition } from '../operations/operation.ts'
import { operations } from '../operations/catalog.ts'
import type { DocumentedRoute } from '../web/documented-route.ts'
import { DEFAULT_AGENT_SCOPES, SCOPE_DESCRIPTIONS, type Scope } from '../auth/scopes.ts'

type Json = Record<string, unknown>

// zod -> JSON Schema 2020-12 (what OpenAPI 3.1 uses). Shared definitions are moved into
// components.schemas so that every $ref resolves inside the OpenAPI document.
function schemaOf(schema: z.ZodType, io: 'input' | 'output', components: Json): Json {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json
  delete out.$schema
  const defs = out.$defs as Record<string, Json> | undefined
  delete out.$defs
  if (!defs) return out
  // Anonymous definitions (__schema0...) of different schemas must not overwrite each other.
  const names = new Map<string, string>()
  for (const name of Object.keys(defs)) {
    let unique = name.replace(/^__/, 'Schema')
    for (let i = 2; unique in components && JSON.stringify(components[unique]) !== JSON.stringify(defs[name]); i++)
      unique = `${name.replace(/^__/, 'Schema')}_${i}`
    names.set(name, unique)
  }
  const rename = (name: string) => names.get(name) ?? name
  for (const [name, def] of Object.entries(defs)) components[rename(name)] = def
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite)
    if (node && typeof node === 'object') {
      return Object.fromEntries(
        Object.entries(node).map(([k, v]) => [
          k,
          k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
            ? `#/components/schemas/${rename(v.slice(8))}`
            : rewrite(v),
        ]),
      )
    }
    return node
  }
  for (const name of Object.keys(defs)) components[rename(name)] = rewrite(components[rename(name)])
  return rewrite(out) as Json
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}')

const errorResponses = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '401': { $ref: '#/components/responses/Unauthenticated' },
  '403': { $ref: '#/components/responses/Forbidden' },
  '404': { $ref: '#/components/responses/NotFound' },
  '409': { $ref: '#/components/responses/Conflict' },
  '429': { $ref: '#/components/responses/RateLimited' },
  '500': { $ref: '#/components/responses/Internal' },
}

const rateHeaders = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
}

function operationObject(op: OperationDefinition, components: Json): Json {
  const parameters: Json[] = [{ $ref: '#/components/parameters/X-Request-Id' }]
  for (const [name, field] of Object.entries(op.params?.shape ?? {})) {
    parameters.push({ name, in: 'path', required: true, schema: schemaOf(field as z.ZodType, 'input', components) })
  }
  for (const [name, field] of Object.entries(op.query?.shape ?? {})) {
    const f = field as z.ZodType
    parameters.push({
      name,
      in: 'query',
      required: !f.safeParse(undefined).success,
      schema: schemaOf(f, 'input', components),
      ...(f.description ? { description: f.description } : {}),
    })
  }
  if (op.idempotent) parameters.push({ $ref: '#/components/parameters/Idempotency-Key' })
  if (op.ifMatch) parameters.push({ $ref: '#/components/parameters/If-Match' })
  const revalidates = op.method === 'GET' && op.etag !== undefined && op.etag !== false
  if (revalidates) parameters.push({ $ref: '#/components/parameters/If-None-Match' })

  const dataSchema = schemaOf(op.data, 'output', components)
  const envelope: Json = op.paginated
    ? {
        type: 'object',
        required: ['data', 'pagination'],
        properties: { data: dataSchema, pagination: { $ref: '#/components/schemas/Pagination' } },
      }
    : { type: 'object', required: ['data'], properties: { data: dataSchema } }
  const success = {
    description: 'Success',
    headers: {
      ...rateHeaders,
      ...(op.etag === true
        ? { ETag: { $ref: '#/components/headers/ETag' } }
        : op.etag === 'content'
          ? { ETag: { $ref: '#/components/headers/ContentETag' } }
          : {}),
      ...(op.idempotent ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } } : {}),
    },
    content: { 'application/json': { schema: envelope } },
  }
  const responses: Json = { [String(op.successStatus)]: success }
  // "returns 200 or 201": 201 when something new was created, 200 when it already existed.
  if (op.operationId === 'uploadMedia') responses['200'] = success
  if (revalidates)
    responses['304'] = {
      description: 'Not Modified: If-None-Match holds the current ETag; no body.',
      headers: { ETag: { $ref: `#/components/headers/${op.etag === 'content' ? 'ContentETag' : 'ETag'}` } },
    }
  Object.assign(responses, errorResponses)
  if (op.multipart) responses['413'] = { $ref: '#/components/responses/PayloadTooLarge' }

  const result: Json = {
    operationId: op.operationId,
    summary: op.summary,
    description: `${op.description}\n\nRequired scopes (all of them): ${op.scopes.map((s) => `\`${s}\``).join(', ')}.`,
    tags: [op.tag],
    security: [{ bearerAuth: [...op.scopes] }],
    'x-required-scopes': [...op.scopes],
    parameters,
    responses,
  }
  if (op.body) {
    const content: Json = { 'application/json': { schema: schemaOf(op.body, 'input', components) } }
    if (op.multipart) {
      content['multipart/form-data'] = {
        schema: {
          type: 'object',
          required: ['file'],
          properties: {
            file: {
              type: 'string',
              contentMediaType: 'application/octet-stream',
              description:
                'PNG, JPEG, WebP, GIF or AVIF bytes, at most 5 MiB; the type is read from the bytes. SVG is refused.',
            },
            alt: { type: 'string', maxLength: 300 },
          },
        },
      }
    }
    result.requestBody = { required: !op.body.safeParse({}).success, content }
  }
  return result
}

function documentedObject(route: DocumentedRoute, components: Json): Json {
  const responses: Json = {}
  for (const [status, r] of Object.entries(route.responses)) {
    // X-Request-Id and the rate-limit headers are on every answer under /api, as on the operations'.
    const headers = { ...(status.startsWith('2') ? rateHeaders : {}), ...r.headers }
    responses[status] = {
      description: r.description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(r.schema
        ? { content: { [r.contentType ?? 'application/json']: { schema: schemaOf(r.schema, 'output', components) } } }
        : {}),
    }
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    security: route.security ? [{ bearerAuth: [] }] : [],
    parameters: [{ $ref: '#/components/parameters/X-Request-Id' }, ...(route.parameters ?? [])],
    ...(route.requestBody
      ? {
          requestBody: {
            required: true,
            content: {
              [route.requestBody.contentType]: { schema: schemaOf(route.requestBody.schema, 'input', components) },
            },
          },
        }
      : {}),
    responses: {
      ...responses,
      ...Object.fromEntries(Object.entries(errorResponses).filter(([s]) => !(s in responses))),
    },
  }
}

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'requestId'],
      properties: {
        code: { type: 'string', description: 'Machine-readable code (see the description of this document).' },
        message: { type: 'string' },
        details: {
          type: 'object',
          description:
            'VALIDATION_FAILED and the specific 400 codes carry details.issues [{ path, code, message, hint? }] listing every problem; INSUFFICIENT_SCOPE carries requiredScopes and grantedScopes; VERSION_CONFLICT carries currentVersion; UNDO_CONFLICT carries conflicts (the paths later changes also touched).',
        },
        requestId: { type: 'string' },
      },
    },
  },
}

const errorResponse = (description: string, extraHeaders: Json = {}) => ({
  description,
  headers: { ...rateHeaders, ...extraHeaders },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

const DESCRIPTION = `Developer API of the storefront theme service (response contract v1.1). Agents read the store and catalog and create, edit, preview and (with themes:publish) publish private themes. Commerce (price, stock, cart, checkout, orders) is never writable.

**Authentication.** \`Authorization: Bearer <credential>\`: an API key (\`sk_live_…\`) or an OAuth access token (\`sfat_…\`). The store and scopes come from the credential; a store id in a request is ignored. Where an operation lists two scopes, both are required.

**Errors.** Every non-2xx answer is \`{ "error": { "code", "message", "details"?, "requestId" } }\`. 400 VALIDATION_FAILED (details.issues lists every problem), INVALID_PRODUCT_REFERENCE / INVALID_COLLECTION_REFERENCE (details.hint names the read operation to call), UNSAFE_CONTENT, COMMERCE_DATA_FORBIDDEN, LIMIT_EXCEEDED, INVALID_CURSOR, INVALID_IDEMPOTENCY_KEY; 401 UNAUTHENTICATED (with WWW-Authenticate); 403 INSUFFICIENT_SCOPE (with the insufficient_scope challenge); 404 NOT_FOUND (also for another store's resources); 405 METHOD_NOT_ALLOWED; 409 THEME_NOT_EDITABLE, THEME_IS_ACTIVE, VERSION_CONFLICT, UNDO_CONFLICT, IDEMPOTENCY_KEY_IN_USE, IDEMPOTENCY_KEY_REUSED; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE; before any route runs: 400 VALIDATION_FAILED (a path that is not valid percent-encoded UTF-8, a body that is not well-formed UTF-8) or MALFORMED_REQUEST (HTTP framing faults, details.reason), 408 REQUEST_TIMEOUT, 414 URI_TOO_LONG, 431 HEADERS_TOO_LARGE; 429 RATE_LIMITED (with Retry-After in seconds); 500 INTERNAL; 503 UNAVAILABLE.

**Pagination.** Lists take \`limit\` (1–100, default 20; outside the range is a 400) and \`cursor\` (opaque, signed; a forged or foreign one is 400 INVALID_CURSOR) and answer \`{ data: { <resource>: [...] }, pagination: { nextCursor, hasMore, limit } }\`. Orders and customers are newest first; products, collections and media oldest first by creation time then id.

**Rate limits.** Per credential, a fixed window (default 120 requests per 60 s) shared by REST and MCP. X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (seconds until the window resets) on every response, errors included.

**Idempotency.** POST, PATCH and DELETE accept Idempotency-Key (8–256 printable ASCII), except createThemePreviewToken and the MCP endpoint. The same key and request within 24 hours replays the first response (status and body) with Idempotent-Replayed: true and applies nothing twice; the same key with a different request is 409 IDEMPOTENCY_KEY_REUSED; while the first is running, 409 IDEMPOTENCY_KEY_IN_USE. 5xx answers are not kept.

**Concurrency.** Themes carry a version (ETag on getTheme). Mutations take If-Match or expectedVersion; a stale one is 409 VERSION_CONFLICT with details.currentVersion and changes nothing.

**Themes.** States: draft (editable), private (not live, not editable), active (live; at most one per store), archived. Limits: 25 sections per layout, 50 blocks per section, 50 pages per theme, 100 operations per batch, 512 KiB per theme document, 20 themes per store that are not archived.

**Preview.** createThemePreviewToken returns { previewUrl, expiresAt }: {base_url}/preview/{token}, a JWT valid 15 minutes bound to the store and theme; append paths (/products/{id}?variant=x) to preview other pages.`

// Built explicitly from the catalogue and the routes other adapters document (no import side effects).
export function openApiDocument(baseUrl: string, documentedRoutes: readonly DocumentedRoute[]): Json {
  const schemas: Json = {
    Error: errorSchema,
    Pagination: {
      type: 'object',
      required: ['nextCursor', 'hasMore', 'limit'],
      properties: {
        nextCursor: { type: ['string', 'null'], description: 'Opaque; pass back as cursor.' },
        hasMore: { type: 'boolean' },
        limit: { type: 'integer' },
      },
    },
  }
  const paths: Record<string, Json> = {}
  const add = (path: string, method: string, object: Json) => {
    paths[openApiPath(path)] ??= {}
    paths[openApiPath(path)]![method.toLowerCase()] = object
  }
  for (const op of operations as OperationDefinition[]) add(op.path, op.method, operationObject(op, schemas))
  for (const route of documentedRoutes) add(route.path, route.method, documentedObject(route, schemas))
  const tags = [
    ...new Set([...(operations as OperationDefinition[]).map((o) => o.tag), ...documentedRoutes.map((r) => r.tag)]),
  ].map((name) => ({ name }))
  const int = (description: string) => ({ description, schema: { type: 'integer' } })
  return {
    openapi: '3.1.0',
    info: {
      title: 'Storefront theme service — developer API',
      version: '1.1.0',
      // The contract's label for the response contract this document describes.
      'x-response-contract': 'v1.1',
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: baseUrl }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `API key (sk_live_…) or OAuth access token (sfat_…). Scopes:\n\n${Object.entries(
            SCOPE_DESCRIPTIONS,
          )
            .map(
              ([scope, meaning]) =>
                `- \`${scope}\`: ${meaning}${DEFAULT_AGENT_SCOPES.includes(scope as Scope) ? '' : ' (not in the default theme-agent set)'}`,
            )
            .join('\n')}`,
        },
      },
      schemas,
      parameters: {
        'X-Request-Id': {
          name: 'X-Request-Id',
          in: 'header',
          required: false,
          description: 'Correlation id, echoed on the response (generated when absent).',
          schema: { type: 'string', maxLength: 200 },
        },
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Replay-safe key, 8 to 256 printable ASCII characters, kept 24 hours.',
          schema: { type: 'string', minLength: 8, maxLength: 256 },
        },
        'If-None-Match': {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description:
            'An ETag from an earlier response; if it is still current the answer is 304 Not Modified with no body.',
          schema: { type: 'string' },
        },
        'If-Match': {
          name: 'If-Match',
          in: 'header',
          required: false,
          description: 'The ETag from getTheme; a stale one is 409 VERSION_CONFLICT.',
          schema: { type: 'string' },
        },
      },
      headers: {
        'X-Request-Id': { description: 'The request id (echoed or generated).', schema: { type: 'string' } },
        'X-RateLimit-Limit': int('Requests allowed per window.'),
        'X-RateLimit-Remaining': int('Requests left in the current window.'),
        'X-RateLimit-Reset': int('Seconds until the window resets.'),
        'Retry-After': int('Seconds to wait before retrying.'),
        ETag: { description: 'The theme version, for If-Match.', schema: { type: 'string' } },
        ContentETag: {
          description: 'A weak validator of this response, for If-None-Match (304 while nothing in it changed).',
          schema: { type: 'string' },
        },
        'Idempotent-Replayed': {
          description: '"true" when this is a replay of an earlier response.',
          schema: { type: 'string', enum: ['true'] },
        },
        'WWW-Authenticate': { description: 'Bearer challenge.', schema: { type: 'string' } },
      },
      responses: {
        BadRequest: errorResponse(
          'Invalid input: VALIDATION_FAILED, INVALID_PRODUCT_REFERENCE, INVALID_COLLECTION_REFERENCE, UNSAFE_CONTENT, COMMERCE_DATA_FORBIDDEN, LIMIT_EXCEEDED, INVALID_CURSOR, INVALID_IDEMPOTENCY_KEY.',
        ),
        Unauthenticated: errorResponse('UNAUTHENTICATED: no credential, or an unknown, expired or revoked one.', {
          'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' },
        }),
        Forbidden: errorResponse(
          'INSUFFICIENT_SCOPE: authenticated, but a required scope is missing. WWW-Authenticate: Bearer error="insufficient_scope", scope="<every scope the operation needs>", resource_metadata="…".',
          { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
        ),
        NotFound: errorResponse('NOT_FOUND, also for a resource of another store.'),
        Conflict: errorResponse(
          'THEME_NOT_EDITABLE, THEME_IS_ACTIVE, VERSION_CONFLICT, UNDO_CONFLICT, IDEMPOTENCY_KEY_IN_USE or IDEMPOTENCY_KEY_REUSED.',
        ),
        RateLimited: errorResponse('RATE_LIMITED.', { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
        PayloadTooLarge: errorResponse('PAYLOAD_TOO_LARGE.'),
        Internal: errorResponse('INTERNAL (no internals disclosed) or UNAVAILABLE.'),
      },
    },
  }
}
