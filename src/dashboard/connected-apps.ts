import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { revokeOAuthGrantOperation } from '../operations/merchant/oauth-grants.ts'
import { findGrant, type ConnectedApp } from '../queries/oauth-grants.ts'
import { html, type Html } from '../web/html.ts'
import { actOrFail } from './act.ts'
import { csrfField, href, when } from './layout.ts'
import { errorPage, type DashboardContext } from './plugin.ts'

// Connected apps: every OAuth grant the merchant approved on this store (dashboard apps,
// dynamically registered clients, metadata-document clients), with its scopes, when it was
// approved and last used, and Revoke. Revoking ends the grant and every token it issued at once
// (the next request with them is 401 invalid_token) and is recorded in the activity view.

const GRANT_ID = /^[A-Za-z0-9_-]{1,100}$/

const SOURCE: Record<ConnectedApp['source'], string> = {
  dashboard: 'App created in this dashboard',
  registered: 'Registered itself (dynamic client registration)',
  metadata_document: 'Identified by its metadata document',
}

export const DISCONNECTED = 'Disconnected. Its access and refresh tokens stopped working at once.'

/** `action`: where a grant's Revoke form posts. */
export function grantsTable(
  grants: ConnectedApp[],
  csrf: string,
  action: (grantId: string) => string,
  empty: string,
  zone: string | null,
): Html {
  if (grants.length === 0) return html`<p class="muted">${empty}</p>`
  return html`<table class="stack"><thead><tr><th scope="col">App</th><th scope="col">Scopes</th><th scope="col">Approved</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>
${grants.map(
  (
    g,
  ) => html`<tr><td><strong>${g.name}</strong> ${g.verified ? html`<span class="pill active">verified</span>` : html`<span class="pill unverified">unverified</span>`}<div class="muted">${SOURCE[g.source]}</div>${g.source === 'dashboard' ? null : html`<div class="muted mono">${g.clientId}</div>`}</td>
<td data-label="Scopes"><ul class="scopes">${g.scopes.map((s) => html`<li class="mono">${s}</li>`)}</ul></td>
<td data-label="Approved">${when(g.createdAt, zone)}</td><td data-label="Last used">${g.lastUsedAt ? when(g.lastUsedAt, zone) : 'never'}</td>
<td><form method="post" action="${href(action(g.grantId))}">${csrfField(csrf)}<button type="submit" class="danger">Revoke<span class="skip"> ${g.name}</span></button></form></td></tr>`,
)}
</tbody></table>`
}

export function registerGrantRoutes(dash: FastifyInstance, ctx: DashboardContext) {
  const { services, guard } = ctx

  // The same command the OAuth side uses, with the merchant as actor (src/operations/merchant/oauth-grants.ts).
  const revoke =
    (back: (request: FastifyRequest<{ Params: { grantId: string; id?: string } }>) => string) =>
    async (request: FastifyRequest<{ Params: { grantId: string; id?: string } }>, reply: FastifyReply) => {
      const session = await ctx.session(request)
      const grant = GRANT_ID.test(request.params.grantId)
        ? await findGrant(services.db, session.storeId, request.params.grantId)
        : undefined
      if (!grant || (request.params.id !== undefined && grant.app_id !== request.params.id))
        return errorPage(
          reply,
          404,
          'Connection not found',
          'There is no such connected app in this store. Nothing was changed.',
        )
      const revoked = await actOrFail(services, request, session, revokeOAuthGrantOperation, {
        params: { grantId: grant.grant_id },
      })
      if (!revoked.ok) throw new Error(`revokeOAuthGrant refused: ${revoked.error.code}`)
      const changed = revoked.data.revoked
      return reply.redirect(`${back(request)}?done=${changed ? 'disconnected' : 'already-disconnected'}`, 303)
    }

  dash.post<{ Params: { grantId: string } }>(
    '/dashboard/developer/grants/:grantId/revoke',
    { preHandler: [guard, dash.csrfProtection] },
    revoke(() => '/dashboard/developer'),
  )
  dash.post<{ Params: { grantId: string; id: string } }>(
    '/dashboard/developer/apps/:id/grants/:grantId/revoke',
    { preHandler: [guard, dash.csrfProtection] },
    revoke((r) => `/dashboard/developer/apps/${encodeURIComponent(r.params.id!)}`),
  )
}
