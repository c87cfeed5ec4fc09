import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { MerchantSession } from '../auth/merchant-session.ts'
import { diffThemeOperation } from '../operations/theme-history-operations.ts'
import { publishThemeOperation } from '../operations/theme-operations.ts'
import { getThemeChecksOperation } from '../operations/theme-check-operations.ts'
import { PUBLISH_ANYWAY_FIELD, publishAfterReviewOperation } from '../operations/merchant/publish.ts'
import type { Finding } from '../checks/finding.ts'
import type { DiffResult } from '../queries/themes/history.ts'
import { listThemes, type ThemeHeader } from '../queries/themes/theme-queries.ts'
import { checkFix, checkPlaceLabel, checkTitle, SEVERITY_WORDS } from '../theme/merchant-texts.ts'
import { html, type Html } from '../web/html.ts'
import { act, explain } from './act.ts'
import { parseForm, text } from './forms.ts'
import { csrfField, href, notice, page, when, type Notice } from './layout.ts'
import type { DashboardContext } from './plugin.ts'
import { ownTheme, publishable, THEME_ID, themePath, type IdParams } from './theme-access.ts'
import { comparison } from './theme-history.ts'

// Publishing asks first, and publishes exactly what it showed: the confirmation shows the diff
// against the live theme and both previews, and its form carries the version shown as
// expectedVersion, so a change made after the page was shown is refused (VERSION_CONFLICT) and
// nothing goes live. The one-step rollback works the same way for the former live theme.

const VERSION = /^[0-9]{1,9}$/

// What the theme checks say about the version shown, errors first, in the editor's words: the
// rule's title, what was found, and the fix a shop owner makes in the editor (the findings' own
// `fix` speaks to agents, with tool names and ids, and is never shown here). With errors, the form asks
// for an explicit "Publish anyway" (src/operations/merchant/publish.ts).
function checksCard(findings: Finding[], themeId: string): Html {
  const shown = findings.filter((f) => f.severity !== 'info')
  if (shown.length === 0) return html`<p class="checks-ok">Theme checks: no problems found.</p>`
  const ordered = [...shown].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))
  return html`<section class="checks" aria-label="Theme checks"><h2>Theme checks</h2><ul>${ordered.map(
    (f) =>
      html`<li class="${f.severity}"><span class="pill ${f.severity}">${SEVERITY_WORDS[f.severity]}</span> <strong>${checkTitle(f.rule)}</strong> <span class="muted">(${checkPlaceLabel(f.template)})</span>: ${f.message}${fixLine(f)}</li>`,
  )}</ul><p class="muted">Fix ${ordered.length === 1 ? 'it' : 'them'} in the <a href="${href('/dashboard/themes/editor', { themeId })}">editor</a>, or ask the assistant that made the change.</p></section>`
}

function fixLine(f: Finding): Html | null {
  const fix = checkFix(f)
  return fix ? html`<div class="fix">How to fix: ${fix}</div>` : null
}

// The theme that was live before the current one: the private theme published most recently.
export function formerLive(themes: ThemeHeader[]): ThemeHeader | null {
  const candidates = themes.filter((t) => t.status === 'private' && t.publishedAt !== null)
  candidates.sort((a, b) => String(b.publishedAt).localeCompare(String(a.publishedAt)))
  return candidates[0] ?? null
}

const conflictText = (what: string, shown: number, now: unknown) =>
  `Nothing was published: “${what}” changed after this page was shown (you reviewed version ${shown}; it is now at version ${String(now ?? 'newer')}). The page below shows the changes again; publish once they look right.`

export function registerThemePublishRoutes(dash: FastifyInstance, ctx: DashboardContext) {
  const { services, guard } = ctx

  async function diffAgainstLive(
    request: FastifyRequest,
    session: MerchantSession,
    themeId: string,
  ): Promise<DiffResult> {
    const diff = await act(services, request, session, diffThemeOperation, {
      params: { id: themeId },
      query: { from: 'live', to: 'draft' },
    })
    if (!diff.ok) throw new Error(`diffTheme failed: ${diff.error.code}`)
    return diff.data as DiffResult
  }

  async function checksOf(
    request: FastifyRequest,
    session: MerchantSession,
    themeId: string,
    version: number,
  ): Promise<Finding[]> {
    const checked = await act(services, request, session, getThemeChecksOperation, {
      params: { id: themeId },
      query: { version },
    })
    return checked.ok ? (checked.data as { findings: Finding[] }).findings : []
  }

  const liveLabel = (live: ThemeHeader | undefined) =>
    live ? `Live now: “${live.name}”, version ${live.version}` : 'Live now: the default theme'

  async function publishPage(
    request: FastifyRequest<IdParams>,
    reply: FastifyReply,
    message: Notice | null = null,
    status = 200,
  ) {
    const own = await ownTheme(ctx, request, reply)
    if (!own) return reply
    const { session, theme } = own
    const live = (await listThemes(services.read, session.storeId)).find((t) => t.status === 'active')
    const csrf = reply.generateCsrf()
    // The live theme and an archived one have nothing to publish: the page says where the
    // theme stands and what the merchant can do instead, not a confirmation that cannot happen.
    if (!publishable(theme.status)) {
      const body = html`<p><a href="${href('/dashboard/themes')}">← Themes</a></p>
<h1>${theme.status === 'active' ? html`“${theme.name}” is live` : html`“${theme.name}” is archived`}</h1>
${notice(message)}
<div class="card">
${
  theme.status === 'active'
    ? html`<p>Visitors to ${session.store.name} see this theme now (version ${String(theme.version)}, live since ${when(theme.publishedAt, session.store.timeZone)}). There is nothing to publish.</p>
<p class="muted">To change it, duplicate it: the copy is a draft you can edit, preview and then publish in its place.</p>`
    : html`<p>Archived themes cannot be published. Duplicate it to get a draft you can edit and publish.</p>`
}
<div class="actions">${theme.status === 'active' ? html`<a class="button secondary" href="${href(`/s/${encodeURIComponent(session.store.slug)}`)}" target="_blank" rel="noopener">View store</a>` : null}
<form method="post" action="${href(themePath(theme.themeId, '/duplicate'))}">${csrfField(csrf)}<button type="submit">Duplicate to edit a copy</button></form>
<a class="button secondary" href="${href(themePath(theme.themeId, '/versions'))}">History</a>
<a class="button secondary" href="${href('/dashboard/themes')}">Back to themes</a></div>
</div>`
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send(page({ title: `Publish ${theme.name}`, session, csrf, current: 'themes', body }))
    }
    const diff = await diffAgainstLive(request, session, theme.themeId)
    // The version diffed is the version the form publishes.
    const shown = diff.to.version ?? theme.version
    const findings = await checksOf(request, session, theme.themeId, shown)
    const errors = findings.filter((f) => f.severity === 'error').length
    const body = html`<p><a href="${href('/dashboard/themes')}">← Themes</a></p>
<h1>Publish “${theme.name}”?</h1>
${notice(message)}
<div class="card">
<dl class="facts">
<dt>Goes live</dt><dd><strong>${theme.name}</strong>, version ${String(shown)} <span class="pill ${theme.status}">${theme.status}</span></dd>
<dt>Stops being live</dt><dd>${live ? html`<strong>${live.name}</strong>, version ${String(live.version)}: it becomes private and you can roll back to it in one step` : 'the default theme (no theme of yours is live yet)'}</dd>
<dt>Store</dt><dd>${session.store.name}, for every visitor</dd>
</dl>
${checksCard(findings, theme.themeId)}
${errors > 0 ? html`<p class="field"><label><input type="checkbox" form="publish" name="${PUBLISH_ANYWAY_FIELD}" value="yes" required> I have read the ${String(errors)} error${errors === 1 ? '' : 's'} above and want to publish anyway</label></p>` : null}
<div class="actions"><form method="post" action="${href(themePath(theme.themeId, '/publish'))}" id="publish">${csrfField(csrf)}<input type="hidden" name="expectedVersion" value="${String(shown)}">${
      errors > 0
        ? html`<button type="submit" class="danger">Publish anyway</button>`
        : html`<button type="submit">Publish version ${String(shown)}</button>`
    }</form>
<a class="button secondary" href="${href(themePath(theme.themeId, '/versions'))}">History</a>
<a class="button secondary" href="${href('/dashboard/themes')}">Cancel</a></div>
<p class="hint">If anyone changes this theme after this page was shown, publishing is refused and nothing goes live.</p>
</div>
${comparison(diff, session, { from: liveLabel(live), to: `“${theme.name}”, version ${shown} (goes live)` })}`
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(page({ title: `Publish ${theme.name}`, session, csrf, current: 'themes', body }))
  }

  dash.get<IdParams>('/dashboard/themes/:id/publish', { preHandler: guard }, (request, reply) =>
    publishPage(request, reply),
  )

  dash.post<IdParams>(
    '/dashboard/themes/:id/publish',
    { preHandler: [guard, dash.csrfProtection] },
    async (request, reply) => {
      const own = await ownTheme(ctx, request, reply)
      if (!own) return reply
      const form = parseForm(
        {
          expectedVersion: text('The version shown', 9).regex(VERSION, {
            error: 'The form did not say which version you reviewed',
          }),
          [PUBLISH_ANYWAY_FIELD]: text('Publish anyway', 3).optional(),
        },
        request.body,
      )
      if (!form.ok)
        return publishPage(request, reply, { kind: 'error', text: 'Nothing was published.', items: form.problems }, 400)
      const expected = Number(form.value.expectedVersion)
      const outcome = await act(services, request, own.session, publishAfterReviewOperation, {
        params: { id: own.theme.themeId },
        body: { expectedVersion: expected, [PUBLISH_ANYWAY_FIELD]: form.value[PUBLISH_ANYWAY_FIELD] === 'yes' },
      })
      if (!outcome.ok) {
        const e = outcome.error
        return publishPage(
          request,
          reply,
          {
            kind: 'error',
            text:
              e.code === 'VERSION_CONFLICT'
                ? conflictText(own.theme.name, expected, e.details?.currentVersion)
                : `Nothing was published. ${explain(e)}`,
          },
          409,
        )
      }
      return reply.redirect(`/dashboard/themes?done=published`, 303)
    },
  )

  async function rollbackPage(
    request: FastifyRequest,
    reply: FastifyReply,
    message: Notice | null = null,
    status = 200,
  ) {
    const session = await ctx.session(request)
    const themes = await listThemes(services.read, session.storeId)
    const former = formerLive(themes)
    const live = themes.find((t) => t.status === 'active')
    const csrf = reply.generateCsrf()
    let content: Html
    if (!former) {
      content = html`${notice({ kind: 'warn', text: 'There is no former live theme to roll back to.' })}<p><a class="button secondary" href="${href('/dashboard/themes')}">Back to themes</a></p>`
    } else {
      const diff = await diffAgainstLive(request, session, former.themeId)
      const shown = diff.to.version ?? former.version
      content = html`<div class="card"><dl class="facts">
<dt>Goes live again</dt><dd><strong>${former.name}</strong>, version ${String(shown)} (live until ${when(live?.publishedAt ?? former.updatedAt, session.store.timeZone)})</dd>
<dt>Stops being live</dt><dd>${live ? html`<strong>${live.name}</strong>, version ${String(live.version)}: it becomes private` : 'nothing'}</dd>
<dt>Store</dt><dd>${session.store.name}, for every visitor</dd></dl>
<div class="actions"><form method="post" action="${href('/dashboard/themes/rollback')}">${csrfField(csrf)}<input type="hidden" name="themeId" value="${former.themeId}"><input type="hidden" name="expectedVersion" value="${String(shown)}"><button type="submit">Roll back to “${former.name}” version ${String(shown)}</button></form>
<a class="button secondary" href="${href('/dashboard/themes')}">Cancel</a></div></div>
${comparison(diff, session, { from: liveLabel(live), to: `“${former.name}”, version ${shown} (goes live)` })}`
    }
    const body = html`<p><a href="${href('/dashboard/themes')}">← Themes</a></p><h1>Roll back${former ? html` to “${former.name}”` : null}?</h1>${notice(message)}${content}`
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Roll back', session, csrf, current: 'themes', body }))
  }

  dash.get('/dashboard/themes/rollback', { preHandler: guard }, (request, reply) => rollbackPage(request, reply))

  // Rollback: re-publish the theme that was live before the current one, at the version shown.
  dash.post('/dashboard/themes/rollback', { preHandler: [guard, dash.csrfProtection] }, async (request, reply) => {
    const session = await ctx.session(request)
    const form = parseForm(
      {
        themeId: text('Theme', 100).regex(THEME_ID, { error: 'The form did not say which theme goes live' }),
        expectedVersion: text('The version shown', 9).regex(VERSION, {
          error: 'The form did not say which version you reviewed',
        }),
      },
      request.body,
    )
    if (!form.ok)
      return rollbackPage(
        request,
        reply,
        { kind: 'error', text: 'Nothing was rolled back.', items: form.problems },
        400,
      )
    const former = formerLive(await listThemes(services.read, session.storeId))
    if (!former || former.themeId !== form.value.themeId)
      return rollbackPage(
        request,
        reply,
        {
          kind: 'error',
          text: 'Nothing was rolled back: the live theme changed after this page was shown. Check which theme would go live now.',
        },
        409,
      )
    const expected = Number(form.value.expectedVersion)
    const outcome = await act(services, request, session, publishThemeOperation, {
      params: { id: former.themeId },
      body: { expectedVersion: expected },
    })
    if (!outcome.ok) {
      const e = outcome.error
      return rollbackPage(
        request,
        reply,
        {
          kind: 'error',
          text:
            e.code === 'VERSION_CONFLICT'
              ? conflictText(former.name, expected, e.details?.currentVersion)
              : `Nothing was rolled back. ${explain(e)}`,
        },
        409,
      )
    }
    return reply.redirect('/dashboard/themes?done=rolledback', 303)
  })
}
