import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { MerchantSession } from '../auth/merchant-session.ts'
import { DEFAULT_AGENT_SCOPES, SCOPE_WARNINGS, SCOPES, scopeLabel } from '../auth/scopes.ts'
import { createApiKeyOperation, revokeApiKeyOperation } from '../operations/merchant/api-keys.ts'
import {
  createAppOperation,
  deleteAppOperation,
  rotateClientSecretOperation,
  setRedirectUrisOperation,
} from '../operations/merchant/apps.ts'
import { activeKeyCounts, findApp, isAppKey, listApiKeys, listApps } from '../queries/apps-and-keys.ts'
import { connectedApps } from '../queries/oauth-grants.ts'
import { html, type Html } from '../web/html.ts'
import { actOrFail } from './act.ts'
import { list, parseForm, required, text } from './forms.ts'
import { DISCONNECTED, grantsTable, registerGrantRoutes } from './connected-apps.ts'
import { copyButton, csrfField, href, notice, page, when, type Notice } from './layout.ts'
import { errorPage, type DashboardContext } from './plugin.ts'
import { z } from 'zod'

// /dashboard/developer: apps (client ID, secret shown once, redirect URIs) and their API keys.
const PRESETS = [
  'https://claude.ai/api/mcp/auth_callback',
  'https://claude.com/api/mcp/auth_callback',
  'https://chatgpt.com/connector_platform_oauth_redirect',
]
const APP_ID = /^[A-Za-z0-9_-]{1,100}$/
type IdParams = { Params: { id: string } }

const DONE: Record<string, Notice> = {
  disconnected: { kind: 'ok', text: DISCONNECTED },
  'already-disconnected': { kind: 'warn', text: 'That app was already disconnected.' },
}
const doneNotice = (request: FastifyRequest): Notice | null => {
  const done = (request.query as Record<string, unknown> | undefined)?.done
  return typeof done === 'string' ? (DONE[done] ?? null) : null
}

const uriLines = (value: string) =>
  value
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')

export function registerDeveloperRoutes(dash: FastifyInstance, ctx: DashboardContext) {
  const { services, guard } = ctx
  const db = services.db

  async function appsPage(
    request: FastifyRequest,
    reply: FastifyReply,
    message: Notice | null = null,
    status = 200,
    form: { name?: string; uris?: string } = {},
  ) {
    const session = await ctx.session(request)
    const apps = await listApps(db, session.storeId)
    const counts = await activeKeyCounts(db, session.storeId)
    const grants = await connectedApps(db, session.storeId)
    const csrf = reply.generateCsrf()
    const body = html`<h1>Developer</h1>
<p class="lede">Apps let AI agents work on your store. Each app has a client ID for OAuth and can hold API keys. Everything done here appears in the <a href="${href('/dashboard/developer/activity')}">activity view</a>.</p>
${notice(message)}
<div class="card table-wrap" tabindex="0" role="region" aria-label="Apps"><h2>Apps</h2>${
      apps.length === 0
        ? html`<p class="muted">No apps yet.</p>`
        : html`<table><thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col" class="hide-sm">Client ID</th><th scope="col">Active keys</th><th scope="col" class="hide-sm">Created</th></tr></thead><tbody>
${apps.map((a) => html`<tr><td><a href="${href(`/dashboard/developer/apps/${encodeURIComponent(a.app_id)}`)}">${a.name}</a></td><td>${a.kind}</td><td class="hide-sm mono">${a.client_id}</td><td>${counts.get(a.app_id) ?? 0}</td><td class="hide-sm">${when(a.created_at, session.store.timeZone)}</td></tr>`)}
</tbody></table>`
    }</div>
<div class="card table-wrap" tabindex="0" role="region" aria-label="Connected apps"><h2>Connected apps</h2>
<p class="muted">Agents you allowed to work on this store through OAuth (from this dashboard, or apps that registered themselves or identified themselves by a metadata document). Revoke ends their access at once.</p>
${grantsTable(grants, csrf, (g) => `/dashboard/developer/grants/${encodeURIComponent(g)}/revoke`, 'No app is connected through OAuth.', session.store.timeZone)}</div>
<div class="card"><h2>Create an app</h2>
<form method="post" action="${href('/dashboard/developer/apps')}">${csrfField(csrf)}
<label for="app-name">Name</label><input id="app-name" name="name" type="text" required maxlength="100" value="${form.name ?? ''}">
<fieldset><legend>Kind</legend>
<label class="check"><input type="radio" name="kind" value="confidential" checked> <span>Confidential <span class="hint">A server-side client that can keep a client secret.</span></span></label>
<label class="check"><input type="radio" name="kind" value="public"> <span>Public <span class="hint">Desktop and command-line clients: no secret, PKCE only.</span></span></label>
</fieldset>
<label for="app-uris">Redirect URIs <span class="hint">One per line, up to 10. https, http on 127.0.0.1, [::1] or localhost, or a private-use scheme such as com.example.app:/callback.</span></label>
<textarea id="app-uris" name="redirectUris" maxlength="21000">${form.uris ?? ''}</textarea>
<fieldset><legend>Presets for hosted assistants</legend>${PRESETS.map((p, i) => html`<label class="check"><input type="checkbox" name="preset" value="${p}" id="${`preset-${i}`}"> <span class="mono">${p}</span></label>`)}</fieldset>
<p><button type="submit">Create app</button></p></form></div>`
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Developer', session, csrf, current: 'developer', body }))
  }

  async function appPage(
    request: FastifyRequest<IdParams>,
    reply: FastifyReply,
    message: Notice | null = null,
    status = 200,
    shown: Html | null = null,
  ) {
    const session = await ctx.session(request)
    const app = APP_ID.test(request.params.id) ? await findApp(db, session.storeId, request.params.id) : undefined
    if (!app) return errorPage(reply, 404, 'App not found', 'There is no such app in this store.')
    const keys = await listApiKeys(db, session.storeId, app.app_id)
    const grants = await connectedApps(db, session.storeId, { appId: app.app_id })
    const csrf = reply.generateCsrf()
    const base = `/dashboard/developer/apps/${encodeURIComponent(app.app_id)}`
    const body = html`<p><a href="${href('/dashboard/developer')}">← All apps</a></p><h1>${app.name}</h1>
${notice(message)}${shown}
<div class="card"><h2>OAuth client</h2><dl class="facts">
<dt>Kind</dt><dd>${app.kind}</dd><dt>Client ID</dt><dd><span class="mono" id="client-id">${app.client_id}</span> ${copyButton('client-id', 'client ID')}</dd>
<dt>Client secret</dt><dd>${app.kind === 'public' ? 'none (public app: PKCE only)' : app.has_secret ? html`set, ends <span class="mono">${app.client_secret_hint ?? '…'}</span>; it is never shown again` : 'not set'}</dd>
<dt>Created</dt><dd>${when(app.created_at, session.store.timeZone)}</dd></dl>
${app.kind === 'confidential' ? html`<form method="post" action="${href(`${base}/rotate-secret`)}" class="actions">${csrfField(csrf)}<button type="submit" class="secondary">Rotate secret</button><span class="hint">The current secret stops working at once.</span></form>` : null}
</div>
<div class="card"><h2>Redirect URIs</h2>
<form method="post" action="${href(`${base}/redirect-uris`)}">${csrfField(csrf)}
<label for="uris">Redirect URIs <span class="hint">One per line, up to 10.</span></label><textarea id="uris" name="redirectUris" maxlength="21000">${app.redirect_uris.join('\n')}</textarea>
<p><button type="submit">Save redirect URIs</button></p></form></div>
<div class="card table-wrap" tabindex="0" role="region" aria-label="API keys"><h2>API keys</h2>
${
  keys.length === 0
    ? html`<p class="muted">No keys yet.</p>`
    : html`<table><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col" class="hide-sm">Scopes</th><th scope="col" class="hide-sm">Created</th><th scope="col" class="hide-sm">Last used</th><th scope="col">Status</th></tr></thead><tbody>
${keys.map(
  (
    k,
  ) => html`<tr><td>${k.name}</td><td class="mono">${k.key_hint}</td><td class="hide-sm">${k.scopes.join(' ')}</td><td class="hide-sm">${when(k.created_at, session.store.timeZone)}</td><td class="hide-sm">${k.last_used_at ? when(k.last_used_at, session.store.timeZone) : 'never'}</td>
<td>${k.revoked_at ? html`<span class="pill revoked">revoked</span>` : html`<form method="post" action="${href(`${base}/keys/${encodeURIComponent(k.key_id)}/revoke`)}">${csrfField(csrf)}<button type="submit" class="danger">Revoke<span class="skip"> ${k.name}</span></button></form>`}</td></tr>`,
)}
</tbody></table>`
}
<h3>Create a key</h3>
<form method="post" action="${href(`${base}/keys`)}">${csrfField(csrf)}
<label for="key-name">Name</label><input id="key-name" name="name" type="text" required maxlength="100">
<fieldset><legend>Scopes</legend>${SCOPES.map((s) => html`<label class="check"><input type="checkbox" name="scopes" value="${s}"${(DEFAULT_AGENT_SCOPES as readonly string[]).includes(s) ? html` checked` : null}> <span><span class="mono">${s}</span> <span class="hint">${scopeLabel(s)}</span>${SCOPE_WARNINGS[s] ? html`<span class="hint">${SCOPE_WARNINGS[s]}</span>` : null}</span></label>`)}</fieldset>
<p><button type="submit">Create key</button></p></form></div>
<div class="card table-wrap" tabindex="0" role="region" aria-label="OAuth access"><h2>OAuth access</h2>
${grantsTable(grants, csrf, (g) => `${base}/grants/${encodeURIComponent(g)}/revoke`, 'You have not approved this app through OAuth on this store.', session.store.timeZone)}</div>
<div class="card"><h2>Delete this app</h2><p class="muted">Its API keys and OAuth access are revoked and its client ID stops working.</p>
<form method="post" action="${href(`${base}/delete`)}">${csrfField(csrf)}<button type="submit" class="danger">Delete app</button></form></div>`
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(page({ title: app.name, session, csrf, current: 'developer', body }))
  }

  const secretOnce = (label: string, value: string, extra: string) =>
    html`<div class="notice ok" role="status"><strong>${label}</strong> Copy it now: it is shown only this once. ${extra}<div class="secret-line"><code class="secret" id="shown-once">${value}</code>${copyButton('shown-once', label.replace(/:$/, ''))}</div></div>`

  dash.get('/dashboard/developer', { preHandler: guard }, (request, reply) =>
    appsPage(request, reply, doneNotice(request)),
  )
  // Where a browser lands when it reloads the page that showed a new app's secret.
  dash.get('/dashboard/developer/apps', { preHandler: guard }, (_request, reply) =>
    reply.redirect('/dashboard/developer', 303),
  )

  dash.post('/dashboard/developer/apps', { preHandler: [guard, dash.csrfProtection] }, async (request, reply) => {
    const form = parseForm(
      {
        name: required('Name', 100),
        kind: z.enum(['confidential', 'public'], { error: 'Kind must be confidential or public' }),
        redirectUris: text('Redirect URIs', 21000).optional(),
        preset: list('preset', 3, 200),
      },
      request.body,
    )
    const raw = request.body as Record<string, unknown> | undefined
    const keep = {
      name: typeof raw?.name === 'string' ? raw.name.slice(0, 100) : '',
      uris: typeof raw?.redirectUris === 'string' ? raw.redirectUris.slice(0, 21000) : '',
    }
    if (!form.ok)
      return appsPage(
        request,
        reply,
        { kind: 'error', text: 'The app was not created.', items: form.problems },
        400,
        keep,
      )
    const session = await ctx.session(request)
    const presets = form.value.preset.filter((p) => PRESETS.includes(p))
    const uris = [...uriLines(form.value.redirectUris ?? ''), ...presets]
    const created = await actOrFail(services, request, session, createAppOperation, {
      body: { name: form.value.name, kind: form.value.kind, redirectUris: uris },
    })
    if (!created.ok) {
      const problems = (created.error.details?.problems as { uri: string; message: string }[] | undefined)?.map((p) =>
        p.uri ? `${p.uri} — ${p.message}` : p.message,
      ) ?? [created.error.message]
      return appsPage(request, reply, { kind: 'error', text: 'The app was not created.', items: problems }, 400, keep)
    }
    ;(request.params as { id: string }) = { id: created.data.appId }
    const shown = created.data.clientSecret
      ? secretOnce(
          'App created. Client secret:',
          created.data.clientSecret,
          'Reloading this page will not show it again; rotate it if it is lost.',
        )
      : null
    return appPage(
      request as FastifyRequest<IdParams>,
      reply,
      created.data.clientSecret ? null : { kind: 'ok', text: 'App created.' },
      201,
      shown,
    )
  })

  dash.get<IdParams>('/dashboard/developer/apps/:id', { preHandler: guard }, (request, reply) =>
    appPage(request, reply, doneNotice(request)),
  )
  registerGrantRoutes(dash, ctx)

  const appAction = (
    suffix: string,
    run: (
      request: FastifyRequest<IdParams>,
      session: MerchantSession,
    ) => Promise<{ notice?: Notice; shown?: Html; status?: number; gone?: boolean }>,
  ) =>
    dash.post<IdParams>(
      `/dashboard/developer/apps/:id/${suffix}`,
      { preHandler: [guard, dash.csrfProtection] },
      async (request, reply) => {
        const session = await ctx.session(request)
        if (!APP_ID.test(request.params.id))
          return errorPage(reply, 404, 'App not found', 'There is no such app in this store.')
        const out = await run(request, session)
        if (out.gone) return errorPage(reply, 404, 'App not found', 'There is no such app in this store.')
        return appPage(request, reply, out.notice ?? null, out.status ?? 200, out.shown ?? null)
      },
    )

  appAction('rotate-secret', async (request, session) => {
    const r = await actOrFail(services, request, session, rotateClientSecretOperation, {
      params: { id: request.params.id },
    })
    if (!r.ok)
      return r.error.code === 'NOT_FOUND'
        ? { gone: true }
        : { notice: { kind: 'error', text: r.error.message }, status: 400 }
    return { shown: secretOnce('New client secret:', r.data.clientSecret, 'The previous secret no longer works.') }
  })

  appAction('redirect-uris', async (request, session) => {
    const form = parseForm({ redirectUris: text('Redirect URIs', 21000) }, request.body)
    if (!form.ok)
      return { notice: { kind: 'error', text: 'The redirect URIs were not saved.', items: form.problems }, status: 400 }
    const r = await actOrFail(services, request, session, setRedirectUrisOperation, {
      params: { id: request.params.id },
      body: { redirectUris: uriLines(form.value.redirectUris) },
    })
    if (!r.ok) {
      if (r.error.code === 'NOT_FOUND') return { gone: true }
      const problems = (r.error.details?.problems as { uri: string; message: string }[] | undefined)?.map((p) =>
        p.uri ? `${p.uri} — ${p.message}` : p.message,
      ) ?? [r.error.message]
      return { notice: { kind: 'error', text: 'The redirect URIs were not saved.', items: problems }, status: 400 }
    }
    return { notice: { kind: 'ok', text: 'Redirect URIs saved.' } }
  })

  appAction('keys', async (request, session) => {
    const form = parseForm({ name: required('Name', 100), scopes: list('scopes', SCOPES.length, 40) }, request.body)
    if (!form.ok)
      return { notice: { kind: 'error', text: 'The key was not created.', items: form.problems }, status: 400 }
    const r = await actOrFail(services, request, session, createApiKeyOperation, {
      params: { id: request.params.id },
      body: { name: form.value.name, scopes: form.value.scopes },
    })
    if (!r.ok)
      return r.error.code === 'NOT_FOUND'
        ? { gone: true }
        : { notice: { kind: 'error', text: `The key was not created: ${r.error.message}.` }, status: 400 }
    return { shown: secretOnce('API key created:', r.data.key, 'Only a hash is stored.'), status: 201 }
  })

  dash.post<{ Params: { id: string; keyId: string } }>(
    '/dashboard/developer/apps/:id/keys/:keyId/revoke',
    { preHandler: [guard, dash.csrfProtection] },
    async (request, reply) => {
      const session = await ctx.session(request)
      const keyId = request.params.keyId
      const owned = APP_ID.test(keyId) && (await isAppKey(db, session.storeId, request.params.id, keyId))
      if (!owned) return errorPage(reply, 404, 'Key not found', 'There is no such API key in this store.')
      const r = await actOrFail(services, request, session, revokeApiKeyOperation, { params: { keyId } })
      return appPage(
        request,
        reply,
        r.ok
          ? { kind: 'ok', text: 'Key revoked. It stops working with the next request.' }
          : { kind: 'error', text: 'This key was already revoked.' },
      )
    },
  )

  dash.post<IdParams>(
    '/dashboard/developer/apps/:id/delete',
    { preHandler: [guard, dash.csrfProtection] },
    async (request, reply) => {
      const session = await ctx.session(request)
      if (!APP_ID.test(request.params.id))
        return errorPage(reply, 404, 'App not found', 'There is no such app in this store.')
      const r = await actOrFail(services, request, session, deleteAppOperation, { params: { id: request.params.id } })
      if (!r.ok) return errorPage(reply, 404, 'App not found', 'There is no such app in this store.')
      return appsPage(request, reply, {
        kind: 'ok',
        text: `App deleted${r.data.revokedKeys ? `; ${r.data.revokedKeys} API key${r.data.revokedKeys === 1 ? ' was' : 's were'} revoked` : ''}.`,
      })
    },
  )
}
