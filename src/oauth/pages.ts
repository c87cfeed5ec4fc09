import { createHash } from 'node:crypto'
import { SCOPE_WARNINGS, scopeLabel, type Scope } from '../auth/scopes.ts'
import { escapeHtml as e } from '../web/html.ts'

// The merchant-facing pages of the authorization server: consent and errors. No script at all;
// the one inline stylesheet is allowed by its hash. Every value is escaped.

const CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2024;background:#f3f4f6}
main{max-width:560px;margin:48px auto;padding:0 16px}.card{background:#fff;border:1px solid #dfe3e8;border-radius:12px;padding:28px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 6px}p{margin:.5rem 0}.muted{color:#5b6470;font-size:.92rem}
.badge{display:inline-block;font-size:.75rem;font-weight:600;padding:2px 8px;border-radius:999px;vertical-align:middle;margin-left:6px}
.verified{background:#e6f4ea;color:#1e6b34}.unverified{background:#fff4e5;color:#8a4b00;border:1px solid #f3c98b}
.facts{margin:16px 0;padding:12px 14px;background:#f8f9fb;border-radius:8px;font-size:.95rem}.facts div{display:grid;grid-template-columns:120px 1fr;gap:8px;padding:2px 0}.facts dt{color:#5b6470}.facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
@media (max-width:480px){main{margin:16px auto}.card{padding:20px}.facts div{grid-template-columns:1fr;gap:0;padding:4px 0}}
fieldset{border:0;padding:0;margin:18px 0}legend{font-weight:600;margin-bottom:8px}
label.scope{display:flex;gap:10px;align-items:flex-start;padding:8px 0;border-top:1px solid #eef0f3}label.scope input{flex:none;margin-top:4px;width:18px;height:18px}
label.scope code{font-size:.8rem;color:#5b6470}.warn{color:#8a4b00;font-size:.85rem}
select{font:inherit;padding:6px 8px;border:1px solid #c5cbd3;border-radius:6px;width:100%}
.actions{display:flex;gap:12px;margin-top:20px}.actions button{flex:1;font:inherit;font-weight:600;padding:10px 14px;border-radius:8px;cursor:pointer;border:1px solid #c5cbd3;background:#fff}
.actions button.allow{background:#1f5fd1;border-color:#1f5fd1;color:#fff}
.note{margin-top:16px;font-size:.85rem;color:#5b6470}
`
const CSS_HASH = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`

// form-action must name the client's address too: browsers apply it to the redirect after the POST.
export function pageSecurityHeaders(formTarget?: string): Record<string, string> {
  const formAction = formTarget ? `'self' ${formTarget}` : "'self'"
  return {
    'content-security-policy': `default-src 'none'; style-src ${CSS_HASH}; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  }
}

// The CSP source for a redirect URI: its origin, or its scheme for a private-use scheme.
export function formTargetOf(redirectUri: string): string {
  const url = new URL(redirectUri)
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>${e(title)}</title><style>${CSS}</style></head><body><main>${body}</main></body></html>`
}

export function errorPage(title: string, message: string): string {
  return layout(
    title,
    `<div class="card"><h1>${e(title)}</h1><p>${e(message)}</p><p class="note">Nothing was shared with the app.</p></div>`,
  )
}

// An error the client should hear about, but only if the person chooses to go back (a link).
export function errorPageWithLink(title: string, message: string, link: { href: string; label: string }): string {
  return layout(
    title,
    `<div class="card"><h1>${e(title)}</h1><p>${e(message)}</p><p class="note">Nothing was shared with the app.</p><p><a href="${e(link.href)}" rel="noreferrer">${e(link.label)}</a></p></div>`,
  )
}

export type ConsentView = {
  appName: string
  verified: boolean
  redirectTarget: string
  merchantLabel: string
  stores: { id: string; name: string }[]
  scopes: Scope[]
  transaction: string
  csrfToken: string
  csrfField: string
}

const describeTarget = (redirectUri: string) => {
  const url = new URL(redirectUri)
  if (url.protocol === 'http:') return `${url.host} (an app on this computer)`
  return url.protocol === 'https:' ? url.host : `${url.protocol}${url.pathname} (an app on this device)`
}

export function consentPage(v: ConsentView): string {
  const badge = v.verified
    ? '<span class="badge verified">created in your dashboard</span>'
    : '<span class="badge unverified">unverified</span>'
  const store =
    v.stores.length === 1
      ? `<dd>${e(v.stores[0]!.name)}</dd><input type="hidden" name="store_id" value="${e(v.stores[0]!.id)}">`
      : `<dd><select name="store_id" aria-label="Store">${v.stores.map((s) => `<option value="${e(s.id)}">${e(s.name)}</option>`).join('')}</select></dd>`
  const scopes = v.scopes
    .map((s) => {
      // Ticked, except themes:publish, which the merchant must tick (contract-decisions.md).
      const ticked = s !== 'themes:publish'
      const warning = SCOPE_WARNINGS[s]
      return `<label class="scope"><input type="checkbox" name="scope" value="${e(s)}"${ticked ? ' checked' : ''}><span>${e(scopeLabel(s))} <code>${e(s)}</code>${warning ? `<br><span class="warn">${e(warning)}</span>` : ''}</span></label>`
    })
    .join('')
  const unverified = v.verified
    ? ''
    : `<p class="muted">This app registered itself; the name is what it says about itself. Allow it only if you started this connection.</p>`
  return layout(
    `Connect ${v.appName}`,
    `<div class="card"><h1>${e(v.appName)} ${badge}</h1><p>wants access to your store.</p>${unverified}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="${e(v.csrfField)}" value="${e(v.csrfToken)}"><input type="hidden" name="transaction" value="${e(v.transaction)}">
<dl class="facts"><div><dt>Store</dt>${store}</div><div><dt>Returns to</dt><dd>${e(describeTarget(v.redirectTarget))}</dd></div><div><dt>Signed in as</dt><dd>${e(v.merchantLabel)}</dd></div></dl>
<fieldset><legend>It will be able to</legend>${scopes}</fieldset>
<div class="actions"><button type="submit" name="decision" value="deny">Deny</button><button type="submit" name="decision" value="allow" class="allow">Allow</button></div>
</form><p class="note">You can disconnect the app at any time under Developer → Connected apps.</p></div>`,
  )
}
