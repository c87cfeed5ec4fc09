// The frame of every storefront page: document head, skip link, preview banner, header with
// the theme's logo and navigation, main landmark, footer with the store's details.
import type { DocumentView, NavLink } from './document.ts'
import type { Env } from './env.ts'
import { html, type Html } from '../web/html.ts'
import { FAVICON_PATH } from '../web/favicon.ts'
import { heightSizes, responsiveImage } from './images.ts'
import { STYLESHEET_PATH } from './styles.ts'
import type { Urls } from './urls.ts'
import type { StoreView } from './store.ts'

// `live`: the theme previewed is the live one, at the version visitors see (a merchant previewing
// the live theme, or a token preview of a theme that has since gone live).
export type PreviewInfo = { themeName: string; expiresAt: Date; version: number | null; live?: boolean }

export type ShellInput = {
  title: string
  description: string
  style: Html
  bodyClass: string
  urls: Urls
  noindex: boolean
  body: Html
  /** The preload of the page's lead image (src/render/images.ts), first in the head. */
  preload?: Html | null
  /** Canonical link, Open Graph, Twitter card and JSON-LD (src/render/seo.ts). */
  head?: Html | null
}

/** The HTML document around a page body. */
export function documentShell(input: ShellInput): string {
  return `<!doctype html>\n${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title}</title>
${input.preload ?? null}
<meta name="description" content="${input.description.slice(0, 300)}">
${input.noindex ? html`<meta name="robots" content="noindex, nofollow">` : null}
${input.head ?? null}
<meta name="referrer" content="no-referrer">
<link rel="icon" type="image/svg+xml" href="${input.urls.asset(FAVICON_PATH)}">
<link rel="stylesheet" href="${input.urls.asset(STYLESHEET_PATH)}">
${input.style}
</head>
<body class="${input.bodyClass}">
<a class="skip-link" href="#main">Skip to content</a>
${input.body}
</body>
</html>`.value
  }\n`
}

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`

export function previewBanner(preview: PreviewInfo, notes: readonly string[]): Html {
  return html`<div class="preview-banner" role="region" aria-label="Preview">
<span class="preview-pill">${preview.live ? 'Live' : 'Preview'}</span>
<span>${preview.live ? 'Live theme' : 'Preview of'} <strong>${preview.themeName}</strong>${preview.version === null ? '' : html`, <span class="preview-version">version ${preview.version}</span>`} — ${preview.live ? 'what visitors see now' : 'not live'}.</span>
<span>This link expires <time datetime="${preview.expiresAt.toISOString()}">${utc(preview.expiresAt)}</time>.</span>
</div>
${notes.length > 0 ? html`<p class="preview-notes">${notes.length === 1 ? 'Note for the theme author: ' : `${notes.length} notes for the theme author: `}${notes.slice(0, 5).join('; ')}${notes.length > 5 ? '; …' : ''}</p>` : null}`
}

function isCurrent(href: unknown, currentPath: string): boolean {
  if (typeof href !== 'string') return false
  const path = href.split(/[?#]/)[0] ?? ''
  return path === currentPath || (path !== '/' && path.length > 1 && currentPath.startsWith(`${path}/`))
}

const PAGE_LINK = /^\/pages\/([^/?#]+)\/?(?:[?#].*)?$/

/**
 * Drops links to custom pages the theme does not have (or has only as a draft, on the live
 * store), so no menu leads to a 404; the preview tells the theme author.
 */
function withoutDeadPageLinks<T extends { label: string; href: unknown }>(
  links: readonly T[],
  doc: DocumentView,
  env: Env,
): T[] {
  return links.filter((link) => {
    const slug = typeof link.href === 'string' ? PAGE_LINK.exec(link.href)?.[1] : undefined
    if (slug === undefined) return true
    const found = doc.pages.some((p) => p.slug === slug && (p.status === 'published' || env.mode === 'preview'))
    if (!found)
      env.report.notes.push(`the menu link "${link.label}" to /pages/${slug} is hidden: the theme has no such page`)
    return found
  })
}

function navLinks(links: readonly NavLink[], env: Env, currentPath: string, nested: boolean): Html {
  return html`${links.map((link) => {
    const href = env.urls.link(link.href)
    const current = isCurrent(link.href, currentPath)
    const anchor = href
      ? html`<a href="${href}"${current ? html` aria-current="page"` : null}>${link.label}</a>`
      : html`<span>${link.label}</span>`
    const children =
      link.children.length > 0 && nested
        ? html`<ul class="submenu">${navLinks(
            link.children.map((c) => ({ ...c, children: [] })),
            env,
            currentPath,
            false,
          )}</ul>`
        : null
    return html`<li>${anchor}${children}</li>`
  })}`
}

const MENU_ICON = html`<svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><path d="M4 7h16M4 12h16M4 17h16"/></svg>`

export function siteHeader(doc: DocumentView, env: Env, currentPath: string): Html {
  const logo = env.urls.image(doc.tokens.logo)
  const brand = logo
    ? responsiveImage(logo, env.store.name, env, { sizes: heightSizes(env, logo, 40) })
    : html`<span>${env.store.name}</span>`
  const links: NavLink[] =
    doc.navigation.length > 0
      ? withoutDeadPageLinks(doc.navigation, doc, env).map((l) => ({
          ...l,
          children: withoutDeadPageLinks(l.children, doc, env),
        }))
      : [
          { label: 'Home', href: '/', children: [] },
          { label: 'Shop', href: '/products', children: [] },
        ]
  const mobileLinks: NavLink[] = links.flatMap((l) => [
    { ...l, children: [] },
    ...l.children.map((c) => ({ ...c, children: [] })),
  ])
  return html`<header class="site-header">
<div class="container header-inner">
<a class="brand" href="${env.urls.path('/')}">${brand}</a>
<nav class="nav-desktop" aria-label="Main"><ul>${navLinks(links, env, currentPath, true)}</ul></nav>
<span class="header-cod">Cash on delivery</span>
<a class="header-cart" href="${env.urls.path('/cart')}">Cart</a>
<details class="nav-mobile"><summary>${MENU_ICON}Menu</summary><div class="menu-panel"><nav aria-label="Main (mobile)"><ul>${navLinks(mobileLinks, env, currentPath, false)}</ul></nav></div></details>
</div>
</header>`
}

function footerMenu(items: readonly NavLink[], env: Env): Html | null {
  const links = items.flatMap((item) => {
    const href = env.urls.link(item.href)
    return href ? [html`<li><a href="${href}">${item.label}</a></li>`] : []
  })
  return links.length > 0 ? html`<ul>${links}</ul>` : null
}

const NETWORKS: Readonly<Record<string, string>> = {
  instagram: 'Instagram',
  facebook: 'Facebook',
  youtube: 'YouTube',
  pinterest: 'Pinterest',
  tiktok: 'TikTok',
  x: 'X',
  twitter: 'X',
}

export function siteFooter(store: StoreView, doc: DocumentView, env: Env): Html {
  const email = env.urls.contact(`mailto:${store.contactEmail}`)
  const phone = store.contactPhone ? env.urls.contact(`tel:${store.contactPhone.replace(/[^+0-9]/g, '')}`) : null
  const social = store.socialLinks.flatMap((s) => {
    const href = env.urls.external(s.url)
    return href
      ? [html`<li><a href="${href}" rel="noopener noreferrer">${NETWORKS[s.network] ?? s.network}</a></li>`]
      : []
  })
  const menu = footerMenu(withoutDeadPageLinks(store.footerMenu, doc, env), env)
  return html`<footer class="site-footer">
<div class="container">
<div class="footer-grid">
<div><span class="footer-brand">${store.name}</span><p>${store.description}</p><span class="pay-badge">Cash on delivery</span></div>
<div>${menu ? html`<h2>Information</h2>${menu}` : html`<h2>Shop</h2><ul><li><a href="${env.urls.path('/products')}">All products</a></li><li><a href="${env.urls.path('/collections')}">Collections</a></li></ul>`}</div>
<div><h2>Contact</h2><ul>
${email ? html`<li><a href="${email}">${store.contactEmail}</a></li>` : null}
${phone && store.contactPhone ? html`<li><a href="${phone}">${store.contactPhone}</a></li>` : null}
${store.city ? html`<li>${store.city}</li>` : null}
${social}
</ul></div>
</div>
<div class="footer-bottom"><span>© ${env.now.getUTCFullYear()} ${store.name}</span><span>Pay in cash when your order arrives.</span></div>
</div>
</footer>`
}
