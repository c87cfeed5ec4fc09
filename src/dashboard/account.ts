import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../auth/merchant-accounts.ts'
import { sessionCookieName, sessionCookieOptions, startSession } from '../auth/merchant-session.ts'
import { changeMerchantPasswordOperation } from '../operations/merchant/account.ts'
import { html, type Html } from '../web/html.ts'
import { actOrFail } from './act.ts'
import { parseForm, text } from './forms.ts'
import { csrfField, href, notice, page, type Notice } from './layout.ts'
import type { DashboardContext } from './plugin.ts'

// /dashboard/account: who is signed in, their stores, and changing the password (current + new;
// every other session ends, this browser gets a new session). The rules and the throttle are the
// command's (src/commands/access/merchant-password.ts); this page shows its refusals at the field.

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword'

export function registerAccountRoutes(dash: FastifyInstance, ctx: DashboardContext) {
  const { services, guard } = ctx

  async function accountPage(
    request: FastifyRequest,
    reply: FastifyReply,
    state: { message?: Notice | null; errors?: Partial<Record<Field, string>>; status?: number } = {},
  ) {
    const session = await ctx.session(request)
    const csrf = reply.generateCsrf()
    const errors = state.errors ?? {}
    const field = (name: Field, label: string, autocomplete: string, hint: Html | string | null) => {
      const error = errors[name]
      const described = [hint ? `${name}-hint` : null, error ? `${name}-error` : null].filter(Boolean).join(' ')
      return html`<label for="${name}">${label}${hint ? html` <span class="hint" id="${`${name}-hint`}">${hint}</span>` : null}</label>
${error ? html`<p class="field-error" id="${`${name}-error`}">${error}</p>` : null}<input id="${name}" name="${name}" type="password" autocomplete="${autocomplete}" required maxlength="${String(MAX_PASSWORD_LENGTH)}"${name === 'currentPassword' ? null : html` minlength="${String(MIN_PASSWORD_LENGTH)}"`}${described ? html` aria-describedby="${described}"` : null}${error ? html` aria-invalid="true"` : null}>`
    }
    const body = html`<h1>Your account</h1>
${notice(state.message)}
<div class="card"><h2>Signed in as</h2><dl class="facts">
<dt>Email</dt><dd>${session.email}</dd>
<dt>${session.stores.length === 1 ? 'Store' : 'Stores'}</dt><dd>${session.stores.map((s, i) => html`${i ? ', ' : null}${s.name}`)}</dd>
</dl></div>
<div class="card"><h2>Change your password</h2>
<p class="muted">Changing it signs you out everywhere else: other browsers and devices must sign in again with the new password.</p>
<form method="post" action="${href('/dashboard/account/password')}" novalidate>${csrfField(csrf)}
${field('currentPassword', 'Current password', 'current-password', null)}
${field('newPassword', 'New password', 'new-password', `At least ${MIN_PASSWORD_LENGTH} characters. A few unrelated words make a good one.`)}
${field('confirmPassword', 'New password again', 'new-password', null)}
<p><button type="submit">Change password</button></p></form></div>`
    return reply
      .code(state.status ?? 200)
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Your account', session, csrf, current: 'account', body }))
  }

  dash.get(
    '/dashboard/account',
    { preHandler: guard },
    async (request: FastifyRequest<{ Querystring: { done?: unknown } }>, reply) =>
      accountPage(request, reply, {
        message:
          request.query.done === 'password'
            ? { kind: 'ok', text: 'Password changed. Every other session was signed out.' }
            : null,
      }),
  )

  dash.post('/dashboard/account/password', { preHandler: [guard, dash.csrfProtection] }, async (request, reply) => {
    const form = parseForm(
      {
        currentPassword: text('Current password', MAX_PASSWORD_LENGTH),
        newPassword: text('New password', MAX_PASSWORD_LENGTH),
        confirmPassword: text('New password again', MAX_PASSWORD_LENGTH),
      },
      request.body,
    )
    const refused = (errors: Partial<Record<Field, string>>, status = 400) =>
      accountPage(request, reply, {
        message: { kind: 'error', text: 'The password was not changed.' },
        errors,
        status,
      })
    if (!form.ok)
      return accountPage(request, reply, {
        message: { kind: 'error', text: 'The password was not changed.', items: form.problems },
        status: 400,
      })
    const { currentPassword, newPassword, confirmPassword } = form.value
    if (currentPassword === '') return refused({ currentPassword: 'Enter your current password.' })
    if (newPassword === '')
      return refused({ newPassword: `Choose a new password of at least ${MIN_PASSWORD_LENGTH} characters.` })
    if (newPassword !== confirmPassword) return refused({ confirmPassword: 'The two new passwords are not the same.' })
    const session = await ctx.session(request)
    const changed = await actOrFail(services, request, session, changeMerchantPasswordOperation, {
      body: { currentPassword, newPassword, address: request.ip },
    })
    if (!changed.ok) {
      const e = changed.error
      if (e.code === 'RATE_LIMITED') {
        const seconds = Number(e.details?.retryAfterSeconds ?? 900)
        reply.header('retry-after', String(seconds))
        return accountPage(request, reply, {
          message: {
            kind: 'warn',
            text: `Too many wrong passwords. Try again in ${Math.ceil(seconds / 60)} minutes. The password was not changed.`,
          },
          status: 429,
        })
      }
      const issue = (e.details?.issues as { path: string; message: string }[] | undefined)?.[0]
      if (issue?.path === 'currentPassword') return refused({ currentPassword: 'This is not your current password.' })
      if (issue?.path === 'newPassword') return refused({ newPassword: `Choose another password: ${issue.message}.` })
      return refused({ newPassword: e.message })
    }
    // Every session of the merchant ended, this one too: this browser signs in again at once.
    const started = await startSession(services, { merchantId: session.merchantId, storeId: session.storeId })
    reply.setCookie(
      sessionCookieName(services.baseUrl),
      started.token,
      sessionCookieOptions(services.baseUrl, started.expiresAt),
    )
    return reply.redirect('/dashboard/account?done=password', 303)
  })
}
