import { z } from 'zod'
import { brandingSchema, storeSchema } from '../queries/commerce/schemas.ts'
import { readStoreContext } from '../queries/context/store-context.ts'
import { currentDraft, workflowNext, workflowSchema } from '../queries/context/workflow.ts'
import { themeSummarySchema } from '../queries/themes/schemas.ts'
import { findTheme, themeSummary } from '../queries/themes/theme-queries.ts'
import { versionFindings } from './theme-check-operations.ts'
import { LIMITS } from '../theme/document.ts'
import { defineOperation } from './operation.ts'
import { contentEtag, jsonOutcome, notFound } from './results.ts'
import { readCache } from '../metrics/registry.ts'
import type { Services } from '../services.ts'

const productBrief = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  status: z.string(),
  image: z.string().nullable(),
  inStock: z.boolean(),
})
const collectionBrief = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  productCount: z.number().int(),
})

export const contextSchema = z.object({
  store: storeSchema,
  branding: brandingSchema,
  products: z
    .object({ items: z.array(productBrief), total: z.number().int().nullable(), nextCursor: z.string().nullable() })
    .meta({ description: 'The first page of products (ids to reference in sections); page on with listProducts.' }),
  collections: z.object({ items: z.array(collectionBrief), nextCursor: z.string().nullable() }),
  themes: z.array(themeSummarySchema),
  activeThemeId: z.string().nullable(),
  currentDraftId: z
    .string()
    .nullable()
    .meta({ description: 'The most recently changed draft: continue it rather than creating another.' }),
  grantedScopes: z.array(z.string()),
  limits: z.record(z.string(), z.number()),
  schema: z.object({
    operationId: z.literal('getThemeSchema'),
    tool: z.literal('get_theme_schema'),
    documentVersion: z.number().int(),
  }),
  workflow: workflowSchema,
})

export const getContextOperation = defineOperation({
  operationId: 'getContext',
  method: 'GET',
  path: '/api/v1/context',
  scopes: ['store:read'],
  tag: 'Store',
  summary: 'Safe store context for theme agents',
  description:
    'Branding, the first products and collections, the themes and a state-aware workflow.next ([{ action, reason }]) that tells the agent what to do next. Call it once at the start of a session; it is the only call needed to get going.',
  data: contextSchema,
  successStatus: 200,
  idempotent: false,
  etag: 'content',
  mcp: {
    name: 'get_context',
    title: 'Get store context',
    description:
      'Start here, once per session: branding, real product and collection ids, themes, and workflow.next (what to call next).',
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async run(_input, caller, s) {
    const scopes = [...caller.scopes].sort()
    // Warm: the response from memory, no statement, while the change feed is healthy (dropped when
    // the store's row, settings or any of its themes' rows change).
    const warm = s.read.caches?.warmContexts
    const made = warm
      ? await warm.get(
          `${caller.storeId} ${scopes.join(' ')}`,
          () => make(caller.storeId, scopes, caller.scopes, s),
          () => caller.storeId,
        )
      : await make(caller.storeId, scopes, caller.scopes, s)
    return made ? jsonOutcome(made.json, { etag: made.etag }) : notFound('store')
  },
})

// One statement: the store and catalogue part and the themes (src/queries/context/store-context.ts);
// only the themes' stamp when the response held for these scopes is still current.
async function make(
  storeId: string,
  scopes: string[],
  granted: Parameters<typeof workflowNext>[1],
  s: Services,
): Promise<{ json: string; etag: string } | null> {
  const responses = s.read.caches?.contextJson
  const held = responses?.get(storeId, scopes.join(' '))
  const read = await readStoreContext(s.read, storeId, held?.stamp)
  if (!read) return null
  if (!read.context) {
    readCache.inc({ cache: 'context_json', result: 'hit' })
    return { json: held!.json, etag: held!.etag }
  }
  const { store } = read.context
  const summaries = read.context.themes.map((t) => themeSummary(t, s.baseUrl))
  const draft = currentDraft(summaries)
  const data: z.output<typeof contextSchema> = {
    store,
    branding: store.branding,
    products: { items: read.context.products.items, total: null, nextCursor: read.context.products.nextCursor },
    collections: read.context.collections,
    themes: summaries,
    activeThemeId: summaries.find((t) => t.status === 'active')?.id ?? null,
    currentDraftId: draft?.id ?? null,
    grantedScopes: scopes,
    limits: { ...LIMITS },
    schema: { operationId: 'getThemeSchema' as const, tool: 'get_theme_schema' as const, documentVersion: 1 },
    workflow: workflowNext(summaries, granted, await draftCheckErrors(s, storeId, draft)),
  }
  const json = JSON.stringify(data)
  const etag = contentEtag(json)
  if (responses && read.stamp !== null) {
    responses.set(storeId, scopes.join(' '), { stamp: read.stamp, json, etag })
    readCache.inc({ cache: 'context_json', result: 'miss' })
  }
  return { json, etag }
}

// The checks run once the draft is previewed, where workflow.next would ask to publish it: an
// agent fixes their errors first (issue 36). Earlier stages do not need them.
async function draftCheckErrors(s: Services, storeId: string, draft: ReturnType<typeof currentDraft>): Promise<number> {
  if (!draft || draft.version === 1 || draft.lastPreviewedVersion !== draft.version) return 0
  const theme = await findTheme(s.read, storeId, draft.id)
  if (!theme || theme.version !== draft.version) return 0
  return (await versionFindings(s, storeId, theme)).filter((f) => f.severity === 'error').length
}
