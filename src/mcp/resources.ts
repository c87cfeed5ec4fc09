import type {
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  Resource,
} from '@modelcontextprotocol/sdk/types.js'
import { getContextOperation } from '../operations/context-operation.ts'
import { scopeError } from '../operations/invoke.ts'
import type { Caller } from '../auth/caller.ts'
import type { OperationDefinition } from '../operations/operation.ts'
import { getThemeOperation, getThemeSchemaOperation, listThemesOperation } from '../operations/theme-operations.ts'
import type { Services } from '../services.ts'
import { JSONRPC, RpcError } from './protocol.ts'

// Read-only resources: the theme schema, the store context and each theme document. Each is
// read by the same operation (and so the same query functions and scope) as its tool.

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

type Target = { op: OperationDefinition; input: Record<string, unknown> }

function targetOf(uri: string): Target | null {
  if (uri === SCHEMA_URI) return { op: getThemeSchemaOperation as OperationDefinition, input: {} }
  if (uri === CONTEXT_URI) return { op: getContextOperation as OperationDefinition, input: {} }
  if (uri.startsWith(THEME_URI_PREFIX)) {
    const id = decodeURIComponent(uri.slice(THEME_URI_PREFIX.length))
    const parsed = getThemeOperation.params!.safeParse({ id })
    if (parsed.success && !id.includes('/')) return { op: getThemeOperation as OperationDefinition, input: parsed.data }
  }
  return null
}

export async function listResources(caller: Caller, services: Services): Promise<ListResourcesResult> {
  const resources: Resource[] = []
  if (!scopeError(getContextOperation as OperationDefinition, caller.scopes)) resources.push(contextResource)
  if (!scopeError(getThemeSchemaOperation as OperationDefinition, caller.scopes)) resources.push(schemaResource)
  if (!scopeError(listThemesOperation as OperationDefinition, caller.scopes)) {
    const listed = await listThemesOperation.run({}, caller, services)
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
  const target = targetOf(uri)
  if (!target)
    throw new RpcError(JSONRPC.RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, {
      code: 'NOT_FOUND',
      uri,
      requestId: caller.requestId,
    })
  const denied = scopeError(target.op, caller.scopes)
  if (denied)
    throw new RpcError(JSONRPC.FORBIDDEN, denied.message, {
      code: denied.code,
      details: denied.details,
      uri,
      requestId: caller.requestId,
    })
  const outcome = await target.op.run(target.input, caller, services)
  if (!outcome.ok) {
    if (outcome.error.code === 'NOT_FOUND')
      throw new RpcError(JSONRPC.RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, {
        code: 'NOT_FOUND',
        uri,
        requestId: caller.requestId,
      })
    throw new RpcError(JSONRPC.INTERNAL_ERROR, outcome.error.message, {
      code: outcome.error.code,
      uri,
      requestId: caller.requestId,
    })
  }
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(outcome.data) }] }
}
