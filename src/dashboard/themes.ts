import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { archiveThemeOperation, duplicateThemeOperation } from '../operations/theme-operations.ts'
import { actorOf, latestThemeChanges } from '../queries/activity.ts'
import { actorDirectory } from '../queries/actors.ts'
import { listThemes, type ThemeHeader } from '../queries/themes/theme-queries.ts'
import { html, type Html } from '../web/html.ts'
import { act, explain } from './act.ts'
import type { DashboardContext } from './plugin.ts'
import { csrfField, href, notice, page, when, type Notice } from './layout.ts'
import { actorLabel, channelLabel, ownTheme, publishable, type IdParams } from './theme-access.ts'
import { formerLive } from './theme-publish.ts'

// /dashboard/themes: every theme with its status, version, last change and last preview, and the
// list's own actions (duplicate, archive). Publishing, rollback, history and previews have their
// own pages (theme-publish.ts, theme-history.ts, theme-preview.ts).

const DONE: Record<string, string> = {
  published: 'Published. The theme is now live on your storefront.',
  rolledback: 'Rolled back. The former live theme is live again.',
  duplicated: 'Duplicated as a new draft.',
  archived: 'Archived.',
}

export function registerThemeRoutes(dash: FastifyInstance, ctx: DashboardContext) {
  const { services, guard } = ctx

  async function themesPage(request: FastifyRequest, reply: FastifyReply, message: Notice | null, status = 200) {
    const session = await ctx.session(request)
    // A list: read where the store's reads go now (a replica unless a write is not replayed there).
    const reads = services.readFor(session.storeId)
    const themes = await listThemes(reads, session.storeId, { includeArchived: true })
    const lastChange = await lastChanges(reads.db, session.storeId)
    const zone = session.store.timeZone
    const former = formerLive(themes)
    const active = themes.find((t) => t.status === 'active')
    const csrf = reply.generateCsrf()
    const body = html`<h1>Themes</h1>
<p class="lede">Agents draft and preview themes; you decide what goes live. Preview any theme, publish a draft, or roll back to the theme that was live before.</p>
${notice(message)}
${active && former ? html`<div class="card actions"><span>Live now: <strong>${active.name}</strong> (version ${String(active.version)}). Before it: <strong>${former.name}</strong> (version ${String(former.version)}).</span><a class="button secondary" href="${href('/dashboard/themes/rollback')}">Roll back to “${former.name}”…</a></div>` : null}
<div class="card table-wrap" tabindex="0" role="region" aria-label="Themes"><table class="stack themes">
<caption class="visually-hidden">Themes of ${session.store.name}</caption>
<thead><tr><th scope="col">Theme</th><th scope="col">Status</th><th scope="col" class="hide-sm">Version</th><th scope="col" class="hide-sm">Last change</th><th scope="col" class="hide-sm">Agents’ last preview link</th><th scope="col">Actions</th></tr></thead>
<tbody>${themes.length === 0 ? html`<tr><td colspan="6" class="muted">This store has no themes yet. Agents create drafts through the API or MCP; the storefront shows the default theme until one is published.</td></tr>` : themes.map((t) => themeRow(t, csrf, lastChange.get(t.themeId), zone))}</tbody></table></div>`
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Themes', session, csrf, current: 'themes', body }))
  }

  async function lastChanges(db: typeof services.db, storeId: string) {
    const [rows, actors] = await Promise.all([latestThemeChanges(db, storeId, 1000), actorDirectory(db, storeId)])
    const out = new Map<string, { at: Date; by: string }>()
    for (const r of rows) {
      if (!r.theme_id || out.has(r.theme_id)) continue
      // "You via the editor", "Theme bot via MCP": named as on every page.
      const by = `${actorLabel(actorOf(r), actors)} ${channelLabel(r.channel)}`
      out.set(r.theme_id, { at: new Date(r.occurred_at), by })
    }
    return out
  }

  function themeRow(
    t: ThemeHeader,
    csrf: string,
    change: { at: Date; by: string } | undefined,
    zone: string | null,
  ): Html {
    const id = encodeURIComponent(t.themeId)
    return html`<tr>
<td data-label="Theme"><strong>${t.name}</strong>${t.status === 'active' ? html` <span class="pill active">Live</span>` : null}<div class="muted mono">${t.themeId}</div></td>
<td data-label="Status"><span class="pill ${t.status}">${t.status}</span></td>
<td class="hide-sm">${t.version}</td>
<td class="hide-sm">${change ? html`${when(change.at, zone)}<div class="muted">${change.by}</div>` : when(t.updatedAt, zone)}</td>
<td class="hide-sm">${t.lastPreviewAt ? html`${when(t.lastPreviewAt, zone)}<div class="muted">version ${t.lastPreviewedVersion ?? '—'}</div>` : 'never'}</td>
<td class="theme-actions"><div class="actions">
<a class="button secondary" href="${href(`/dashboard/themes/${id}/preview`)}">Preview<span class="skip"> ${t.name}</span></a>
<a class="button secondary" href="${href('/dashboard/themes/editor', { themeId: t.themeId })}">Open in editor</a>
<a class="button secondary" href="${href(`/dashboard/themes/${id}/versions`)}">History<span class="skip"> of ${t.name}</span></a>
${publishable(t.status) ? html`<a class="button" href="${href(`/dashboard/themes/${id}/publish`)}">Publish…</a>` : null}
<form method="post" action="${href(`/dashboard/themes/${id}/duplicate`)}">${csrfField(csrf)}<button type="submit" class="secondary">Duplicate</button></form>
${t.status !== 'active' && t.status !== 'archived' ? html`<form method="post" action="${href(`/dashboard/themes/${id}/archive`)}">${csrfField(csrf)}<button type="submit" class="danger">Archive</button></form>` : null}
</div></td></tr>`
  }

  dash.get(
    '/dashboard/themes',
    { preHandler: guard },
    async (request: FastifyRequest<{ Querystring: { done?: unknown } }>, reply) => {
      const done = typeof request.query.done === 'string' ? DONE[request.query.done] : undefined
      return themesPage(request, reply, done ? { kind: 'ok', text: done } : null)
    },
  )

  const action = (
    path: string,
    run: (
      request: FastifyRequest<IdParams>,
      session: Awaited<ReturnType<DashboardContext['session']>>,
      themeId: string,
    ) => Promise<{ ok: boolean; error?: { code: string; message: string } }>,
    done: string,
  ) =>
    dash.post(path, { preHandler: [guard, dash.csrfProtection] }, async (request: FastifyRequest<IdParams>, reply) => {
      const own = await ownTheme(ctx, request, reply)
      if (!own) return reply
      const outcome = await run(request, own.session, own.theme.themeId)
      if (!outcome.ok)
        return themesPage(
          request,
          reply,
          { kind: 'error', text: explain(outcome.error!) },
          outcome.error!.code === 'NOT_FOUND' ? 404 : 409,
        )
      return reply.redirect(`/dashboard/themes?done=${done}`, 303)
    })

  action(
    '/dashboard/themes/:id/duplicate',
    (request, session, themeId) =>
      act(services, request, session, duplicateThemeOperation, { params: { id: themeId }, body: {} }),
    'duplicated',
  )
  action(
    '/dashboard/themes/:id/archive',
    (request, session, themeId) => act(services, request, session, archiveThemeOperation, { params: { id: themeId } }),
    'archived',
  )
}
