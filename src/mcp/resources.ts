import type {
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  Resource,
} from '@modelcontextprotocol/sdk/types.js'
import { getContextOperation } from '../operations/context-operation.ts'
import { invoke, scopeError, type InputParts } from '../operations/invoke.ts'
import type { Caller } from '../auth/caller.ts'
import type { OperationDefinition, Outcome } from '../operations/operation.ts'
import { getThemeOperation, getThemeSchemaOperation, listThemesOperation } from '../operations/theme-operations.ts'
import type { Services } from '../services.ts'
import { JSONRPC, RpcError } from './protocol.ts'
import { readThemeReview, THEME_REVIEW_URI, themeReviewResource } from './theme-review/resource.ts'

// Read-only resources: the theme schema, the store context and each theme document. Each is
// read by the same operation as its tool, through `invoke` (the same scope check, parsing and
// error classification).

const JSON_TYPE = 'application/json'
export const SCHEMA_URI = 'storefront://schema'
export const CONTEXT_URI = 'storefront://context'
export const THEME_URI_PREFIX = 'storefront://themes/'
export const THEME_URI_TEMPLATE = 'storefront://themes/{id}'

const schemaResource: Resource = {
  uri: SCHEMA_URI,
  name: 'theme-schema',
  title: 'Theme schema',
  description:
    'The canonical theme schema: section types, settings, reference rules and limits (same as get_theme_schema). It does not change during a session.',
  mimeType: JSON_TYPE,
}
const contextResource: Resource = {
  uri: CONTEXT_URI,
  name: 'store-context',
  title: 'Store context',
  description:
    'Branding, first products and collections, themes and workflow.next of the connected store (same as get_context).',
  mimeType: JSON_TYPE,
}

type Target = { op: OperationDefinition; input: InputParts }

function targetOf(uri: string): Target | null {
  if (uri === SCHEMA_URI) return { op: getThemeSchemaOperation as OperationDefinition, input: {} }
  if (uri === CONTEXT_URI) return { op: getContextOperation as OperationDefinition, input: {} }
  if (uri.startsWith(THEME_URI_PREFIX)) {
    const id = decodeURIComponent(uri.slice(THEME_URI_PREFIX.length))
    const parsed = getThemeOperation.params!.safeParse({ id })
    if (parsed.success && !id.includes('/'))
      return { op: getThemeOperation as OperationDefinition, input: { params: parsed.data } }
  }
  return null
}

// biome-ignore lint/suspicious/noExplicitAny: any operation's input; the output type is what the caller reads
async function read<O>(op: OperationDefinition<any, O>, input: InputParts, caller: Caller, services: Services) {
  return (await invoke(op, services, {
    authentication: { ok: true, caller },
    input,
    logError: (error) => services.logger.error({ err: error, requestId: caller.requestId }, 'MCP resource read failed'),
  })) as Outcome<O>
}

export async function listResources(caller: Caller, services: Services): Promise<ListResourcesResult> {
  const resources: Resource[] = []
  // The review view (an MCP App) serves no store data: listed where its linked tools can run.
  if (!scopeError(listThemesOperation as OperationDefinition, caller.scopes))
    resources.push(themeReviewResource(services.baseUrl))
  if (!scopeError(getContextOperation as OperationDefinition, caller.scopes)) resources.push(contextResource)
  if (!scopeError(getThemeSchemaOperation as OperationDefinition, caller.scopes)) resources.push(schemaResource)
  if (!scopeError(listThemesOperation as OperationDefinition, caller.scopes)) {
    const listed = await read(listThemesOperation, {}, caller, services)
    if (listed.ok) {
      for (const t of listed.data.themes) {
        resources.push({
          uri: `${THEME_URI_PREFIX}${encodeURIComponent(t.id)}`,
          name: `theme-${t.id}`,
          title: `Theme “${t.name}” (${t.status}, version ${t.version})`,
          description: `The ${t.status} theme ${t.name} with its full document (same as get_theme).`,
          mimeType: JSON_TYPE,
        })
      }
    }
  }
  return { resources }
}

export const listResourceTemplates = (): ListResourceTemplatesResult => ({
  resourceTemplates: [
    {
      uriTemplate: THEME_URI_TEMPLATE,
      name: 'theme',
      title: 'Theme document',
      description:
        'A theme of the store with its full document (same as get_theme); ids come from list_themes or get_context.',
      mimeType: JSON_TYPE,
    },
  ],
})

// Failures are JSON-RPC errors (resources have no isError): -32002 for an unknown or foreign
// resource, -32003 for a missing scope; data carries the REST error code and details.
export async function readResource(uri: string, caller: Caller, services: Services): Promise<ReadResourceResult> {
  if (uri === THEME_REVIEW_URI) return readThemeReview(services.baseUrl)
  const target = targetOf(uri)
  if (!target)
    throw new RpcError(JSONRPC.RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, {
      code: 'NOT_FOUND',
      uri,
      requestId: caller.requestId,
    })
  const outcome = await read(target.op, target.input, caller, services)
  if (!outcome.ok) {
    const { code, message, details } = outcome.error
    if (code === 'INSUFFICIENT_SCOPE')
      throw new RpcError(JSONRPC.FORBIDDEN, message, { code, details, uri, requestId: caller.requestId })
    // An id the operation's schema refuses names no resource, like an unknown or foreign one.
    if (code === 'NOT_FOUND' || code === 'VALIDATION_FAILED')
      throw new RpcError(JSONRPC.RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, {
        code: 'NOT_FOUND',
        uri,
        requestId: caller.requestId,
      })
    throw new RpcError(JSONRPC.INTERNAL_ERROR, message, { code, uri, requestId: caller.requestId })
  }
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(outcome.data) }] }
}
