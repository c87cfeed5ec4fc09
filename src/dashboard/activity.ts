import type { FastifyInstance } from 'fastify'
import type { MerchantLine, ShownValue } from '../aggregates/merchant-line.ts'
import {
  activityOf,
  activityTimes,
  actorOf,
  appsThatActed,
  listActivity,
  themeNamesOf,
  YOU_FILTER,
  type ActivityEntry,
  type ActivityFilters,
} from '../queries/activity.ts'
import {
  headlineOf,
  headlineText,
  issueField,
  issueText,
  lineText,
  themeName,
  type ThemeNames,
} from '../queries/activity-words.ts'
import { actorDirectory, actorText, channelText, YOU, type ActorDirectory } from '../queries/actors.ts'
import type { Services } from '../services.ts'
import { html, type Html } from '../web/html.ts'
import { dayIn, formatTime, knownZone, startOfDay, zoneLabel } from '../web/time.ts'
import { href, page, when } from './layout.ts'
import type { DashboardContext } from './plugin.ts'

// The database a list reads (a replica's or the primary's: services.readFor).
type ReadDb = Services['read']['db']

// /dashboard/developer/activity: what agents and the merchant did, and what was refused, as an
// account a shop owner can read (decision docs/decisions/0123-activity-reads-as-an-account.md):
// a headline naming the theme, the section and setting by their labels and the values before and
// after; ids, operations and request ids in the opened details. A table at desktop widths, one
// card per row on a phone (table.stack).
const PAGE_SIZE = 50
const CHANNELS = ['rest', 'mcp', 'dashboard', 'editor', 'cli', 'seed'] as const
const THEME_ID = /^[A-Za-z0-9_-]{1,100}$/
// An app as the rows record it: a dashboard app's id, or an OAuth client's id (an https URL for
// a client known by its metadata document).
const APP_ID = /^[\x21-\x7e]{1,500}$/
const DAY = /^\d{4}-\d{2}-\d{2}$/

// One outcome vocabulary in the URL, the labels and the CSV. `rejected` (the stored word, used by
// links before) is read as `refused`.
const OUTCOMES = { applied: 'Applied', refused: 'Refused' } as const
type Outcome = keyof typeof OUTCOMES

type Filters = {
  app: string | null
  theme: string | null
  channel: string | null
  outcome: Outcome | null
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
  const outcome = pick('outcome', (v) => v in OUTCOMES || v === 'rejected', 'outcome must be applied or refused')
  return {
    filters: {
      app: pick('app', (v) => APP_ID.test(v), 'unknown app'),
      theme: pick('theme', (v) => THEME_ID.test(v), 'the theme id is not valid'),
      channel: pick('channel', (v) => (CHANNELS as readonly string[]).includes(v), 'unknown channel'),
      outcome: outcome === 'rejected' ? 'refused' : (outcome as Outcome | null),
      from: pick('from', validDay, '“From” must be a date (YYYY-MM-DD)'),
      to: pick('to', validDay, '“To” must be a date (YYYY-MM-DD)'),
      cursor: cursor === null ? null : Number(cursor),
    },
    problems,
  }
}

const DAY_MS = 86400_000
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)

// The page's filters as the query's: a day is the store's day, in its time zone.
const queryFilters = (f: Filters, zone: string | null): ActivityFilters => ({
  appId: f.app,
  themeId: f.theme,
  channel: f.channel,
  outcome: f.outcome === 'refused' ? 'rejected' : f.outcome,
  since: f.from ? startOfDay(f.from, zone) : null,
  until: f.to ? startOfDay(nextDay(f.to), zone) : null,
})

const outcomeOf = (r: ActivityEntry): Outcome => (r.outcome === 'rejected' ? 'refused' : 'applied')

const csvCell = (v: unknown) => {
  let s = v === null || v === undefined ? '' : String(v)
  // Spreadsheets run cells that start with = + - @ as formulas.
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return `"${s.replace(/"/g, '""')}"`
}

// What an undo's row took back: the undone command's headline.
async function undoneHeadlines(db: ReadDb, storeId: string, rows: ActivityEntry[], names: ThemeNames) {
  const ids = rows.flatMap((r) => (r.lines ?? []).flatMap((l) => (l.undoes ? [l.undoes] : [])))
  const undone = await activityOf(db, storeId, ids)
  return new Map(undone.map((u) => [u.command_id, headlineText(headlineOf(u), names)]))
}

// The row's lines as text (CSV), with what an undo took back.
const linesText = (r: ActivityEntry, names: ThemeNames, undone: Map<string, string>) =>
  (r.lines ?? [{ text: r.summary }])
    .map((l) => `${lineText(l, names)}${l.undoes ? `: ${undone.get(l.undoes) ?? 'an earlier change'}` : ''}`)
    .join('\n')

const problemsText = (r: ActivityEntry) => (r.issues === null ? '' : r.issues.map(issueText).join('\n'))

export function registerActivityRoutes(dash: FastifyInstance, ctx: DashboardContext) {
  const { services, guard } = ctx

  dash.get<{ Querystring: Record<string, unknown> }>(
    '/dashboard/developer/activity.csv',
    { preHandler: guard },
    async (request, reply) => {
      const session = await ctx.session(request)
      // A list: read where the store's reads go now (a replica unless a write is not replayed there).
      const db = services.readFor(session.storeId).db
      const zone = session.store.timeZone
      const { filters, problems } = readFilters(request.query)
      if (problems.length > 0)
        return reply
          .code(400)
          .type('text/plain; charset=utf-8')
          .send(`${problems.join('\n')}\n`)
      const [rows, actors, names] = await Promise.all([
        listActivity(db, session.storeId, queryFilters(filters, zone), { limit: 10_000 }),
        actorDirectory(db, session.storeId),
        themeNamesOf(db, session.storeId),
      ])
      const undone = await undoneHeadlines(db, session.storeId, rows, names)
      const header = [
        'time',
        'time_utc',
        'who',
        'key',
        'via',
        'theme',
        'what_happened',
        'outcome',
        'problems',
        'details',
        'theme_id',
        'operation',
        'tool',
        'error_code',
        'request_id',
        'command_id',
      ]
      const lines = [
        header.join(','),
        ...rows.map((r) => {
          const actor = actors.nameOf(actorOf(r))
          return [
            formatTime(r.occurred_at, zone),
            new Date(r.occurred_at).toISOString(),
            actorText(actor),
            actor.key,
            channelText(r.channel),
            r.theme_id ? themeName(r.theme_id, names) : '',
            headlineText(headlineOf(r), names),
            outcomeOf(r),
            problemsText(r),
            linesText(r, names, undone),
            r.theme_id,
            r.action,
            r.tool,
            r.error_code,
            r.request_id,
            r.command_id,
          ]
            .map(csvCell)
            .join(',')
        }),
      ]
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="activity.csv"')
        .send(`${lines.join('\r\n')}\r\n`)
    },
  )

  dash.get<{ Querystring: Record<string, unknown> }>(
    '/dashboard/developer/activity',
    { preHandler: guard },
    async (request, reply) => {
      const session = await ctx.session(request)
      // A list: read where the store's reads go now (a replica unless a write is not replayed there).
      const db = services.readFor(session.storeId).db
      const zone = session.store.timeZone
      const { filters, problems } = readFilters(request.query)
      const [rows, actors, names, acted] = await Promise.all([
        problems.length > 0
          ? Promise.resolve([] as ActivityEntry[])
          : listActivity(db, session.storeId, queryFilters(filters, zone), {
              limit: PAGE_SIZE + 1,
              before: filters.cursor,
            }),
        actorDirectory(db, session.storeId),
        themeNamesOf(db, session.storeId),
        appsThatActed(db, session.storeId),
      ])
      const more = rows.length > PAGE_SIZE
      const shown = rows.slice(0, PAGE_SIZE)
      const undone = await undoneHeadlines(db, session.storeId, shown, names)
      const chart = problems.length > 0 ? null : await dailyChart(db, session.storeId, filters, zone, actors)
      const keep: Record<string, string | undefined> = {
        app: filters.app ?? undefined,
        theme: filters.theme ?? undefined,
        channel: filters.channel ?? undefined,
        outcome: filters.outcome ?? undefined,
        from: filters.from ?? undefined,
        to: filters.to ?? undefined,
      }
      // Every app that acted, named as in the rows (an app deleted since keeps its name).
      const apps = acted
        .map((a) => ({
          value: a.app_id!,
          label: actorText(actors.nameOf({ kind: a.credential_kind, appId: a.app_id, credentialId: a.credential_id })),
        }))
        .sort((a, b) => a.label.localeCompare(b.label))
      const themes = [...names].sort((a, b) => a[1].localeCompare(b[1]))
      const csrf = reply.generateCsrf()
      const option = (value: string, label: string, current: string | null) =>
        html`<option value="${value}"${current === value ? html` selected` : null}>${label}</option>`
      const filteredTheme = filters.theme ? themeName(filters.theme, names) : null
      const body = html`<h1>Activity${filteredTheme ? html` · ${filteredTheme}` : null}</h1>
<p class="lede">Everything agents and you did to your store through the API, MCP, this dashboard and the editor, including what was refused. Times are in ${zoneLabel(knownZone(zone))}.</p>
${problems.length > 0 ? html`<div class="notice error" role="alert">The filters could not be used:<ul>${problems.map((p) => html`<li>${p}</li>`)}</ul></div>` : null}
<form method="get" action="${href('/dashboard/developer/activity')}" class="card filters" aria-label="Filters">
<div><label for="f-app">Who</label><select id="f-app" name="app"><option value="">Everyone</option>${option(YOU_FILTER, YOU, filters.app)}${apps.map((a) => option(a.value, a.label, filters.app))}</select></div>
<div><label for="f-theme">Theme</label><select id="f-theme" name="theme"><option value="">All themes</option>${themes.map(([id, name]) => option(id, name, filters.theme))}</select></div>
<div><label for="f-channel">Through</label><select id="f-channel" name="channel"><option value="">Anywhere</option>${CHANNELS.map((c) => option(c, channelText(c), filters.channel))}</select></div>
<div><label for="f-outcome">Outcome</label><select id="f-outcome" name="outcome"><option value="">Any outcome</option>${(Object.keys(OUTCOMES) as Outcome[]).map((o) => option(o, OUTCOMES[o], filters.outcome))}</select></div>
<div><label for="f-from">From</label><input id="f-from" name="from" type="date" value="${filters.from ?? ''}"></div>
<div><label for="f-to">To</label><input id="f-to" name="to" type="date" value="${filters.to ?? ''}"></div>
<div class="filter-actions"><button type="submit">Filter</button> <a class="button secondary" href="${href('/dashboard/developer/activity.csv', keep)}">Export CSV</a></div>
</form>
${chart}
<div class="card"><table class="stack activity">
<caption class="visually-hidden">Activity, newest first</caption>
<thead><tr><th scope="col" class="col-when">When</th><th scope="col" class="col-who">Who</th><th scope="col">What happened</th><th scope="col" class="col-outcome">Outcome</th></tr></thead>
<tbody>${
        shown.length === 0
          ? html`<tr><td colspan="4" class="muted">No activity matches these filters.</td></tr>`
          : shown.map((r) => activityRow(r, actors, names, undone, zone))
      }</tbody></table>
${more ? html`<div class="pager"><a class="button secondary" href="${href('/dashboard/developer/activity', { ...keep, cursor: String(shown.at(-1)!.first_position) })}">Older activity →</a></div>` : null}
</div>`
      return reply
        .type('text/html; charset=utf-8')
        .send(page({ title: 'Activity', session, csrf, current: 'activity', body }))
    },
  )
}

// A colour shows as a swatch: an SVG fill, since the page's CSP allows no inline style.
const valueHtml = (v: ShownValue): Html =>
  v.colour
    ? html`<span class="value"><svg class="swatch-svg" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true"><rect x="0.5" y="0.5" width="13" height="13" rx="3" fill="${v.colour}" stroke="#94a3b8"></rect></svg>${v.text}</span>`
    : html`<span class="value">${v.text}</span>`

function lineHtml(line: MerchantLine, names: ThemeNames, undone: Map<string, string>): Html {
  return html`${line.text}${line.theme ? html` <strong>“${themeName(line.theme, names)}”</strong>` : null}${
    line.from && line.to
      ? html`: ${valueHtml(line.from)} <span aria-label="changed to">→</span> ${valueHtml(line.to)}`
      : line.to
        ? html`: now ${valueHtml(line.to)}`
        : null
  }${line.undoes ? html`: ${undone.get(line.undoes) ?? 'an earlier change'}` : null}`
}

function activityRow(
  r: ActivityEntry,
  actors: ActorDirectory,
  names: ThemeNames,
  undone: Map<string, string>,
  zone: string | null,
): Html {
  const actor = actors.nameOf(actorOf(r))
  const h = headlineOf(r)
  const theme = r.theme_id ? html`<strong class="theme-name">${themeName(r.theme_id, names)}</strong> · ` : null
  const headline = h.refused
    ? html`${theme}Refused: ${h.attempt}, ${h.reason}${h.problems ? html` (${String(h.problems)} problem${h.problems === 1 ? '' : 's'})` : null}`
    : html`${theme}${h.lines.map((l, i) => html`${i > 0 ? '; ' : null}${lineHtml(l, names, undone)}`)}${h.more > 0 ? html`; and ${String(h.more)} more` : null}`
  const lines = r.lines ?? []
  const problems =
    r.outcome !== 'rejected'
      ? null
      : r.issues === null
        ? html`<p class="muted">The problems of refusals recorded before 26 Nov 2026 were not kept. The app was told: ${r.summary.replace(/^Refused: /, '')}</p>`
        : r.issues.length === 0
          ? html`<p>The app was told: ${r.summary.replace(/^Refused: [A-Z_]+: /, '')}</p>`
          : html`<p><strong>Problems</strong></p><ul class="problems">${r.issues.map((i) => html`<li><strong>${issueField(i.path)}</strong>: ${i.message}</li>`)}</ul>${
              (r.issue_count ?? 0) > r.issues.length
                ? html`<p class="muted">and ${String((r.issue_count ?? 0) - r.issues.length)} more problems, not kept</p>`
                : null
            }`
  return html`<tr>
<td data-label="When" class="col-when">${when(r.occurred_at, zone)}</td>
<td data-label="Who" class="col-who">${actor.name}${actor.unverified ? html` <span class="pill unverified">unverified</span>` : null}<div class="muted">via ${channelText(r.channel)}</div></td>
<td data-label="What happened"><div class="headline">${headline}</div>
<details><summary>Details</summary>
${lines.length > 1 || (h.refused === false && h.more > 0) ? html`<ul class="lines">${lines.map((l) => html`<li>${lineHtml(l, names, undone)}</li>`)}</ul>` : null}
${problems}
<dl class="facts technical">
${r.theme_id ? html`<dt>Theme</dt><dd class="mono">${r.theme_id}</dd>` : null}
<dt>Operation</dt><dd class="mono">${r.action}${r.tool ? ` (MCP tool ${r.tool})` : ''}</dd>
${actor.key ? html`<dt>Key</dt><dd>${actor.key}</dd>` : null}
${r.error_code ? html`<dt>Error code</dt><dd class="mono">${r.error_code}</dd>` : null}
<dt>Request</dt><dd class="mono">${r.request_id ?? '—'}</dd>
<dt>Command</dt><dd class="mono">${r.command_id}</dd>
</dl></details></td>
<td data-label="Outcome" class="col-outcome">${r.outcome === 'rejected' ? html`<span class="pill rejected">Refused</span>` : html`<span class="pill applied">Applied</span>`}</td></tr>`
}

// Actions per day per actor over the filtered rows (the last 14 days of the range, in the
// store's days), as an SVG. Every other day is labelled, counting back from the last, so the
// newest bar always has its date.
async function dailyChart(
  db: ReadDb,
  storeId: string,
  f: Filters,
  zone: string | null,
  actors: ActorDirectory,
): Promise<Html | null> {
  const rows = await activityTimes(db, storeId, queryFilters(f, zone), 5000)
  if (rows.length === 0) return null
  const end = f.to ?? dayIn(rows[0]!.occurred_at, zone)
  const endMs = Date.parse(`${end}T00:00:00Z`)
  const days = Array.from({ length: 14 }, (_, i) => new Date(endMs - (13 - i) * DAY_MS).toISOString().slice(0, 10))
  const series = new Map<string, Map<string, number>>()
  for (const r of rows) {
    const day = dayIn(r.occurred_at, zone)
    if (!days.includes(day)) continue
    const name = actorText(actors.nameOf(actorOf(r)))
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
  const label = `Actions per day, ${days[0]} to ${days.at(-1)}: ${names.map((n) => `${n} ${days.reduce((s, d) => s + (series.get(n)?.get(d) ?? 0), 0)}`).join(', ')}`
  return html`<div class="card"><h2>Activity per day</h2><svg class="chart" viewBox="${`0 0 ${W} ${H + 18}`}" role="img" aria-label="${label}">${rects}
${days.map((d, i) => ((days.length - 1 - i) % 2 === 0 ? html`<text x="${(i * bar + bar / 2).toFixed(1)}" y="${String(H + 14)}" font-size="10" text-anchor="middle" fill="#5b616e">${d.slice(5)}</text>` : null))}</svg>
<ul class="legend">${names.map((n, k) => html`<li><span class="swatch ${`c${k}`}"></span>${n}</li>`)}</ul></div>`
}
