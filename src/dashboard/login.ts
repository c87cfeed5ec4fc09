import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, signIn } from '../auth/merchant-accounts.ts'
import {
  readMerchantSession,
  revokeSession,
  safeNextPath,
  sessionCookieName,
  sessionCookieOptions,
  startSession,
} from '../auth/merchant-session.ts'
import { html } from '../web/html.ts'
import type { Services } from '../services.ts'
import { parseForm, text } from './forms.ts'
import { csrfField, document, href, notice, type Notice } from './layout.ts'

// GET/POST /dashboard/login and POST /dashboard/logout (contract-decisions.md, "Merchant side").
export function registerLoginRoutes(dash: FastifyInstance, services: Services) {
  const loginPage = (
    reply: FastifyReply,
    input: { next: string | null; email?: string; message?: Notice; status?: number },
  ) => {
    const token = reply.generateCsrf()
    const body = html`<main id="main" class="login"><div class="card">
<h1>Sign in</h1><p class="muted">Manage your store’s themes, apps and API keys.</p>
${notice(input.message)}
<form method="post" action="${href('/dashboard/login', input.next ? { next: input.next } : undefined)}">
${csrfField(token)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="${String(MAX_EMAIL_LENGTH)}" value="${input.email ?? ''}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="${String(MAX_PASSWORD_LENGTH)}">
<button type="submit">Sign in</button>
</form>
<details class="forgot"><summary>Forgot your password?</summary>
<p>This service sends no e-mail. Ask the person who runs it for your store (the operator) to give you a new password. They run <code>npm run merchants -- reset-password --email ${input.email || 'you@example.com'}</code> and pass the new password on to you; it signs you out everywhere.</p>
<p>Once signed in, you can change it on your account page: the link with your e-mail address in the dashboard’s header.</p>
</details></div></main>`
    return reply
      .code(input.status ?? 200)
      .type('text/html; charset=utf-8')
      .send(document('Sign in', body))
  }

  dash.get('/dashboard/login', async (request: FastifyRequest<{ Querystring: { next?: unknown } }>, reply) => {
    const next = safeNextPath(request.query.next)
    if (await readMerchantSession(request, services)) return reply.redirect(next ?? '/dashboard/themes', 303)
    return loginPage(reply, { next })
  })

  dash.post(
    '/dashboard/login',
    { preHandler: dash.csrfProtection },
    async (request: FastifyRequest<{ Querystring: { next?: unknown } }>, reply) => {
      const next = safeNextPath(request.query.next)
      const form = parseForm(
        { email: text('Email', MAX_EMAIL_LENGTH), password: text('Password', MAX_PASSWORD_LENGTH) },
        request.body,
      )
      if (!form.ok)
        return loginPage(reply, {
          next,
          status: 400,
          message: { kind: 'error', text: 'The form could not be read.', items: form.problems },
        })
      const result = await signIn(
        services.db,
        { email: form.value.email, password: form.value.password, address: request.ip },
        services.clock(),
      )
      if (!result.ok && result.reason === 'throttled') {
        reply.header('retry-after', String(result.retryAfterSeconds))
        return loginPage(reply, {
          next,
          email: form.value.email,
          status: 429,
          message: {
            kind: 'warn',
            text: `Too many failed sign-in attempts. Try again in ${Math.ceil(result.retryAfterSeconds / 60)} minutes.`,
          },
        })
      }
      if (!result.ok)
        return loginPage(reply, {
          next,
          email: form.value.email,
          status: 401,
          message: { kind: 'error', text: 'Wrong email or password.' },
        })
      // A new session id at every sign-in; any session this browser had is ended.
      const previous = await readMerchantSession(request, services)
      if (previous) await revokeSession(services.db, previous.sessionHash, services.clock())
      const started = await startSession(services, {
        merchantId: result.merchantId,
        storeId: result.stores[0]!.storeId,
      })
      reply.setCookie(
        sessionCookieName(services.baseUrl),
        started.token,
        sessionCookieOptions(services.baseUrl, started.expiresAt),
      )
      return reply.redirect(next ?? '/dashboard/themes', 303)
    },
  )

  dash.post('/dashboard/logout', { preHandler: dash.csrfProtection }, async (request, reply) => {
    const session = await readMerchantSession(request, services)
    if (session) await revokeSession(services.db, session.sessionHash, services.clock())
    reply.clearCookie(sessionCookieName(services.baseUrl), sessionCookieOptions(services.baseUrl))
    return reply.redirect('/dashboard/login', 303)
  })
}
