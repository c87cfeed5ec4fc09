import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { MerchantSession } from '../auth/merchant-session.ts'
import type { Theme } from '../aggregates/theme/state.ts'
import {
  blameThemeOperation,
  diffThemeOperation,
  listThemeVersionsOperation,
  revertThemeOperation,
} from '../operations/theme-history-operations.ts'
import type { Blame, Change } from '../aggregates/theme/history.ts'
import { actorDirectory, type ActorDirectory } from '../queries/actors.ts'
import type { DiffResult, VersionListItem } from '../queries/themes/history.ts'
import type { Pagination } from '../queries/pagination.ts'
import { listThemes } from '../queries/themes/theme-queries.ts'
import { sectionLabel, settingLabel } from '../theme/merchant-texts.ts'
import { html, type Html } from '../web/html.ts'
import { act, explain } from './act.ts'
import { parseForm, text } from './forms.ts'
import { csrfField, href, notice, page, when, type Notice } from './layout.ts'
import type { DashboardContext } from './plugin.ts'
import { actorLabel, channelLabel, ownTheme, themePath, versionPreviewPath, type IdParams } from './theme-access.ts'
import { diffView, highlights, layoutName, previewPair, refLabel, type DiffRefView } from './theme-diff-view.ts'

// A theme's history for the merchant: the versions page (newest first, paginated; who, where,
// what), a side-by-side comparison of any two points (a version, the draft, the live theme) and
// revert-to-version. Every read and the revert go through the same operations as REST and MCP.

const PAGE_SIZE = '20'
const REF = /^(?:[0-9]{1,9}|draft|live)$/
const VERSION = /^[0-9]{1,9}$/

type Ref = number | 'draft' | 'live'
const parseRef = (v: unknown, fallback: Ref): Ref | null =>
  v === undefined || v === ''
    ? fallback
    : typeof v === 'string' && REF.test(v)
      ? VERSION.test(v)
        ? Number(v)
        : (v as Ref)
      : null

/** The preview of one side of a diff, pinned to the version that was diffed. */
export function previewOf(ref: DiffRefView, slug: string): { path: string } | null {
  if (ref.themeId && ref.version !== null) return { path: versionPreviewPath(ref.themeId, ref.version) }
  // No live theme: the storefront shows the default theme.
  if (ref.ref === 'live') return { path: `/s/${encodeURIComponent(slug)}` }
  return null
}

/** Both previews with the touched sections outlined, then the structural diff. */
export function comparison(diff: DiffResult, session: MerchantSession, labels: { from: string; to: string }): Html {
  const marks = highlights(diff.changes)
  const from = previewOf(diff.from, session.store.slug)
  const to = previewOf(diff.to, session.store.slug)
  const note = diff.changes.tokens.length
    ? 'The design tokens differ too (colours, fonts, style): they change the whole page, so no single section is outlined for them.'
    : null
  return html`${previewPair({ label: labels.from, src: from && { ...from, query: marks.from } }, { label: labels.to, src: to && { ...to, query: marks.to } }, note)}${diffView(diff)}`
}

export async function themeNames(ctx: DashboardContext, storeId: string): Promise<Map<string, string>> {
  return new Map(
    (await listThemes(ctx.services.readFor(storeId), storeId, { includeArchived: true })).map((t) => [
      t.themeId,
      t.name,
    ]),
  )
}

// Who last changed each section, the navigation and the design tokens (the blameTheme operation).
function blameCard(b: Blame, names: ActorDirectory, zone: string | null): Html {
  const who = (c: Change) =>
    html`version ${String(c.version)} · ${when(c.at, zone)}<div class="muted">${actorLabel(c.actor, names)} ${channelLabel(c.channel)}</div>`
  const tokens = Object.entries(b.tokens).filter((e): e is [string, Change] => e[1] !== null)
  return html`<div class="card table-wrap" tabindex="0" role="region" aria-label="Who last changed each part"><details><summary><strong>Who last changed each section</strong> <span class="muted">(${String(b.sections.length)} sections)</span></summary>
<table class="stack"><thead><tr><th scope="col">Part</th><th scope="col">Last change</th></tr></thead><tbody>
${b.sections.map((s) => html`<tr><td data-label="Section"><strong>${sectionLabel(s.type)}</strong> <span class="muted">on ${layoutName(s.layout)}</span><div class="muted mono">${s.id}</div></td><td data-label="Last change">${who(s.last)}</td></tr>`)}
${b.navigation ? html`<tr><td data-label="Part"><strong>Navigation</strong></td><td data-label="Last change">${who(b.navigation)}</td></tr>` : null}
${tokens.map(([k, c]) => html`<tr><td data-label="Token"><strong>${settingLabel(k)}</strong> <span class="muted">design token</span></td><td data-label="Last change">${who(c)}</td></tr>`)}
</tbody></table></details></div>`
}

const DONE: Record<string, string> = {
  reverted: 'Reverted. The draft now equals the version you chose, saved as a new version; nothing was erased.',
}

export function registerThemeHistoryRoutes(dash: FastifyInstance, ctx: DashboardContext) {
  const { services, guard } = ctx

  async function versionsPage(
    request: FastifyRequest<IdParams>,
    reply: FastifyReply,
    own: { session: MerchantSession; theme: Theme },
    message: Notice | null,
    status = 200,
  ) {
    const { session, theme } = own
    const query = request.query as Record<string, unknown>
    const cursor = typeof query.cursor === 'string' && query.cursor.length <= 500 ? query.cursor : undefined
    const list = (c: string | undefined) =>
      act(services, request, session, listThemeVersionsOperation, {
        params: { id: theme.themeId },
        query: { limit: PAGE_SIZE, ...(c ? { cursor: c } : {}) },
      })
    const first = await list(cursor)
    // A stale or edited page link: show the newest versions and say so.
    const badCursor = !first.ok && cursor !== undefined
    const listed = badCursor ? await list(undefined) : first
    if (!listed.ok) throw new Error(`listThemeVersions failed: ${listed.error.code}`)
    const versions = (listed.data as { versions: VersionListItem[] }).versions
    const pagination = (listed as { pagination?: Pagination }).pagination
    const names = await actorDirectory(services.readFor(session.storeId).db, session.storeId)
    const blamed = await act(services, request, session, blameThemeOperation, { params: { id: theme.themeId } })
    const csrf = reply.generateCsrf()
    const editable = theme.status === 'draft'
    const row = (v: VersionListItem) => html`<tr>
<td class="nowrap" data-label="Version"><strong>${v.fromVersion === v.toVersion ? String(v.toVersion) : `${v.fromVersion}–${v.toVersion}`}</strong>${v.toVersion === theme.version ? html` <span class="pill draft">current</span>` : null}</td>
<td data-label="When">${when(v.at, session.store.timeZone)}</td>
<td data-label="Who">${actorLabel(v.actor, names)} <span class="muted show-sm">${channelLabel(v.channel)}</span></td>
<td class="hide-sm">${channelLabel(v.channel)}</td>
<td data-label="What changed">${v.summary}<div class="muted mono hide-sm">${v.command}${v.requestId ? ` · ${v.requestId}` : ''}</div></td>
<td><div class="actions">
<a class="button secondary" href="${href(versionPreviewPath(theme.themeId, v.toVersion))}">Preview<span class="skip"> version ${String(v.toVersion)}</span></a>
${v.toVersion !== theme.version ? html`<a class="button secondary" href="${href(themePath(theme.themeId, '/compare'), { from: String(v.toVersion), to: 'draft' })}">Compare<span class="skip"> version ${String(v.toVersion)} with now</span></a>` : null}
${
  editable && v.toVersion !== theme.version
    ? html`<form method="post" action="${href(themePath(theme.themeId, '/revert'))}">${csrfField(csrf)}<input type="hidden" name="toVersion" value="${String(v.toVersion)}"><input type="hidden" name="expectedVersion" value="${String(theme.version)}"><button type="submit" class="secondary">Revert to this<span class="skip"> version ${String(v.toVersion)}</span></button></form>`
    : null
}
</div></td></tr>`
    const body = html`<p><a href="${href('/dashboard/themes')}">← Themes</a></p>
<h1>History of “${theme.name}”</h1>
<p class="lede">Every change to this theme, newest first: who made it, through which channel, and what it changed. Preview any version, compare it with the current theme, or revert the draft to it (the revert is saved as a new version; nothing is erased).</p>
${notice(message)}
${badCursor ? notice({ kind: 'warn', text: 'That page link is no longer valid; showing the newest versions instead.' }) : null}
<div class="card"><div class="actions"><span>Now at version <strong>${String(theme.version)}</strong> · <span class="pill ${theme.status}">${theme.status}</span></span>
<a class="button secondary" href="${href(themePath(theme.themeId, '/compare'), { from: 'live', to: 'draft' })}">Compare with the live theme</a>
<a class="button secondary" href="${href(themePath(theme.themeId, '/preview'))}">Preview now</a></div>
${editable ? null : html`<p class="muted">Only drafts can be reverted. Duplicate this theme to get an editable draft.</p>`}</div>
<div class="card table-wrap" tabindex="0" role="region" aria-label="Versions"><table class="stack">
<caption class="visually-hidden">Versions of ${theme.name}, newest first</caption>
<thead><tr><th scope="col">Version</th><th scope="col">When</th><th scope="col">Who</th><th scope="col" class="hide-sm">Channel</th><th scope="col">What changed</th><th scope="col">Actions</th></tr></thead>
<tbody>${versions.length === 0 ? html`<tr><td colspan="6" class="muted">No versions.</td></tr>` : versions.map(row)}</tbody></table>
<div class="pager">${cursor && !badCursor ? html`<a class="button secondary" href="${href(themePath(theme.themeId, '/versions'))}">← Newest</a>` : null}${pagination?.nextCursor ? html`<a class="button secondary" href="${href(themePath(theme.themeId, '/versions'), { cursor: pagination.nextCursor })}">Older versions →</a>` : null}</div>
</div>
${blamed.ok ? blameCard(blamed.data as Blame, names, session.store.timeZone) : null}`
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(page({ title: `History of ${theme.name}`, session, csrf, current: 'themes', body }))
  }

  dash.get<IdParams & { Querystring: Record<string, unknown> }>(
    '/dashboard/themes/:id/versions',
    { preHandler: guard },
    async (request, reply) => {
      const own = await ownTheme(ctx, request, reply)
      if (!own) return reply
      const done = typeof request.query.done === 'string' ? DONE[request.query.done] : undefined
      return versionsPage(request, reply, own, done ? { kind: 'ok', text: done } : null)
    },
  )

  dash.post<IdParams>(
    '/dashboard/themes/:id/revert',
    { preHandler: [guard, dash.csrfProtection] },
    async (request, reply) => {
      const own = await ownTheme(ctx, request, reply)
      if (!own) return reply
      const form = parseForm(
        {
          toVersion: text('Version', 9).regex(VERSION, { error: 'Version must be a number' }),
          expectedVersion: text('Version shown', 9).regex(VERSION, { error: 'The version shown must be a number' }),
        },
        request.body,
      )
      if (!form.ok)
        return versionsPage(
          request,
          reply,
          own,
          { kind: 'error', text: 'Nothing was reverted.', items: form.problems },
          400,
        )
      const reverted = await act(services, request, own.session, revertThemeOperation, {
        params: { id: own.theme.themeId },
        body: { toVersion: Number(form.value.toVersion), expectedVersion: Number(form.value.expectedVersion) },
      })
      if (!reverted.ok) {
        const e = reverted.error
        const text =
          e.code === 'VERSION_CONFLICT'
            ? `Nothing was reverted: the theme changed after this page was shown (it is now at version ${String(e.details?.currentVersion ?? own.theme.version)}). Review the list and try again.`
            : `Nothing was reverted. ${explain(e)}`
        return versionsPage(
          request,
          reply,
          own,
          { kind: 'error', text },
          e.code === 'NOT_FOUND' ? 404 : e.code === 'VALIDATION_FAILED' ? 400 : 409,
        )
      }
      return reply.redirect(`${themePath(own.theme.themeId, '/versions')}?done=reverted`, 303)
    },
  )

  // Any two points side by side: ?from=<version|draft|live>&to=<version|draft|live>.
  dash.get<IdParams & { Querystring: Record<string, unknown> }>(
    '/dashboard/themes/:id/compare',
    { preHandler: guard },
    async (request, reply) => {
      const own = await ownTheme(ctx, request, reply)
      if (!own) return reply
      const { session, theme } = own
      const from = parseRef(request.query.from, 'live')
      const to = parseRef(request.query.to, 'draft')
      const problems: string[] = []
      if (from === null) problems.push('“From” must be a version number, draft or live.')
      if (to === null) problems.push('“To” must be a version number, draft or live.')
      const diff =
        from !== null && to !== null
          ? await act(services, request, session, diffThemeOperation, {
              params: { id: theme.themeId },
              query: { from: String(from), to: String(to) },
            })
          : null
      if (diff && !diff.ok)
        problems.push(
          diff.error.code === 'NOT_FOUND'
            ? `This theme has no ${diff.error.message.replace(/ not found$/, '')}; it is at version ${theme.version}.`
            : explain(diff.error),
        )
      const data = diff?.ok ? (diff.data as DiffResult) : null
      const names = await themeNames(ctx, session.storeId)
      const labels = data
        ? { from: refLabel(data.from, names, theme.themeId), to: refLabel(data.to, names, theme.themeId) }
        : null
      const csrf = reply.generateCsrf()
      // The points to choose from: the live theme, the theme now, and its latest versions by what they changed.
      const listed = await act(services, request, session, listThemeVersionsOperation, {
        params: { id: theme.themeId },
        query: { limit: '100' },
      })
      const versions = listed.ok ? (listed.data as { versions: VersionListItem[] }).versions : []
      const short = (text: string) => (text.length > 70 ? `${text.slice(0, 69)}…` : text)
      const choices: [string, string][] = [
        ['live', 'The live theme'],
        ['draft', `This theme now (version ${theme.version})`],
        ...versions.map((v): [string, string] => [String(v.toVersion), short(`Version ${v.toVersion}: ${v.summary}`)]),
      ]
      const field = (name: 'from' | 'to', label: string, value: Ref | null) => {
        const selected = value === null ? (name === 'from' ? 'live' : 'draft') : String(value)
        const options = choices.some(([v]) => v === selected)
          ? choices
          : [...choices, [selected, `Version ${selected}`]]
        return html`<div><label for="${`cmp-${name}`}">${label}</label><select id="${`cmp-${name}`}" name="${name}">${options.map(([v, text]) => html`<option value="${v}"${v === selected ? html` selected` : null}>${text}</option>`)}</select></div>`
      }
      const canRevert =
        data && theme.status === 'draft' && typeof from === 'number' && to === 'draft' && from !== theme.version
      const body = html`<p><a href="${href(themePath(theme.themeId, '/versions'))}">← History of “${theme.name}”</a></p>
<h1>${labels ? html`Compare ${labels.from} with ${labels.to}` : html`Compare versions of “${theme.name}”`}</h1>
${problems.length ? notice({ kind: 'error', text: 'These two points cannot be compared.', items: problems }) : null}
<form method="get" action="${href(themePath(theme.themeId, '/compare'))}" class="card filters" aria-label="What to compare">
${field('from', 'From', from)}${field('to', 'To', to)}<div><button type="submit">Compare</button></div></form>
${
  canRevert
    ? html`<div class="card"><form method="post" action="${href(themePath(theme.themeId, '/revert'))}" class="actions">${csrfField(csrf)}<input type="hidden" name="toVersion" value="${String(from)}"><input type="hidden" name="expectedVersion" value="${String(data.to.version)}"><span>Make the draft equal to version ${String(from)} again (saved as version ${String(theme.version + 1)} or later).</span><button type="submit">Revert draft to version ${String(from)}</button></form></div>`
    : null
}
${data && labels ? comparison(data, session, labels) : null}`
      return reply
        .code(problems.length ? (diff && !diff.ok && diff.error.code === 'NOT_FOUND' ? 404 : 400) : 200)
        .type('text/html; charset=utf-8')
        .send(page({ title: `Compare · ${theme.name}`, session, csrf, current: 'themes', body }))
    },
  )
}
