import { z } from 'zod'
import { layoutOf, type Theme } from '../aggregates/theme/state.ts'
import { locatedSectionSchema, themePageSchema } from '../queries/themes/schemas.ts'
import { findTheme, locateSection, pageOf, sectionsOf } from '../queries/themes/theme-queries.ts'
import { TEMPLATE_NAMES } from '../theme/document.ts'
import { commandContext } from './command-context.ts'
import type { Caller } from '../auth/caller.ts'
import { defineOperation, type Outcome } from './operation.ts'
import type { Services } from '../services.ts'
import { invalidInput, notFound, themeEtag } from './results.ts'
import { applyThemeEdits } from '../commands/theme.ts'
import {
  blockInputSchema,
  expectedVersionSchema,
  pageChangesSchema,
  pageInputSchema,
  sectionInputSchema,
  targetSchema,
  type Edit,
} from '../aggregates/theme/edits.ts'
import { findingsIntroduced, introducedField } from './theme-check-operations.ts'

const themeId = z.string().min(1).max(100).meta({ description: 'Theme id.' })
const pageId = z.string().min(1).max(100).meta({ description: 'Page id.' })
const sectionId = z.string().min(1).max(100).meta({ description: 'Section id.' })
const expectedVersion = expectedVersionSchema.optional()
const themeVersion = z.number().int().meta({ description: 'The theme version after the change.' })

// A single edit is a batch of one: the same validation, events and audit as applyThemeBatch.
async function edit<O>(
  caller: Caller,
  s: Services,
  operation: string,
  id: string,
  ops: Edit[],
  expected: number | undefined,
  pick: (theme: Theme) => O | null,
): Promise<Outcome<O & { themeVersion: number; findings: z.output<typeof introducedField> }>> {
  const before = await findTheme(s.read, caller.storeId, id)
  const result = await applyThemeEdits(s.commands, commandContext(caller, operation), id, {
    operations: ops,
    expectedVersion: expected,
  })
  if (!result.ok) {
    // A single edit of a page or section that does not exist is a plain 404, not a batch issue.
    const issues = (result.error.details?.issues ?? []) as { code: string; message: string }[]
    if (issues.length === 1 && issues[0]!.code === 'NOT_FOUND')
      return { ok: false, error: { code: 'NOT_FOUND', message: issues[0]!.message } }
    return result
  }
  const picked = pick(result.value)
  return {
    ok: true,
    data: {
      ...(picked as O),
      themeVersion: result.value.version,
      findings: await findingsIntroduced(s, caller.storeId, before, result.value, true),
    },
    etag: themeEtag(result.value.version),
  }
}

const findings = introducedField
const pageResult = themePageSchema.extend({ themeVersion, findings })
const sectionResult = locatedSectionSchema.extend({ themeVersion, findings })
const deletedResult = z.object({ deleted: z.literal(true), id: z.string(), themeVersion, findings })

export const listThemePagesOperation = defineOperation({
  operationId: 'listThemePages',
  method: 'GET',
  path: '/api/v1/themes/:id/pages',
  scopes: ['themes:read'],
  tag: 'Theme pages',
  summary: 'List a theme’s custom pages',
  description:
    'Theme pages only (about, FAQ, lookbook...): never cart, checkout or product pages, which the service renders itself.',
  params: z.object({ id: themeId }),
  data: z.object({ pages: z.array(themePageSchema) }),
  successStatus: 200,
  idempotent: false,
  async run(input, caller, s) {
    const theme = await findTheme(s.read, caller.storeId, input.id)
    if (!theme) return notFound('theme')
    return { ok: true, data: { pages: theme.document.pages }, etag: themeEtag(theme.version) }
  },
})

export const createThemePageOperation = defineOperation({
  operationId: 'createThemePage',
  method: 'POST',
  path: '/api/v1/themes/:id/pages',
  scopes: ['themes:write', 'pages:write'],
  tag: 'Theme pages',
  summary: 'Create a custom page in a draft theme',
  description:
    'Adds a page (slug, title, status draft|published, layout of sections). Slugs are unique per theme; cart, checkout, products and similar are reserved.',
  params: z.object({ id: themeId }),
  // The page's own id is `pageId` here: `id` is the theme's, in the path and in MCP arguments.
  body: pageInputSchema
    .omit({ id: true })
    .extend({ pageId: pageId.optional().meta({ description: 'Generated when omitted.' }), expectedVersion }),
  data: pageResult,
  successStatus: 201,
  idempotent: true,
  ifMatch: true,
  mcp: {
    name: 'create_page',
    title: 'Create page',
    description:
      'Add one custom page (about, FAQ) to a draft. Several changes: apply_theme_batch. Next: preview_theme.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async run(input, caller, s) {
    const { id, pageId: given, expectedVersion: expected, ...fields } = input
    const page = { ...fields, id: given ?? s.commands.newId('page') }
    const outcome = await edit(caller, s, 'createThemePage', id, [{ op: 'createPage', page }], expected, (t) =>
      pageOf(t, page.id),
    )
    return outcome.ok ? { ...outcome, status: 201 } : outcome
  },
})

export const updateThemePageOperation = defineOperation({
  operationId: 'updateThemePage',
  method: 'PATCH',
  path: '/api/v1/themes/:id/pages/:pageId',
  scopes: ['themes:write', 'pages:write'],
  tag: 'Theme pages',
  summary: 'Update a custom page of a draft theme',
  description: 'Changes slug, title, status or the whole layout of a page.',
  params: z.object({ id: themeId, pageId }),
  body: z.strictObject({
    slug: z.string().optional(),
    title: z.string().optional(),
    status: z.enum(['draft', 'published']).optional(),
    layout: z.array(sectionInputSchema).optional(),
    expectedVersion,
  }),
  data: pageResult,
  successStatus: 200,
  idempotent: true,
  ifMatch: true,
  mcp: {
    name: 'update_page',
    title: 'Update page',
    description: 'Change one page’s slug, title, status or layout in a draft. Next: preview_theme.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async run(input, caller, s) {
    const { id, pageId: target, expectedVersion: expected, ...rest } = input
    const changes = pageChangesSchema.safeParse(rest)
    if (!changes.success) {
      return invalidInput('', 'give at least one of slug, title, status, layout')
    }
    return edit(
      caller,
      s,
      'updateThemePage',
      id,
      [{ op: 'updatePage', pageId: target, changes: changes.data }],
      expected,
      (t) => pageOf(t, target),
    )
  },
})

export const deleteThemePageOperation = defineOperation({
  operationId: 'deleteThemePage',
  method: 'DELETE',
  path: '/api/v1/themes/:id/pages/:pageId',
  scopes: ['themes:write', 'pages:write'],
  tag: 'Theme pages',
  summary: 'Delete a custom page of a draft theme',
  description: 'Removes the page and its sections.',
  params: z.object({ id: themeId, pageId }),
  data: deletedResult,
  successStatus: 200,
  idempotent: true,
  ifMatch: true,
  mcp: {
    name: 'delete_page',
    title: 'Delete page',
    description: 'Remove a custom page from a draft. Next: preview_theme.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  async run(input, caller, s) {
    return edit(
      caller,
      s,
      'deleteThemePage',
      input.id,
      [{ op: 'deletePage', pageId: input.pageId }],
      input.expectedVersion,
      () => ({ deleted: true as const, id: input.pageId }),
    )
  },
})

export const listThemeSectionsOperation = defineOperation({
  operationId: 'listThemeSections',
  method: 'GET',
  path: '/api/v1/themes/:id/sections',
  scopes: ['themes:read'],
  tag: 'Theme sections',
  summary: 'List a theme’s sections with their location',
  description:
    'Every section of every template and page, in layout order, with its location and index. Filter with template or pageId.',
  params: z.object({ id: themeId }),
  query: z.object({ template: z.enum(TEMPLATE_NAMES).optional(), pageId: pageId.optional() }),
  data: z.object({ sections: z.array(locatedSectionSchema) }),
  successStatus: 200,
  idempotent: false,
  async run(input, caller, s) {
    const theme = await findTheme(s.read, caller.storeId, input.id)
    if (!theme) return notFound('theme')
    return {
      ok: true,
      data: { sections: sectionsOf(theme, { template: input.template, pageId: input.pageId }) },
      etag: themeEtag(theme.version),
    }
  },
})

export const createThemeSectionOperation = defineOperation({
  operationId: 'createThemeSection',
  method: 'POST',
  path: '/api/v1/themes/:id/sections',
  scopes: ['themes:write'],
  tag: 'Theme sections',
  summary: 'Add a section to a template or page of a draft theme',
  description:
    'Adds one section ({ type, settings, blocks? }) at index (default: the end) of a template layout or a page layout. The section id is generated when omitted.',
  params: z.object({ id: themeId }),
  body: z.strictObject({
    target: targetSchema,
    index: z.number().int().min(0).optional(),
    section: sectionInputSchema,
    expectedVersion,
  }),
  data: sectionResult,
  successStatus: 201,
  idempotent: true,
  ifMatch: true,
  mcp: {
    name: 'create_section',
    title: 'Create section',
    description:
      'Add one section to a draft layout. Several changes: apply_theme_batch. Ids from get_products / get_collections. Next: preview_theme.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async run(input, caller, s) {
    const section = { ...input.section, id: input.section.id ?? s.commands.newId('sec') }
    const op: Edit = {
      op: 'createSection',
      target: input.target,
      ...(input.index !== undefined ? { index: input.index } : {}),
      section,
    }
    const outcome = await edit(caller, s, 'createThemeSection', input.id, [op], input.expectedVersion, (t) =>
      locateSection(t, section.id),
    )
    return outcome.ok ? { ...outcome, status: 201 } : outcome
  },
})

export const updateThemeSectionOperation = defineOperation({
  operationId: 'updateThemeSection',
  method: 'PATCH',
  path: '/api/v1/themes/:id/sections/:sectionId',
  scopes: ['themes:write'],
  tag: 'Theme sections',
  summary: 'Update or move a section of a draft theme',
  description:
    'settings are merged into the current settings (a key set to null is removed); blocks replace the blocks; target and/or index move the section.',
  params: z.object({ id: themeId, sectionId }),
  body: z.strictObject({
    settings: z.record(z.string(), z.unknown()).optional(),
    blocks: z.array(blockInputSchema).optional(),
    target: targetSchema.optional(),
    index: z.number().int().min(0).optional(),
    expectedVersion,
  }),
  data: sectionResult,
  successStatus: 200,
  idempotent: true,
  ifMatch: true,
  mcp: {
    name: 'update_section',
    title: 'Update section',
    description: 'Change one section’s settings or blocks, or move it, in a draft. Next: preview_theme.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async run(input, caller, s) {
    const ops: Edit[] = []
    if (input.settings !== undefined || input.blocks !== undefined) {
      ops.push({
        op: 'updateSection',
        sectionId: input.sectionId,
        ...(input.settings ? { settings: input.settings } : {}),
        ...(input.blocks ? { blocks: input.blocks } : {}),
      })
    }
    if (input.target !== undefined || input.index !== undefined) {
      const theme = await findTheme(s.read, caller.storeId, input.id)
      const current = theme ? locateSection(theme, input.sectionId) : null
      if (!current) return notFound(theme ? 'section' : 'theme')
      // Moving to another layout without an index puts the section at its end.
      const destination = input.target ? layoutOf(theme!.document, input.target) : undefined
      const index = input.index ?? (destination ? destination.length : current.index)
      ops.push({
        op: 'moveSection',
        sectionId: input.sectionId,
        ...(input.target ? { target: input.target } : {}),
        index,
      })
    }
    if (ops.length === 0) {
      return invalidInput('', 'give at least one of settings, blocks, target, index')
    }
    return edit(caller, s, 'updateThemeSection', input.id, ops, input.expectedVersion, (t) =>
      locateSection(t, input.sectionId),
    )
  },
})

export const deleteThemeSectionOperation = defineOperation({
  operationId: 'deleteThemeSection',
  method: 'DELETE',
  path: '/api/v1/themes/:id/sections/:sectionId',
  scopes: ['themes:write'],
  tag: 'Theme sections',
  summary: 'Delete a section of a draft theme',
  description: 'Removes the section from its layout.',
  params: z.object({ id: themeId, sectionId }),
  data: deletedResult,
  successStatus: 200,
  idempotent: true,
  ifMatch: true,
  mcp: {
    name: 'delete_section',
    title: 'Delete section',
    description: 'Remove a section from a draft. Next: preview_theme.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  async run(input, caller, s) {
    return edit(
      caller,
      s,
      'deleteThemeSection',
      input.id,
      [{ op: 'deleteSection', sectionId: input.sectionId }],
      input.expectedVersion,
      () => ({ deleted: true as const, id: input.sectionId }),
    )
  },
})
