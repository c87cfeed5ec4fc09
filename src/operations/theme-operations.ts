import { z } from 'zod'
import type { Theme } from '../aggregates/theme/state.ts'
import { issuePreviewToken } from '../preview/tokens.ts'
import { themeSchema, themeSummarySchema } from '../queries/themes/schemas.ts'
import { findTheme, findThemeJson, listThemes, themeSummary, themeView } from '../queries/themes/theme-queries.ts'
import { themeSchemaDescription } from '../theme/index.ts'
import { commandContext } from './command-context.ts'
import { defineOperation } from './operation.ts'
import {
  createTheme,
  duplicateTheme,
  publishTheme,
  archiveTheme,
  updateTheme,
  applyThemeEdits,
  recordPreviewIssued,
} from '../commands/theme.ts'
import {
  batchRequestSchema,
  expectedVersionSchema,
  tokenChangesSchema,
  navigationInputSchema,
} from '../aggregates/theme/edits.ts'
import { describeEvent } from '../aggregates/describe.ts'
import { fromResult, invalidInput, jsonOutcome, notFound, themeEtag } from './results.ts'
import { findingsIntroduced, introducedField, versionFindings } from './theme-check-operations.ts'
import { findingSchema, type Finding } from '../checks/finding.ts'
import type { Caller } from '../auth/caller.ts'
import type { Services } from '../services.ts'
import type { Outcome } from './operation.ts'

const themeIdParams = z.object({ id: z.string().min(1).max(100).meta({ description: 'Theme id.' }) })
const versionBody = { expectedVersion: expectedVersionSchema.optional() }
const etagOf = (t: Theme) => themeEtag(t.version)

export const listThemesOperation = defineOperation({
  operationId: 'listThemes',
  method: 'GET',
  path: '/api/v1/themes',
  scopes: ['themes:read'],
  tag: 'Themes',
  summary: 'List the store’s themes',
  description:
    'Private drafts, private themes and the active theme of the connected store, oldest first (not paginated: a store has at most 20 themes that are not archived). Archived themes are included with includeArchived=true.',
  query: z.object({
    includeArchived: z.enum(['true', 'false']).optional().meta({ description: 'Also list archived themes.' }),
  }),
  data: z.object({ themes: z.array(themeSummarySchema) }),
  successStatus: 200,
  idempotent: false,
  mcp: [
    {
      name: 'list_themes',
      title: 'List themes',
      description: 'The store’s themes with status and version. Use to find a draft to continue before create_theme.',
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    {
      name: 'get_themes',
      title: 'Get themes',
      description: 'Same as list_themes. get_context already includes the themes.',
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
  ],
  async run(input, caller, s) {
    const themes = await listThemes(s.read, caller.storeId, { includeArchived: input.includeArchived === 'true' })
    return { ok: true, data: { themes: themes.map((t) => themeSummary(t, s.baseUrl)) } }
  },
})

export const createThemeOperation = defineOperation({
  operationId: 'createTheme',
  method: 'POST',
  path: '/api/v1/themes',
  scopes: ['themes:create'],
  tag: 'Themes',
  summary: 'Create a private draft theme',
  description:
    'Creates a private draft from the default starting document. It never publishes. Create one only when no draft exists (see workflow.next in getContext).',
  body: z.strictObject({
    name: z.string().min(1).max(100).meta({ description: 'A name the merchant will recognise.' }),
    provider: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
      .meta({ description: 'The calling agent kind, e.g. claude, chatgpt, cursor, custom.' }),
  }),
  data: themeSchema,
  successStatus: 201,
  idempotent: true,
  etag: true,
  mcp: {
    name: 'create_theme',
    title: 'Create draft theme',
    description: 'Create a private draft (never live). Only when get_context shows no draft. Next: apply_theme_batch.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async run(input, caller, s) {
    const result = await createTheme(s.commands, commandContext(caller, 'createTheme'), input)
    return fromResult(result, (t) => themeView(t, s.baseUrl), { status: 201, etag: etagOf })
  },
})

export const getThemeSchemaOperation = defineOperation({
  operationId: 'getThemeSchema',
  method: 'GET',
  path: '/api/v1/themes/schema',
  scopes: ['themes:read'],
  tag: 'Themes',
  summary: 'The canonical theme schema',
  description:
    'Every allowed section type with its settings, blocks and allowed templates, the reference shapes (products and collections by id only), the rich-text subset, fonts, presets and limits, as JSON Schema generated from the validating schemas. It does not change during a session: fetch it once.',
  data: z.record(z.string(), z.unknown()),
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_theme_schema',
    title: 'Get theme schema',
    description: 'Section types, settings, reference rules and limits. Once per session, before designing.',
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async run() {
    return { ok: true, data: themeSchemaDescription() as Record<string, unknown> }
  },
})

export const getThemeOperation = defineOperation({
  operationId: 'getTheme',
  method: 'GET',
  path: '/api/v1/themes/:id',
  scopes: ['themes:read'],
  tag: 'Themes',
  summary: 'Get a theme with its document',
  description: 'The theme record and its full document. The ETag header carries the version for If-Match.',
  params: themeIdParams,
  data: themeSchema,
  successStatus: 200,
  idempotent: false,
  etag: true,
  mcp: {
    name: 'get_theme',
    title: 'Get theme',
    description: 'A theme’s full document and version. Use before editing; pass the version as expectedVersion.',
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async run(input, caller, s) {
    // The document goes from PostgreSQL to the response as text (MCP parses it on use).
    const found = await findThemeJson(s.read, caller.storeId, input.id)
    if (!found) return notFound('theme')
    return jsonOutcome(found.json, { etag: themeEtag(found.version) })
  },
})

export const updateThemeOperation = defineOperation({
  operationId: 'updateTheme',
  method: 'PATCH',
  path: '/api/v1/themes/:id',
  scopes: ['themes:write'],
  tag: 'Themes',
  summary: 'Update a draft theme’s name, tokens or navigation',
  description:
    'Draft only (409 THEME_NOT_EDITABLE otherwise). Tokens are merged; navigation is replaced. For layouts, pages and sections use applyThemeBatch.',
  params: themeIdParams,
  body: z.strictObject({
    name: z.string().min(1).max(100).optional(),
    tokens: tokenChangesSchema.optional(),
    navigation: navigationInputSchema.optional(),
    ...versionBody,
  }),
  data: themeSchema.extend({ findings: introducedField }),
  successStatus: 200,
  idempotent: true,
  ifMatch: true,
  etag: true,
  mcp: {
    name: 'update_theme',
    title: 'Update theme',
    description:
      'Rename a draft or change its tokens (colors, font, logo) or navigation. Sections and pages: apply_theme_batch.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async run(input, caller, s) {
    if (input.name === undefined && input.tokens === undefined && input.navigation === undefined) {
      return invalidInput('', 'give at least one of name, tokens, navigation')
    }
    const before = await findTheme(s.read, caller.storeId, input.id)
    const result = await updateTheme(s.commands, commandContext(caller, 'updateTheme'), input.id, input as never)
    if (!result.ok) return result
    const findings = await findingsIntroduced(s, caller.storeId, before, result.value, true)
    return { ok: true, data: { ...themeView(result.value, s.baseUrl), findings }, etag: etagOf(result.value) }
  },
})

export const archiveThemeOperation = defineOperation({
  operationId: 'archiveTheme',
  method: 'DELETE',
  path: '/api/v1/themes/:id',
  scopes: ['themes:write'],
  tag: 'Themes',
  summary: 'Archive a theme',
  description:
    'Archives any theme but the live one (409 THEME_IS_ACTIVE). Archived themes no longer count against the limit of 20.',
  params: themeIdParams,
  data: themeSchema,
  successStatus: 200,
  idempotent: true,
  ifMatch: true,
  mcp: {
    name: 'archive_theme',
    title: 'Archive theme',
    description: 'Retire a theme that is not live; it can no longer be edited or published.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  async run(input, caller, s) {
    const result = await archiveTheme(s.commands, commandContext(caller, 'archiveTheme'), input.id, {
      expectedVersion: input.expectedVersion,
    })
    return fromResult(result, (t) => themeView(t, s.baseUrl))
  },
})

export const duplicateThemeOperation = defineOperation({
  operationId: 'duplicateTheme',
  method: 'POST',
  path: '/api/v1/themes/:id/duplicate',
  scopes: ['themes:create'],
  tag: 'Themes',
  summary: 'Duplicate a theme as a new draft',
  description: 'Copies any theme of the store (including the live one) into a new private draft.',
  params: themeIdParams,
  body: z.strictObject({
    name: z.string().min(1).max(100).optional().meta({ description: 'Defaults to "Copy of <name>".' }),
    provider: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
      .optional()
      .meta({ description: 'Defaults to the source theme’s provider.' }),
  }),
  data: themeSchema,
  successStatus: 201,
  idempotent: true,
  etag: true,
  mcp: {
    name: 'duplicate_theme',
    title: 'Duplicate theme',
    description: 'Copy a theme (e.g. the live one) into a new draft to edit. Next: apply_theme_batch.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async run(input, caller, s) {
    const source = await findTheme(s.read, caller.storeId, input.id)
    const result = await duplicateTheme(s.commands, commandContext(caller, 'duplicateTheme'), input.id, {
      name: input.name,
      provider: input.provider ?? source?.provider ?? 'custom',
    })
    return fromResult(result, (t) => themeView(t, s.baseUrl), { status: 201, etag: etagOf })
  },
})

// The agent-facing advice on a refused publish (REST details.hint, the MCP tool error alike).
const PUBLISH_CONFLICT_HINT =
  'The theme changed after the version you previewed. Call diffTheme / diff_theme from that version to draft, preview it again, and publish with the new version as expectedVersion (If-Match) once the merchant confirms.'

const publishedSchema = themeSchema.extend({
  checkErrors: z.array(findingSchema).meta({
    description:
      'The theme checks’ errors the version went live with (as getThemeChecks reports them); empty when none. The merchant’s activity view says the theme went live with them.',
  }),
})

export const publishThemeOperation = defineOperation({
  operationId: 'publishTheme',
  method: 'POST',
  path: '/api/v1/themes/:id/publish',
  scopes: ['themes:publish'],
  tag: 'Themes',
  summary: 'Publish a theme to the live storefront',
  description:
    'Validates the document, then in one transaction makes it the live theme and turns the former live theme private (re-publishing a private theme is the one-step rollback). Requires themes:publish, which merchants grant only for agent-led publishing. Pass the version you previewed (If-Match or expectedVersion): if the theme changed after it, the publish is refused with 409 VERSION_CONFLICT and nothing changes. diffTheme (from=live, to=draft) shows what will go live.',
  params: themeIdParams,
  body: z.strictObject({ ...versionBody }),
  data: publishedSchema,
  successStatus: 200,
  idempotent: true,
  ifMatch: true,
  mcp: {
    name: 'publish_theme',
    title: 'Publish theme',
    description:
      'Make a draft live, only with the merchant’s explicit permission. First diff_theme (from live to draft) and show it; pass expectedVersion = the version you previewed (a later change: VERSION_CONFLICT). Without themes:publish, ask the merchant.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  async run(input, caller, s) {
    return publishWithChecks(s, caller, input.id, input.expectedVersion, 'publishTheme')
  },
})

/** The theme checks' errors of a theme's current version (none for the live theme: nothing changes). */
export async function checkErrorsOf(s: Services, storeId: string, theme: Theme): Promise<Finding[]> {
  if (theme.status === 'active') return []
  return (await versionFindings(s, storeId, theme)).filter((f) => f.severity === 'error')
}

// Publishing runs the theme checks on the version going live: their errors ride in the publish
// event (the activity view says the theme went live with them) and in the answer. Agents may
// publish over them; the merchant's dashboard asks first (src/operations/merchant/publish.ts).
export async function publishWithChecks(
  s: Services,
  caller: Caller,
  id: string,
  expectedVersion: number | undefined,
  operationId: string,
  // The caller's own reading, when it already checked (the merchant's confirmation did).
  checked?: { theme: Theme; errors: Finding[] },
): Promise<Outcome<z.output<typeof publishedSchema>>> {
  const theme = checked?.theme ?? (await findTheme(s.read, caller.storeId, id))
  if (!theme) return notFound('theme')
  const found = checked?.errors ?? (await checkErrorsOf(s, caller.storeId, theme))
  const result = await publishTheme(s.commands, commandContext(caller, operationId), id, {
    expectedVersion,
    checkErrors: { count: found.length, rules: [...new Set(found.map((f) => f.rule))] },
  })
  if (!result.ok && result.error.code === 'VERSION_CONFLICT')
    return {
      ok: false,
      error: { ...result.error, details: { ...result.error.details, hint: PUBLISH_CONFLICT_HINT } },
    }
  return fromResult(result, (t) => ({ ...themeView(t, s.baseUrl), checkErrors: found }))
}

export const previewDataSchema = z.object({
  previewUrl: z.string().meta({
    description:
      'Signed, short-lived URL rendering the draft with the real catalog. Append a path (/products/<id>, /collections/<id>, /pages/<slug>) to preview other pages; query parameters are kept.',
  }),
  expiresAt: z.string(),
  themeId: z.string(),
  themeVersion: z
    .number()
    .int()
    .meta({ description: 'The version this preview shows; pass it as expectedVersion when publishing.' }),
  findings: z
    .array(findingSchema)
    .meta({ description: 'The check findings of this version (check_theme); fix errors before asking to publish.' }),
})

export const createThemePreviewTokenOperation = defineOperation({
  operationId: 'createThemePreviewToken',
  method: 'POST',
  path: '/api/v1/themes/:id/preview-token',
  scopes: ['themes:read', 'themes:preview'],
  tag: 'Themes',
  summary: 'Issue a signed preview URL',
  description:
    'Returns a previewUrl valid for 15 minutes (purpose theme_preview, bound to this store and theme). The issue is recorded in the audit log. Needs no merchant cookie.',
  params: themeIdParams,
  data: previewDataSchema,
  successStatus: 201,
  idempotent: false,
  mcp: {
    name: 'preview_theme',
    title: 'Preview theme',
    description:
      'Signed preview URL (15 min) of a theme’s current version, with the real catalogue. After each round of changes; next diff_theme, then publish_theme with this version.',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async run(input, caller, s) {
    const theme = await findTheme(s.read, caller.storeId, input.id)
    if (!theme) return notFound('theme')
    const issued = await issuePreviewToken(s.signingSecret, {
      storeId: caller.storeId,
      themeId: theme.themeId,
      themeVersion: theme.version,
      now: s.clock(),
    })
    const recorded = await recordPreviewIssued(
      s.commands,
      commandContext(caller, 'createThemePreviewToken'),
      theme.themeId,
      { tokenId: issued.tokenId, expiresAt: issued.expiresAt.toISOString() },
    )
    const findings = recorded.ok ? await versionFindings(s, caller.storeId, theme) : []
    return fromResult(
      recorded,
      (t) => ({
        previewUrl: `${s.baseUrl}/preview/${issued.token}`,
        expiresAt: issued.expiresAt.toISOString(),
        themeId: t.themeId,
        themeVersion: t.version,
        findings,
      }),
      { status: 201 },
    )
  },
})

export const batchResultSchema = z.object({
  theme: themeSchema,
  dryRun: z.boolean(),
  applied: z.number().int().meta({ description: 'How many operations were applied (0 on a dry run).' }),
  changes: z.array(z.string()).meta({ description: 'What the batch changed, one line per change.' }),
  findings: introducedField,
})

export const applyThemeBatchOperation = defineOperation({
  operationId: 'applyThemeBatch',
  method: 'POST',
  path: '/api/v1/themes/:id/batch',
  scopes: ['themes:write'],
  tag: 'Themes',
  summary: 'Apply a batch of draft edits, all or nothing',
  description:
    'An ordered list of up to 100 operations over pages, sections, tokens and theme navigation (createPage, updatePage, deletePage, createSection, updateSection, deleteSection, moveSection, updateTokens, setNavigation). Validated as a whole and applied all-or-nothing; an invalid batch returns every problem with the index of its operation. dryRun validates without applying. Prefer one batch over many single calls.',
  params: themeIdParams,
  body: batchRequestSchema,
  data: batchResultSchema,
  successStatus: 200,
  idempotent: true,
  ifMatch: true,
  etag: true,
  mcp: {
    name: 'apply_theme_batch',
    title: 'Apply theme batch',
    description:
      'The main design tool: many edits to a draft in one all-or-nothing call. Product and collection ids only from get_products / get_collections. dryRun validates. Next: preview_theme.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async run(input, caller, s) {
    const before = await findTheme(s.read, caller.storeId, input.id)
    const result = await applyThemeEdits(s.commands, commandContext(caller, 'applyThemeBatch'), input.id, input)
    if (!result.ok) return result
    const changes = result.decided.flatMap((e) => describeEvent(e, e.streamId) ?? [])
    return {
      ok: true,
      data: {
        theme: themeView(result.value, s.baseUrl),
        dryRun: input.dryRun,
        applied: input.dryRun ? 0 : input.operations.length,
        changes,
        findings: await findingsIntroduced(s, caller.storeId, before, result.value, !input.dryRun),
      },
      etag: etagOf(result.value),
    }
  },
})
