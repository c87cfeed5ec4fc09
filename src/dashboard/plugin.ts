import { readFileSync } from 'node:fs'
import formbody from '@fastify/formbody'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { readMerchantSession, requireMerchant, type MerchantSession } from '../auth/merchant-session.ts'
import { html } from '../web/html.ts'
import { registerMerchantCsrf } from '../web/merchant-csrf.ts'
import type { Services } from '../services.ts'
import { registerAccountRoutes } from './account.ts'
import { registerActivityRoutes } from './activity.ts'
import { registerDeveloperRoutes } from './developer.ts'
import { CSRF_FIELD, DASHBOARD_CSS_PATH, DASHBOARD_SCRIPT_PATH, document, href } from './layout.ts'
import { registerLoginRoutes } from './login.ts'
import { registerOrderRoutes } from './orders.ts'
import { registerStoreSwitchRoutes } from './store-switch.ts'
import { registerThemeHistoryRoutes } from './theme-history.ts'
import { registerThemePreviewRoutes } from './theme-preview.ts'
import { registerThemePublishRoutes } from './theme-publish.ts'
import { registerThemeRoutes } from './themes.ts'

const CSS = readFileSync(new URL('./dashboard.css', import.meta.url), 'utf8')
const SCRIPT = readFileSync(new URL('./copy-button.js', import.meta.url), 'utf8')

// Pages: an external stylesheet and one script file from this origin, nothing inline; framed by
// nobody (previews set their own policy).
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

export type DashboardContext = {
  services: Services
  session: (request: FastifyRequest) => Promise<MerchantSession>
  guard: ReturnType<typeof requireMerchant>
}

export async function dashboardPlugin(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (dash) => {
    await registerMerchantCsrf(dash, services.baseUrl, (request) => {
      const field = (request.body as Record<string, unknown> | undefined)?.[CSRF_FIELD]
      return typeof field === 'string' ? field : undefined
    })
    await dash.register(formbody, { bodyLimit: 64 * 1024 })

    dash.addHook('onSend', async (_request, reply, payload) => {
      reply.header('cache-control', 'no-store')
      reply.header('x-content-type-options', 'nosniff')
      reply.header('referrer-policy', 'same-origin')
      if (!reply.getHeader('content-security-policy')) reply.header('content-security-policy', DASHBOARD_CSP)
      return payload
    })

    dash.setErrorHandler(async (error, request, reply) => {
      const e = error as { statusCode?: number; code?: string }
      if (e.code?.startsWith('FST_CSRF'))
        return errorPage(
          reply,
          403,
          'This form has expired',
          'The page was open too long or came from somewhere else. Go back, reload the page and try again. Nothing was changed.',
        )
      if (e.statusCode === 413 || e.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return errorPage(
          reply,
          413,
          'Too much data',
          'The form sent more data than the dashboard accepts. Nothing was changed.',
        )
      if (e.statusCode === 415 || e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
        return errorPage(reply, 415, 'Unsupported form', 'Send the form from the dashboard page. Nothing was changed.')
      if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)
        return errorPage(reply, 400, 'Bad request', 'The request could not be read. Nothing was changed.')
      request.log.error({ err: error, requestId: request.id }, 'dashboard page failed')
      return errorPage(
        reply,
        500,
        'Something went wrong',
        `Please try again in a moment. If it keeps happening, quote request ${request.id}.`,
      )
    })

    const guard = requireMerchant(services)
    const ctx: DashboardContext = {
      services,
      guard,
      // Only called behind the guard.
      session: async (request) => (await readMerchantSession(request, services))!,
    }

    dash.get(DASHBOARD_CSS_PATH, async (_request, reply) =>
      reply.header('content-type', 'text/css; charset=utf-8').send(CSS),
    )
    dash.get(DASHBOARD_SCRIPT_PATH, async (_request, reply) =>
      reply.header('content-type', 'text/javascript; charset=utf-8').send(SCRIPT),
    )
    dash.get('/dashboard', { preHandler: guard }, async (_request, reply) => reply.redirect('/dashboard/themes', 303))
    registerLoginRoutes(dash, services)
    registerStoreSwitchRoutes(dash, ctx)
    registerThemeRoutes(dash, ctx)
    registerThemePublishRoutes(dash, ctx)
    registerThemeHistoryRoutes(dash, ctx)
    await registerThemePreviewRoutes(dash, ctx)
    registerDeveloperRoutes(dash, ctx)
    registerActivityRoutes(dash, ctx)
    registerOrderRoutes(dash, ctx)
    registerAccountRoutes(dash, ctx)
    dash.all('/dashboard/*', { preHandler: guard }, async (_request, reply) =>
      errorPage(reply, 404, 'Page not found', 'There is no dashboard page at this address.'),
    )
  })
}

export function errorPage(reply: FastifyReply, status: number, title: string, message: string) {
  const body = html`<main id="main" class="login"><div class="card"><h1>${title}</h1><p>${message}</p><p><a class="button secondary" href="${href('/dashboard/themes')}">Back to the dashboard</a></p></div></main>`
  return reply.code(status).type('text/html; charset=utf-8').send(document(title, body))
}
