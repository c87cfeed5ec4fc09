import { z } from 'zod'

// What an agent should do next, from the store's theme state and the credential's scopes.
// Pure, so every state is a unit test.

export const workflowStepSchema = z.object({
  action: z
    .string()
    .meta({ description: 'The operationId to call next (or askMerchant* when only the merchant can act).' }),
  reason: z.string(),
  tool: z.string().nullable().meta({ description: 'The MCP tool for the same action.' }),
  arguments: z.record(z.string(), z.union([z.string(), z.number()])).meta({
    description:
      'The identifying arguments of `tool`, by its own parameter names ({ "id": "thm_…" }; for publishing also expectedVersion). Pass them as they are and add the content arguments (a batch\'s operations, a new theme\'s name) yourself. Empty when the step names no theme.',
  }),
  themeId: z.string().nullable().meta({
    description: 'The theme the step is about (kept for v1 clients). Tools take it as `id`: use `arguments`.',
  }),
})
export const workflowSchema = z.object({
  stage: z.enum(['design', 'preview', 'publish', 'blocked']),
  next: z.array(workflowStepSchema),
})
export type WorkflowStep = z.output<typeof workflowStepSchema>
export type Workflow = z.output<typeof workflowSchema>

export type WorkflowTheme = {
  id: string
  name: string
  status: string
  version: number
  lastPreviewedVersion: number | null
  updatedAt: string
  editorUrl: string
}

// The tools name a theme `id` (the REST path's :id); `themeId` stays on the step for v1 clients,
// which read it, but agents that copied it into a tool call were refused ("Unrecognized key").
const step = (
  action: string,
  tool: string | null,
  reason: string,
  themeId: string | null = null,
  extra: Record<string, string | number> = {},
): WorkflowStep => ({
  action,
  reason,
  tool,
  arguments: tool && themeId ? { id: themeId, ...extra } : {},
  themeId,
})

export function currentDraft(themes: readonly WorkflowTheme[]): WorkflowTheme | null {
  const drafts = themes.filter((t) => t.status === 'draft').sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1))
  return drafts[0] ?? null
}

// draftCheckErrors: the theme checks' errors in the current draft's version, counted by the
// caller once the draft is previewed (the checks need the catalogue and media).
export function workflowNext(
  themes: readonly WorkflowTheme[],
  granted: ReadonlySet<string>,
  draftCheckErrors = 0,
): Workflow {
  const draft = currentDraft(themes)
  const active = themes.find((t) => t.status === 'active') ?? null
  if (!draft) {
    if (!granted.has('themes:create')) {
      return {
        stage: 'blocked',
        next: [
          step(
            'askMerchantForScope',
            null,
            'There is no draft theme and this credential lacks themes:create. Ask the merchant to grant it.',
          ),
        ],
      }
    }
    const next = [
      step('getThemeSchema', 'get_theme_schema', 'Read the section catalogue and limits once before designing.'),
      step(
        'createTheme',
        'create_theme',
        'No draft theme exists yet. Create one (it stays private and never goes live by itself), then design it with applyThemeBatch.',
      ),
    ]
    if (active)
      next.push(
        step(
          'duplicateTheme',
          'duplicate_theme',
          `Or start from the live theme "${active.name}" by duplicating it into a new draft.`,
          active.id,
        ),
      )
    return { stage: 'design', next }
  }
  if (draft.version === 1) {
    return {
      stage: 'design',
      next: [
        step(
          'applyThemeBatch',
          'apply_theme_batch',
          `Draft "${draft.name}" is still the untouched starting theme. Design it in one batch; read real product and collection ids with listProducts / listCollections first.`,
          draft.id,
        ),
      ],
    }
  }
  if (draft.lastPreviewedVersion !== draft.version) {
    if (!granted.has('themes:preview')) {
      return {
        stage: 'blocked',
        next: [
          step(
            'askMerchantForScope',
            null,
            'The draft has changes to review but this credential lacks themes:preview. Ask the merchant to grant it, or to open the draft in the editor.',
            draft.id,
          ),
        ],
      }
    }
    return {
      stage: 'preview',
      next: [
        step(
          'createThemePreviewToken',
          'preview_theme',
          `Draft "${draft.name}" changed since its last preview (version ${draft.version}). Preview it to check the design with the real catalog.`,
          draft.id,
        ),
        step(
          'applyThemeBatch',
          'apply_theme_batch',
          'Keep refining in batches if something needs to change.',
          draft.id,
        ),
      ],
    }
  }
  if (draftCheckErrors > 0) {
    const n = draftCheckErrors
    return {
      stage: 'design',
      next: [
        step(
          'getThemeChecks',
          'check_theme',
          `The theme checks find ${n} error${n === 1 ? '' : 's'} in draft "${draft.name}" (version ${draft.version}): unreadable text, dead links or empty sections. Read each with its fix and correct ${n === 1 ? 'it' : 'them'} before asking the merchant to publish.`,
          draft.id,
        ),
        step('applyThemeBatch', 'apply_theme_batch', 'Fix the errors in one batch, then preview again.', draft.id),
      ],
    }
  }
  const refine = step(
    'applyThemeBatch',
    'apply_theme_batch',
    'Refine further in batches if the merchant asks for changes.',
    draft.id,
  )
  if (granted.has('themes:publish')) {
    return {
      stage: 'publish',
      next: [
        step(
          'publishTheme',
          'publish_theme',
          `Draft "${draft.name}" was previewed at version ${draft.version}. Show the merchant what goes live (diffTheme / diff_theme from live to draft), then publish with expectedVersion ${draft.version} (the version previewed) when they confirm; a newer change is refused with VERSION_CONFLICT. The current live theme becomes private and can be re-published to roll back.`,
          draft.id,
          { expectedVersion: draft.version },
        ),
        refine,
      ],
    }
  }
  return {
    stage: 'publish',
    next: [
      step(
        'askMerchantToPublish',
        null,
        `Draft "${draft.name}" is previewed and ready. Publishing needs themes:publish, which this credential does not have: share the preview URL and the editor link (${draft.editorUrl}) so the merchant publishes it.`,
        draft.id,
      ),
      refine,
    ],
  }
}
