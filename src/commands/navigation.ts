import { navigationDecider, type UpdateNavigationInput } from '../aggregates/navigation/decider.ts'
import { ok } from '../aggregates/result.ts'
import type { CommandContext, CommandDeps } from './context.ts'
import { change, handleCommand } from './handle-command.ts'

// The store's menus (not a theme's own navigation, which is edited through the theme).
export function updateNavigation(deps: CommandDeps, ctx: CommandContext, input: UpdateNavigationInput) {
  return handleCommand(deps, ctx, {
    load: async (r) => ({ menus: await r.read(navigationDecider, ctx.storeId), at: r.at }),
    decide: ({ menus, at }) => {
      const decided = navigationDecider.decide(input, menus.state, { at })
      return decided.ok ? ok([change(menus, decided.value)]) : decided
    },
    result: ({ menus }, after) => after(menus),
  })
}
