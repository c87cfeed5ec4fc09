import type { FastifyInstance } from 'fastify'
import { activityTimes, listActivity, type ActivityFilters } from '../queries/activity.ts'
import { appsByName } from '../queries/app-names.ts'
import { listThemes } from '../queries/themes/theme-queries.ts'
import type { Services } from '../services.ts'
import { html, type Html } from '../web/html.ts'
import { href, page, when } from './layout.ts'
import type { DashboardContext } from './plugin.ts'

// /dashboard/developer/activity: the merchant's view of the developer_activity projection.
const PAGE_SIZE = 50
const CHANNELS = ['rest', 'mcp', 'dashboard', 'editor', 'cli', 'seed'] as const
const ID = /^[A-Za-z0-9_-]{1,100}$/
const DAY = /^\d{4}-\d{2}-\d{2}$/

type Filters = {
  app: string | null
  theme: string | null
  channel: string | null
  outcome: 'applied' | 'rejected' | null
  from: string | null
  to: string | null
  cursor: number | null
}

function readFilters(query: Record<string, unknown>): { filters: Filters; problems: string[] } {
  const problems: string[] = []
  const pick = (name: string, ok: (v: string) => boolean, message: string): string | null => {
    const v = query[name]
    if (v === undefined || v === '') return null
    if (typeof v !== 'string' || !ok(v)) {
      problems.push(message)
      return null
    }
    return v
  }
  const validDay = (v: string) => DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))
  const cursor = pick('cursor', (v) => /^\d{1,15}$/.test(v), 'the page link is not valid')
  return {
    filters: {
      app: pick('app', (v) => ID.test(v), 'unknown app'),
      theme: pick('theme', (v) => ID.test(v), 'the theme id is not valid'),
      channel: pick('channel', (v) => (CHANNELS as readonly string[]).includes(v), 'unknown channel'),
      outcome: pick(
        'outcome',
        (v) => v === 'applied' || v === 'rejected',
        'outcome must be applied or refused',
      ) as Filters['outcome'],
      from: pick('from', validDay, '“From” must be a date (YYYY-MM-DD)'),
      to: pick('to', validDay, '“To” must be a date (YYYY-MM-DD)'),
      cursor: cursor === null ? null : Number(cursor),
    },
    problems,
  }
}

const DAY_MS = 86400_000

// The page's filters as the query's: a day runs from its midnight UTC to the next.
const queryFilters = (f: Filters): ActivityFilters => ({
  appId: f.app,
  themeId: f.theme,
  channel: f.channel,
  outcome: f.outcome,
  since: f.from ? new Date(`${f.from}T00:00:00Z`) : null,
  until: f.to ? new Date(Date.parse(`${f.to}T00:00:00Z`) + DAY_MS) : null,
})

const who = (r: { credential_kind: string; app_name: string | null; credential_id: string | null }) =>
  r.credential_kind === 'merchant'
    ? 'You (merchant)'
    : r.credential_kind === 'system'
      ? 'Platform'
      : `${r.app_name ?? 'Unknown app'}${r.credential_id ? ` · ${r.credential_id}` : ''}`
const channelOf = (r: { channel: string; tool: string | null }) =>
  r.channel === 'mcp' ? `MCP${r.tool ? ` · ${r.tool}` : ''}` : r.channel === 'rest' ? 'REST' : r.channel

const csvCell = (v: unknown) => {
  let s = v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v)
  // Spreadsheets run cells that start with = + - @ as formulas.
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return `"${s.replace(/"/g, '""')}"`
}

export function registerActivityRoutes(dash: FastifyInstance, ctx: DashboardContext) {
  const { services, guard } = ctx

  dash.get<{ Querystring: Record<string, unknown> }>(
    '/dashboard/developer/activity.csv',
    { preHandler: guard },
    async (request, reply) => {
      const session = await ctx.session(request)
      const { filters, problems } = readFilters(request.query)
      if (problems.length > 0)
        return reply
          .code(400)
          .type('text/plain; charset=utf-8')
          .send(`${problems.join('\n')}\n`)
      const rows = await listActivity(services.db, session.storeId, queryFilters(filters), { limit: 10_000 })
      const header = [
        'time',
        'app',
        'credential',
        'channel',
        'tool',
        'action',
        'theme',
        'outcome',
        'error_code',
        'request_id',
        'summary',
      ]
      const lines = [
        header.join(','),
        ...rows.map((r) =>
          [
            r.occurred_at,
            r.credential_kind === 'merchant' ? 'merchant' : r.app_name,
            r.credential_id,
            r.channel,
            r.tool,
            r.action,
            r.theme_id,
            r.outcome,
            r.error_code,
            r.request_id,
            r.summary,
          ]
            .map(csvCell)
            .join(','),
        ),
      ]
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="developer-activity.csv"')
        .send(`${lines.join('\r\n')}\r\n`)
    },
  )

  dash.get<{ Querystring: Record<string, unknown> }>(
    '/dashboard/developer/activity',
    { preHandler: guard },
    async (request, reply) => {
      const session = await ctx.session(request)
      const { filters, problems } = readFilters(request.query)
      const rows =
        problems.length > 0
          ? []
          : await listActivity(services.db, session.storeId, queryFilters(filters), {
              limit: PAGE_SIZE + 1,
              before: filters.cursor,
            })
      const more = rows.length > PAGE_SIZE
      const shown = rows.slice(0, PAGE_SIZE)
      const apps = await appsByName(services.db, session.storeId)
      const themes = await listThemes(services.read, session.storeId, { includeArchived: true })
      const chart = problems.length > 0 ? null : await dailyChart(services, session.storeId, filters)
      const keep: Record<string, string | undefined> = {
        app: filters.app ?? undefined,
        theme: filters.theme ?? undefined,
        channel: filters.channel ?? undefined,
        outcome: filters.outcome ?? undefined,
        from: filters.from ?? undefined,
        to: filters.to ?? undefined,
      }
      const csrf = reply.generateCsrf()
      const option = (value: string, label: string, current: string | null) =>
        html`<option value="${value}"${current === value ? html` selected` : null}>${label}</option>`
      const body = html`<h1>Developer activity</h1>
<p class="lede">Everything agents and you did through the API, MCP and this dashboard — including what was refused.</p>
${problems.length > 0 ? html`<div class="notice error" role="alert">The filters could not be used:<ul>${problems.map((p) => html`<li>${p}</li>`)}</ul></div>` : null}
<form method="get" action="${href('/dashboard/developer/activity')}" class="card filters" aria-label="Filters">
<div><label for="f-app">App</label><select id="f-app" name="app"><option value="">All apps</option>${apps.map((a) => option(a.app_id, a.name, filters.app))}</select></div>
<div><label for="f-theme">Theme</label><select id="f-theme" name="theme"><option value="">All themes</option>${themes.map((t) => option(t.themeId, t.name, filters.theme))}</select></div>
<div><label for="f-channel">Channel</label><select id="f-channel" name="channel"><option value="">All channels</option>${CHANNELS.map((c) => option(c, c === 'rest' ? 'REST' : c === 'mcp' ? 'MCP' : c, filters.channel))}</select></div>
<div><label for="f-outcome">Outcome</label><select id="f-outcome" name="outcome"><option value="">Any outcome</option>${option('applied', 'Applied', filters.outcome)}${option('rejected', 'Refused', filters.outcome)}</select></div>
<div><label for="f-from">From</label><input id="f-from" name="from" type="date" value="${filters.from ?? ''}"></div>
<div><label for="f-to">To</label><input id="f-to" name="to" type="date" value="${filters.to ?? ''}"></div>
<div><button type="submit">Filter</button> <a class="button secondary" href="${href('/dashboard/developer/activity.csv', keep)}">Export CSV</a></div>
</form>
${chart}
<div class="card table-wrap" tabindex="0" role="region" aria-label="Activity"><table>
<thead><tr><th scope="col">Time</th><th scope="col">Who</th><th scope="col" class="hide-sm">Channel</th><th scope="col">Action</th><th scope="col">Outcome</th><th scope="col">What changed</th></tr></thead>
<tbody>${
        shown.length === 0
          ? html`<tr><td colspan="6" class="muted">No activity matches these filters.</td></tr>`
          : shown.map(
              (r) => html`<tr>
<td>${when(r.occurred_at)}</td><td>${who(r)}</td><td class="hide-sm">${channelOf(r)}</td><td><span class="mono">${r.action}</span>${r.theme_id ? html`<div class="muted mono">${r.theme_id}</div>` : null}</td>
<td>${r.outcome === 'applied' ? html`<span class="pill applied">applied</span>` : html`<span class="pill rejected">refused</span><div class="mono">${r.error_code ?? ''}</div>`}</td>
<td><details><summary>${r.summary}</summary><ul>${(r.changes as unknown as string[]).map((c) => html`<li>${c}</li>`)}</ul><p class="muted">Request <span class="mono">${r.request_id ?? '—'}</span> · command <span class="mono">${r.command_id}</span></p></details></td></tr>`,
            )
      }</tbody></table>
${more ? html`<div class="pager"><a class="button secondary" href="${href('/dashboard/developer/activity', { ...keep, cursor: String(shown.at(-1)!.first_position) })}">Older activity →</a></div>` : null}
</div>`
      return reply
        .type('text/html; charset=utf-8')
        .send(page({ title: 'Developer activity', session, csrf, current: 'activity', body }))
    },
  )
}

// Commands per day per app over the filtered rows (last 14 days of the range), as an SVG. Every
// other day is labelled, counting back from the last, so the newest bar always has its date.
async function dailyChart(services: Services, storeId: string, f: Filters): Promise<Html | null> {
  const rows = await activityTimes(services.db, storeId, queryFilters(f), 5000)
  if (rows.length === 0) return null
  const end = f.to
    ? new Date(`${f.to}T00:00:00Z`)
    : new Date(`${new Date(rows[0]!.occurred_at).toISOString().slice(0, 10)}T00:00:00Z`)
  const days = Array.from({ length: 14 }, (_, i) =>
    new Date(end.getTime() - (13 - i) * DAY_MS).toISOString().slice(0, 10),
  )
  const series = new Map<string, Map<string, number>>()
  for (const r of rows) {
    const day = new Date(r.occurred_at).toISOString().slice(0, 10)
    if (!days.includes(day)) continue
    const name =
      r.credential_kind === 'merchant'
        ? 'You (merchant)'
        : r.credential_kind === 'system'
          ? 'Platform'
          : (r.app_name ?? 'Unknown app')
    const s = series.get(name) ?? new Map<string, number>()
    s.set(day, (s.get(day) ?? 0) + 1)
    series.set(name, s)
  }
  const names = [...series.keys()].slice(0, 6)
  const totals = days.map((d) => names.reduce((n, name) => n + (series.get(name)?.get(d) ?? 0), 0))
  const max = Math.max(1, ...totals)
  const W = 700
  const H = 140
  const bar = W / days.length
  const rects: Html[] = []
  days.forEach((d, i) => {
    let y = H
    names.forEach((name, k) => {
      const n = series.get(name)?.get(d) ?? 0
      if (n === 0) return
      const h = (n / max) * (H - 10)
      y -= h
      rects.push(
        html`<rect class="${`c${k}`}" x="${(i * bar + 4).toFixed(1)}" y="${y.toFixed(1)}" width="${(bar - 8).toFixed(1)}" height="${h.toFixed(1)}"><title>${d}: ${name}, ${n}</title></rect>`,
      )
    })
  })
  const label = `Commands per day per app, ${days[0]} to ${days.at(-1)}: ${names.map((n) => `${n} ${days.reduce((s, d) => s + (series.get(n)?.get(d) ?? 0), 0)}`).join(', ')}`
  return html`<div class="card"><h2>Activity per day</h2><svg class="chart" viewBox="${`0 0 ${W} ${H + 18}`}" role="img" aria-label="${label}">${rects}
${days.map((d, i) => ((days.length - 1 - i) % 2 === 0 ? html`<text x="${(i * bar + bar / 2).toFixed(1)}" y="${String(H + 14)}" font-size="10" text-anchor="middle" fill="#5b616e">${d.slice(5)}</text>` : null))}</svg>
<ul class="legend">${names.map((n, k) => html`<li><span class="swatch ${`c${k}`}"></span>${n}</li>`)}</ul></div>`
}
