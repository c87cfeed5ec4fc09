import type { KnownReferences } from '../../theme/validate.ts'
import { ok, type Result } from '../result.ts'
import { decideStoreThemes, type StoreThemesState } from '../store-themes/decider.ts'
import type { StoreThemesEvent } from '../store-themes/events.ts'
import { decide } from './decider.ts'
import type { CheckErrors, ThemeEvent } from './events.ts'
import type { ThemeState } from './state.ts'

export type PublishInput = {
  themeId: string
  theme: ThemeState
  registry: StoreThemesState
  // The theme the registry says is live now, when it is another one.
  formerLive: ThemeState | null
  expectedVersion?: number | undefined
  // The theme checks' errors the version goes live with (the operation runs the checks).
  checkErrors?: CheckErrors | undefined
}

export type Published = { theme: ThemeEvent[]; registry: StoreThemesEvent[]; formerLive: ThemeEvent[] }

// Publishing, decided over the three states it touches: the theme goes live (validated again:
// the catalogue may have changed since its last edit), the registry records the change, and the
// theme that was live becomes private. Appended in one transaction, so exactly one theme is live.
// Publishing the live theme again changes nothing.
export function decidePublish(
  input: PublishInput,
  context: { storeId: string; known: KnownReferences; at: string },
): Result<Published> {
  const previous = input.registry.activeThemeId
  const replaced = previous !== null && previous !== input.themeId ? previous : null
  const published = decide(
    {
      type: 'PublishTheme',
      previousThemeId: replaced,
      expectedVersion: input.expectedVersion,
      checkErrors: input.checkErrors,
    },
    input.theme,
    context,
  )
  if (!published.ok) return published
  if (published.value.length === 0) return ok({ theme: [], registry: [], formerLive: [] })
  const live = decideStoreThemes({ type: 'ChangeLiveTheme', themeId: input.themeId }, input.registry, context.at)
  if (!live.ok) return live
  let formerLive: ThemeEvent[] = []
  if (replaced && input.formerLive) {
    const unpublished = decide({ type: 'UnpublishTheme', replacedBy: input.themeId }, input.formerLive, context)
    if (!unpublished.ok) return unpublished
    formerLive = unpublished.value
  }
  return ok({ theme: published.value, registry: live.value, formerLive })
}
