import { z } from 'zod'
import { validateNavigation } from '../../theme/validate.ts'
import type { Decider } from '../decider.ts'
import { invalid, type LocatedIssue, type Result } from '../result.ts'
import { navigationStream, type NavigationEvent, type NavigationMenu } from './events.ts'

export const menuInputSchema = z.strictObject({
  handle: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'lowercase letters, digits and "-"')
    .meta({ description: 'Menu handle, e.g. "main" or "footer".' }),
  title: z.string().min(1).max(100).optional(),
  items: z
    .array(z.unknown())
    .meta({ description: 'Menu entries: [{ label, href, children? }]; hrefs are https or site-relative.' }),
})
export const updateNavigationSchema = z.strictObject({ menus: z.array(menuInputSchema).min(1).max(10) })
export type UpdateNavigationInput = z.output<typeof updateNavigationSchema>

export const MENU_LIMIT = 10

// Pure: the menus after the update. Menus named in the input are replaced; the others stay.
export function decideNavigation(
  current: NavigationMenu[],
  input: UpdateNavigationInput,
  at: string,
): Result<NavigationEvent[]> {
  const issues: LocatedIssue[] = []
  const next = new Map(current.map((m) => [m.handle, m]))
  for (const [i, menu] of input.menus.entries()) {
    const checked = validateNavigation(menu.items, `menus[${i}].items`)
    if (!checked.ok) {
      issues.push(...checked.issues)
      continue
    }
    if (menu.title !== undefined && /[<>]/.test(menu.title)) {
      issues.push({ path: `menus[${i}].title`, code: 'UNSAFE_CONTENT', message: 'a menu title is plain text' })
      continue
    }
    const title = menu.title ?? next.get(menu.handle)?.title ?? menu.handle
    next.set(menu.handle, { handle: menu.handle, title, items: checked.navigation })
  }
  if (next.size > MENU_LIMIT)
    issues.push({ path: 'menus', code: 'LIMIT_EXCEEDED', message: `a store has at most ${MENU_LIMIT} menus` })
  if (issues.length > 0) return invalid(issues)
  return {
    ok: true,
    value: [
      {
        type: 'NavigationMenusUpdated',
        data: { menus: [...next.values()], changed: input.menus.map((m) => m.handle), at },
      },
    ],
  }
}

// The state is the menus as the last event left them.
export const navigationDecider: Decider<UpdateNavigationInput, NavigationMenu[], NavigationEvent> = {
  stream: navigationStream,
  initialState: [],
  evolve: (_menus, event) => event.data.menus,
  decide: (input, menus, { at }) => decideNavigation(menus, input, at),
}
