import type { MerchantSession } from '../auth/merchant-session.ts'
import { FAVICON_PATH } from '../web/favicon.ts'
import { formatTime } from '../web/time.ts'
import { html, mintSafeUrl, sitePath, type Html, type HtmlValue, type SafeUrl } from '../web/html.ts'

// The page shell of every dashboard page: one external stylesheet and one small script file (Copy
// buttons, src/dashboard/copy-button.js), no inline script.
export const DASHBOARD_CSS_PATH = '/dashboard/assets/dashboard.css'
export const DASHBOARD_SCRIPT_PATH = '/dashboard/assets/copy-button.js'

/** A dashboard link: a path the pages build, checked by the URL policy (home if it refuses it). */
export const href = (path: string, query?: Record<string, string | number | undefined>): SafeUrl =>
  sitePath(path, query) ?? mintSafeUrl('/')

export type Notice = { kind: 'ok' | 'error' | 'warn'; text: string; items?: string[] }

export const notice = (n: Notice | null | undefined): Html | null =>
  n
    ? html`<div class="notice ${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}">${n.text}${n.items && n.items.length > 0 ? html`<ul>${n.items.map((i) => html`<li>${i}</li>`)}</ul>` : null}</div>`
    : null

type Section = 'themes' | 'orders' | 'developer' | 'activity' | 'account'

export function page(input: {
  title: string
  session: MerchantSession
  csrf: string
  current: Section
  body: HtmlValue
}): string {
  const nav: [Section, string, string][] = [
    ['themes', 'Themes', '/dashboard/themes'],
    ['orders', 'Orders', '/dashboard/orders'],
    ['developer', 'Developer', '/dashboard/developer'],
    ['activity', 'Activity', '/dashboard/developer/activity'],
  ]
  return document(
    input.title,
    html`<a class="skip" href="#main">Skip to content</a>
<header class="topbar"><div class="topbar-inner">
<a class="brand" href="${href('/dashboard/themes')}">${input.session.store.name}<small>Dashboard</small></a>
<nav aria-label="Dashboard"><ul class="nav">${nav.map(([key, label, path]) => html`<li><a href="${href(path)}"${key === input.current ? html` aria-current="page"` : null}>${label}</a></li>`)}</ul></nav>
<div class="who">${storeSwitcher(input.session, input.csrf)}<a class="who-link" href="${href(`/s/${encodeURIComponent(input.session.store.slug)}`)}" target="_blank" rel="noopener">View store<span class="visually-hidden"> (opens in a new tab)</span></a><a class="who-link" href="${href('/dashboard/account')}"${input.current === 'account' ? html` aria-current="page"` : null}><span class="visually-hidden">Account: </span>${input.session.email}</a><form method="post" action="${href('/dashboard/logout')}">${csrfField(input.csrf)}<button type="submit">Sign out</button></form></div>
</div></header>
<main id="main" tabindex="-1">${input.body}</main>`,
  )
}

// For a merchant who owns several stores: which one the pages act on (POST /dashboard/store).
const storeSwitcher = (session: MerchantSession, csrf: string) =>
  session.stores.length > 1
    ? html`<form method="post" action="${href('/dashboard/store')}" class="store-switch">${csrfField(csrf)}<label for="store-switch" class="visually-hidden">Store</label><select id="store-switch" name="storeId">${session.stores.map((s) => html`<option value="${s.storeId}"${s.storeId === session.storeId ? html` selected` : null}>${s.name}</option>`)}</select><button type="submit">Switch store</button></form>`
    : null

export function document(title: string, body: Html): string {
  return `<!doctype html>\n${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${title} · Storefront dashboard</title><link rel="stylesheet" href="${href(DASHBOARD_CSS_PATH)}"><script src="${href(DASHBOARD_SCRIPT_PATH)}" defer></script><link rel="icon" href="${href(FAVICON_PATH)}"></head>
<body>${body}</body></html>`.value
  }`
}

// Where a dashboard form carries its CSRF token.
export const CSRF_FIELD = '_csrf'
export const csrfField = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`

// A time as every page writes it: the store's zone (its time zone, else UTC), labelled.
export const when = (d: Date | string | null | undefined, zone: string | null): Html | string => {
  if (!d) return '—'
  const date = new Date(d)
  return html`<time datetime="${date.toISOString()}">${formatTime(date, zone)}</time>`
}

/** A value with a Copy button (shown by src/dashboard/copy-button.js; hidden without script). */
export const copyButton = (targetId: string, what: string) =>
  html`<button type="button" class="secondary copy" data-copy="${targetId}" hidden>Copy<span class="visually-hidden"> ${what}</span></button>`
