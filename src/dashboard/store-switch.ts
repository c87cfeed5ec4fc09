import type { FastifyInstance } from 'fastify'
import { switchStore } from '../auth/merchant-session.ts'
import { parseForm, text } from './forms.ts'
import { errorPage, type DashboardContext } from './plugin.ts'

// A merchant who owns several stores picks the one the pages act on; the choice lives in the
// server-side session (merchant_sessions.store_id), so every page and action reads the store from
// it as before. A store the merchant does not own is refused like any other store's id: 404.

export function registerStoreSwitchRoutes(dash: FastifyInstance, ctx: DashboardContext) {
  dash.post('/dashboard/store', { preHandler: [ctx.guard, dash.csrfProtection] }, async (request, reply) => {
    const session = await ctx.session(request)
    const form = parseForm({ storeId: text('Store', 100) }, request.body)
    if (!form.ok || !(await switchStore(ctx.services.db, session, form.value.storeId))) {
      return errorPage(reply, 404, 'Store not found', 'You do not own a store with that id. Nothing was changed.')
    }
    // Ids differ between stores: start again from the new store's themes.
    return reply.redirect('/dashboard/themes', 303)
  })
}
