import { z } from 'zod'
import { themeAt } from '../aggregates/theme/history.ts'
import {
  diffRefs,
  listVersions,
  type VersionListItem,
  readThemeHistory,
  resolveRef,
  themeBlame,
  type HistoryReader,
} from '../queries/themes/history.ts'
import { themeSchema } from '../queries/themes/schemas.ts'
import { themeView } from '../queries/themes/theme-queries.ts'
import { paginationQuerySchema } from '../queries/pagination.ts'
import type { Services } from '../services.ts'
import { commandContext } from './command-context.ts'
import { defineOperation, type Outcome } from './operation.ts'
import { paged } from './paged.ts'
import { notFound, themeEtag } from './results.ts'
import { revertTheme } from '../commands/theme.ts'
import { expectedVersionSchema } from '../aggregates/theme/edits.ts'
import { describeEvent } from '../aggregates/describe.ts'

// Theme history (v1 additions): versions, a version's document, diff, blame and revert, all
// replayed from the theme's stream.

const reader = (s: Services): HistoryReader => ({
  db: s.db,
  eventStore: s.eventStore,
  cursorSecret: s.read.cursorSecret,
})
const read = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const
const themeIdParams = z.object({ id: z.string().min(1).max(100).meta({ description: 'Theme id.' }) })
const digits = (v: unknown) => (typeof v === 'string' && /^[0-9]{1,9}$/.test(v) ? Number(v) : v)
const versionNumber = z.preprocess(digits, z.int().min(1)).meta({ description: 'A theme version (1 = created).' })
const ref = z
  .preprocess(digits, z.union([z.int().min(1), z.enum(['live', 'draft'])]))
  .meta({ description: 'A version number, `draft` (this theme now) or `live` (the store’s live theme).' })

const changeSchema = z.object({
  version: z.int(),
  at: z.string(),
  commandId: z.string(),
  command: z.string().meta({ description: 'The operation, e.g. applyThemeBatch, revertTheme.' }),
  actor: z.object({
    kind: z.string().meta({ description: 'api_key, oauth, merchant or system.' }),
    appId: z.string().nullable(),
    credentialId: z.string().nullable(),
    merchantId: z.string().optional(),
  }),
  channel: z.string().meta({ description: 'rest, mcp, dashboard, editor, cli, seed.' }),
  tool: z.string().nullable().meta({ description: 'The MCP tool, for channel mcp.' }),
  requestId: z.string().nullable(),
})

const versionSchema = changeSchema.omit({ version: true }).extend({
  fromVersion: z.int(),
  toVersion: z.int().meta({ description: 'A batch makes several versions: fromVersion to toVersion.' }),
  summary: z.string(),
})

// A value that did not exist on one side (a setting added or removed) is absent there.
const valueChange = z.object({ path: z.string(), old: z.unknown().optional(), new: z.unknown().optional() })
const moved = z.object({ id: z.string(), from: z.int(), to: z.int() })
const removed = z.object({ index: z.int(), id: z.string(), type: z.string() })
const item = z.record(z.string(), z.unknown())
const diffSchema = z
  .object({
    tokens: z.array(valueChange),
    navigation: z.object({ old: z.array(item), new: z.array(item) }).nullable(),
    pages: z.object({
      added: z.array(z.object({ index: z.int(), page: item })),
      removed: z.array(z.object({ index: z.int(), id: z.string(), slug: z.string() })),
      changed: z.array(z.object({ id: z.string(), fields: z.array(valueChange) })),
    }),
    layouts: z.array(
      z.object({
        layout: z.string().meta({ description: 'templates.<name> or pages.<pageId>.' }),
        added: z.array(z.object({ index: z.int(), section: item })),
        removed: z.array(removed),
        moved: z.array(moved),
        changed: z.array(
          z.object({
            id: z.string(),
            type: z.string(),
            settings: z.array(valueChange),
            blocks: z
              .object({
                added: z.array(z.object({ index: z.int(), block: item })),
                removed: z.array(removed),
                moved: z.array(moved),
                changed: z.array(z.object({ id: z.string(), type: z.string(), settings: z.array(valueChange) })),
              })
              .nullable(),
          }),
        ),
      }),
    ),
  })
  .meta({
    id: 'ThemeDiff',
    description: 'Structural changes from `from` to `to`; sections and blocks are matched by id.',
  })

const refSchema = z.object({
  ref: z.union([z.int(), z.string()]),
  themeId: z.string().nullable(),
  version: z.int().nullable(),
})

export const listThemeVersionsOperation = defineOperation({
  operationId: 'listThemeVersions',
  method: 'GET',
  path: '/api/v1/themes/:id/versions',
  scopes: ['themes:read'],
  tag: 'Theme history',
  summary: 'List a theme’s versions',
  description:
    'One entry per command that changed the theme, newest first: the versions it made, time, actor, channel and MCP tool, request id and a readable summary (as in the developer-activity view). Paginated.',
  params: themeIdParams,
  query: paginationQuerySchema,
  data: z.object({ versions: z.array(versionSchema) }),
  paginated: true,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'list_theme_versions',
    title: 'List theme versions',
    description:
      'A theme’s history, newest first: who changed what, when, via which tool. Use to pick a version for diff_theme, get_theme_version or revert_theme.',
    annotations: read,
  },
  async run(input, caller, s) {
    const history = await readThemeHistory(reader(s), caller.storeId, input.id)
    if (!history) return notFound('theme')
    return paged('versions', () => listVersions(reader(s), history, input)) as Promise<
      Outcome<{ versions: VersionListItem[] }>
    >
  },
})

export const getThemeVersionOperation = defineOperation({
  operationId: 'getThemeVersion',
  method: 'GET',
  path: '/api/v1/themes/:id/versions/:version',
  scopes: ['themes:read'],
  tag: 'Theme history',
  summary: 'A theme as it was at a version',
  description: 'The theme record and document at that version, replayed from its events.',
  params: themeIdParams.extend({ version: versionNumber }),
  data: themeSchema,
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'get_theme_version',
    title: 'Get theme version',
    description: 'A theme’s document as it was at an earlier version. Compare with diff_theme.',
    annotations: read,
  },
  async run(input, caller, s) {
    const history = await readThemeHistory(reader(s), caller.storeId, input.id)
    if (!history) return notFound('theme')
    const then = themeAt(history.events, input.version)
    if (!then) return notFound(`version ${input.version}`)
    return { ok: true, data: themeView(then, s.baseUrl) }
  },
})

export const diffThemeOperation = defineOperation({
  operationId: 'diffTheme',
  method: 'GET',
  path: '/api/v1/themes/:id/diff',
  scopes: ['themes:read'],
  tag: 'Theme history',
  summary: 'Compare two versions of a theme',
  description:
    'A structural diff between two of: a version number, `draft` (the theme now) and `live` (the store’s live theme; the default theme when none is live). Tokens, navigation, pages, and per layout the sections added, removed, moved (old and new index) and changed (setting path, old and new value), blocks likewise, plus one readable line per change. Defaults: from=live, to=draft, what publishing would change.',
  params: themeIdParams,
  query: z.object({ from: ref.default('live'), to: ref.default('draft') }),
  data: z.object({ from: refSchema, to: refSchema, changes: diffSchema, summary: z.array(z.string()) }),
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'diff_theme',
    title: 'Diff theme',
    description:
      'Changes between two versions, draft or live. Before publish: diff from live to draft, show the merchant the summary.',
    annotations: read,
  },
  async run(input, caller, s) {
    const history = await readThemeHistory(reader(s), caller.storeId, input.id)
    if (!history) return notFound('theme')
    const [from, to] = await Promise.all([
      resolveRef(reader(s), history, input.from),
      resolveRef(reader(s), history, input.to),
    ])
    if (!from) return notFound(`version ${input.from}`)
    if (!to) return notFound(`version ${input.to}`)
    return { ok: true, data: diffRefs(from, to) }
  },
})

export const blameThemeOperation = defineOperation({
  operationId: 'blameTheme',
  method: 'GET',
  path: '/api/v1/themes/:id/blame',
  scopes: ['themes:read'],
  tag: 'Theme history',
  summary: 'Who last changed each section and token',
  description:
    'For every section of the current document, each design token and the navigation: the last change that touched it (version, time, actor, app, channel, MCP tool, request id).',
  params: themeIdParams,
  data: z.object({
    tokens: z.record(z.string(), changeSchema.nullable()),
    navigation: changeSchema.nullable(),
    sections: z.array(z.object({ id: z.string(), type: z.string(), layout: z.string(), last: changeSchema })),
  }),
  successStatus: 200,
  idempotent: false,
  mcp: {
    name: 'blame_theme',
    title: 'Blame theme',
    description:
      'Last change of each section and the tokens (who, when, tool). Use before overwriting someone else’s work.',
    annotations: read,
  },
  async run(input, caller, s) {
    const history = await readThemeHistory(reader(s), caller.storeId, input.id)
    if (!history) return notFound('theme')
    return { ok: true, data: themeBlame(history) }
  },
})

export const revertThemeOperation = defineOperation({
  operationId: 'revertTheme',
  method: 'POST',
  path: '/api/v1/themes/:id/revert',
  scopes: ['themes:write'],
  tag: 'Theme history',
  summary: 'Revert a draft to a version, or undo one command',
  description:
    'With toVersion: makes the draft equal to that earlier version. With commandId (from listThemeVersions): undoes that one command, refused with 409 UNDO_CONFLICT and details.conflicts when later changes touched the same paths. Either way, compensating events are appended as a new version; nothing is erased. Draft only.',
  params: themeIdParams,
  body: z
    .strictObject({
      toVersion: versionNumber.optional(),
      commandId: z.string().min(1).max(100).optional().meta({ description: 'A command id from listThemeVersions.' }),
      expectedVersion: expectedVersionSchema.optional(),
    })
    .refine((b) => (b.toVersion === undefined) !== (b.commandId === undefined), {
      message: 'give exactly one of toVersion and commandId',
      path: ['toVersion'],
    }),
  data: z.object({
    theme: themeSchema,
    changes: z.array(z.string()).meta({ description: 'What the revert changed, one line per change.' }),
  }),
  successStatus: 200,
  idempotent: true,
  ifMatch: true,
  etag: true,
  mcp: {
    name: 'revert_theme',
    title: 'Revert theme',
    description:
      'Restore a draft to an earlier version (toVersion) or undo one command (commandId), as a new version. diff_theme first; next preview_theme.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  async run(input, caller, s) {
    const result = await revertTheme(s.commands, commandContext(caller, 'revertTheme'), input.id, input)
    if (!result.ok) return result
    const changes = result.decided.flatMap((e) => describeEvent(e, e.streamId) ?? [])
    return {
      ok: true,
      data: { theme: themeView(result.value, s.baseUrl), changes },
      etag: themeEtag(result.value.version),
    }
  },
})
