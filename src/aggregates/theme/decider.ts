import type { ThemeDocument } from '../../theme/document.ts'
import { validateThemeDocument, type KnownReferences } from '../../theme/validate.ts'
import { themeStream, type CheckErrors, type ThemeEvent } from './events.ts'
import type { Decider } from '../decider.ts'
import { fail, invalid, ok, type Result } from '../result.ts'
import { applyEdits } from './apply-edits.ts'
import type { Edit } from './edits.ts'
import { evolve, initialThemeState, type Theme, type ThemeState } from './state.ts'

export type ThemeCommand =
  | {
      type: 'CreateTheme'
      themeId: string
      name: string
      provider: string
      document: ThemeDocument
      duplicatedFrom: string | null
    }
  | { type: 'UpdateTheme'; name?: string | undefined; operations: Edit[]; expectedVersion?: number | undefined }
  | { type: 'ApplyEdits'; operations: Edit[]; expectedVersion?: number | undefined }
  | { type: 'ArchiveTheme'; expectedVersion?: number | undefined }
  | {
      type: 'PublishTheme'
      previousThemeId: string | null
      expectedVersion?: number | undefined
      checkErrors?: CheckErrors | undefined
    }
  | { type: 'UnpublishTheme'; replacedBy: string }
  | { type: 'RecordPreviewIssued'; tokenId: string; expiresAt: string }

export type DecideContext = { storeId: string; known: KnownReferences; at: string }

export function validateThemeName(name: string, path = 'name') {
  const trimmed = name.trim()
  if (trimmed.length < 1 || trimmed.length > 100)
    return invalid([{ path, code: 'VALIDATION_FAILED', message: 'a theme name has 1 to 100 characters' }])
  // A name is plain text everywhere it appears; angle brackets are never needed in one.
  if (/[<>]/.test(trimmed) || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    return invalid([
      { path, code: 'UNSAFE_CONTENT', message: 'a theme name is plain text: no markup or control characters' },
    ])
  }
  return ok(trimmed)
}

const checkVersion = (theme: Theme, expected: number | undefined) =>
  expected !== undefined && expected !== theme.version
    ? fail('VERSION_CONFLICT', `the theme is at version ${theme.version}, not ${expected}; read it again and retry`, {
        currentVersion: theme.version,
      })
    : undefined

const checkEditable = (theme: Theme) =>
  theme.status !== 'draft'
    ? fail(
        'THEME_NOT_EDITABLE',
        `the theme is ${theme.status}; only a draft can be edited (duplicate it to get an editable draft)`,
        { status: theme.status },
      )
    : undefined

export function decide(command: ThemeCommand, state: ThemeState, ctx: DecideContext): Result<ThemeEvent[]> {
  const at = ctx.at
  if (command.type === 'CreateTheme') {
    if (state.exists)
      return fail('VERSION_CONFLICT', 'a theme with this id already exists', { currentVersion: state.version })
    const name = validateThemeName(command.name)
    if (!name.ok) return name
    const checked = validateThemeDocument(command.document, ctx.known)
    if (!checked.ok)
      return invalid(checked.issues.map((i) => ({ ...i, path: i.path ? `document.${i.path}` : 'document' })))
    return ok([
      {
        type: 'ThemeCreated',
        data: {
          themeId: command.themeId,
          storeId: ctx.storeId,
          name: name.value,
          provider: command.provider,
          document: checked.document,
          duplicatedFrom: command.duplicatedFrom,
          at,
        },
      },
    ])
  }

  if (!state.exists || state.storeId !== ctx.storeId) return fail('NOT_FOUND', 'theme not found')
  const theme = state

  switch (command.type) {
    case 'UpdateTheme':
    case 'ApplyEdits': {
      const refused = checkEditable(theme) ?? checkVersion(theme, command.expectedVersion)
      if (refused) return refused
      const events: ThemeEvent[] = []
      if (command.type === 'UpdateTheme' && command.name !== undefined) {
        const name = validateThemeName(command.name)
        if (!name.ok) return name
        if (name.value !== theme.name)
          events.push({ type: 'ThemeRenamed', data: { name: name.value, previousName: theme.name, at } })
      }
      if (command.operations.length > 0) {
        const applied = applyEdits(theme.document, command.operations, ctx.known, at)
        if (!applied.ok) return invalid(applied.issues)
        events.push(...applied.events)
      }
      return ok(events)
    }
    case 'ArchiveTheme': {
      if (theme.status === 'active')
        return fail('THEME_IS_ACTIVE', 'the live theme cannot be archived; publish another theme first')
      if (theme.status === 'archived')
        return fail('THEME_NOT_EDITABLE', 'the theme is already archived', { status: theme.status })
      const stale = checkVersion(theme, command.expectedVersion)
      if (stale) return stale
      return ok([{ type: 'ThemeArchived', data: { at } }])
    }
    case 'PublishTheme': {
      if (theme.status === 'archived')
        return fail('THEME_NOT_EDITABLE', 'an archived theme cannot be published; duplicate it first', {
          status: theme.status,
        })
      const stale = checkVersion(theme, command.expectedVersion)
      if (stale) return stale
      if (theme.status === 'active') return ok([])
      // Validated again at publish: the catalog may have changed since the last edit.
      const checked = validateThemeDocument(theme.document, ctx.known)
      if (!checked.ok)
        return invalid(checked.issues.map((i) => ({ ...i, path: i.path ? `document.${i.path}` : 'document' })))
      return ok([
        {
          type: 'ThemePublished',
          data: {
            previousThemeId: command.previousThemeId,
            wasLive: theme.publishedAt !== null,
            themeVersion: theme.version,
            ...(command.checkErrors && command.checkErrors.count > 0 ? { checkErrors: command.checkErrors } : {}),
            at,
          },
        },
      ])
    }
    case 'UnpublishTheme':
      if (theme.status !== 'active') return ok([])
      return ok([{ type: 'ThemeUnpublished', data: { replacedBy: command.replacedBy, at } }])
    case 'RecordPreviewIssued':
      return ok([
        {
          type: 'ThemePreviewIssued',
          data: { tokenId: command.tokenId, expiresAt: command.expiresAt, themeVersion: theme.version, at },
        },
      ])
  }
}

export const themeDecider: Decider<ThemeCommand, ThemeState, ThemeEvent, DecideContext> = {
  stream: themeStream,
  initialState: initialThemeState,
  evolve,
  decide,
}
