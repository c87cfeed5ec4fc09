import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { getThemeVersionOperation } from '../operations/theme-history-operations.ts'
import { act } from './act.ts'
import { errorPage, type DashboardContext } from './plugin.ts'
import { THEME_ID, themePath } from './theme-access.ts'

// Merchant previews without a token: the theme now (/dashboard/themes/{id}/preview) or as it was
// at a version (/dashboard/themes/{id}/versions/{n}/preview), any page of it, through the same
// renderer as token previews. The version is part of the path, so links inside the preview keep
// showing that version. `changed`, `added` and `removed` (section ids) outline those sections,
// for the side-by-side diff; they never reach the renderer (its cache keys stay the same).

export const HIGHLIGHT_CSS_PATH = '/dashboard/assets/highlight.css'
const HIGHLIGHT_PARAMS = ['changed', 'added', 'removed'] as const
const SECTION_ID = /^[A-Za-z0-9_-]{1,100}$/
const COLORS: Record<(typeof HIGHLIGHT_PARAMS)[number], [string, string]> = {
  changed: ['#d97706', 'Changed'],
  added: ['#15803d', 'Added'],
  removed: ['#b42318', 'Removed'],
}

const idsOf = (value: string | null) =>
  (value ?? '')
    .split(',')
    .filter((id) => SECTION_ID.test(id))
    .slice(0, 60)

// The outline stylesheet: ids checked against a strict pattern, so nothing but an id reaches the CSS.
export function highlightCss(params: URLSearchParams): string {
  const rules: string[] = []
  for (const kind of HIGHLIGHT_PARAMS) {
    const [color, label] = COLORS[kind]
    const ids = idsOf(params.get(kind))
    if (ids.length === 0) continue
    const selectors = ids.map((id) => `.sf-section[data-section-id="${id}"]`)
    // The label sits on a strip added above the section, so it never covers the section's own text.
    rules.push(
      `${selectors.join(',')}{outline:5px solid ${color};outline-offset:-5px;position:relative;border-top:28px solid ${color}}`,
    )
    rules.push(
      `${selectors.map((s) => `${s}::after`).join(',')}{content:"${label}";position:absolute;top:-28px;left:0;z-index:50;color:#fff;font:600 15px/28px system-ui,sans-serif;padding:0 10px;pointer-events:none}`,
    )
  }
  return `${rules.join('\n')}\n`
}

function splitHighlight(search: string): { rest: string; highlight: URLSearchParams | null } {
  const params = new URLSearchParams(search)
  const highlight = new URLSearchParams()
  for (const kind of HIGHLIGHT_PARAMS) {
    const v = params.get(kind)
    if (v !== null) highlight.set(kind, idsOf(v).join(','))
    params.delete(kind)
  }
  return { rest: params.toString(), highlight: [...highlight.values()].some((v) => v !== '') ? highlight : null }
}

type PreviewParams = { Params: { id: string; version?: string } }

export async function registerThemePreviewRoutes(dash: FastifyInstance, ctx: DashboardContext): Promise<void> {
  const { services, guard } = ctx
  // The storefront routes' own instance: one page cache and one set of probes per service.
  const storefront = await services.storefront()

  dash.get(HIGHLIGHT_CSS_PATH, async (request, reply) => {
    const q = request.url.indexOf('?')
    return reply
      .header('content-type', 'text/css; charset=utf-8')
      .send(highlightCss(new URLSearchParams(q === -1 ? '' : request.url.slice(q + 1))))
  })

  const preview = async (request: FastifyRequest<PreviewParams>, reply: FastifyReply) => {
    const session = await ctx.session(request)
    const themeId = request.params.id
    const notFound = () => errorPage(reply, 404, 'Theme not found', 'There is no such theme or version in this store.')
    if (!THEME_ID.test(themeId)) return notFound()
    let at: { version: number; document: unknown } | undefined
    if (request.params.version !== undefined) {
      if (!/^[0-9]{1,9}$/.test(request.params.version)) return notFound()
      const found = await act(services, request, session, getThemeVersionOperation, {
        params: { id: themeId, version: request.params.version },
      })
      if (!found.ok) return notFound()
      const view = found.data as { version: number; document: unknown }
      at = { version: view.version, document: view.document }
    }
    const basePath = at ? themePath(themeId, `/versions/${at.version}/preview`) : themePath(themeId, '/preview')
    const url = request.url
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    const { rest, highlight } = splitHighlight(q === -1 ? '' : url.slice(q + 1))
    const subpath = path.length > basePath.length ? path.slice(basePath.length) : ''
    const response = await storefront.merchantPreview(
      { storeId: session.storeId, themeId, basePath, until: session.expiresAt, ...(at ? { at } : {}) },
      subpath || '/',
      rest,
    )
    if (!response) return notFound()
    reply.code(response.status)
    for (const [name, value] of Object.entries(response.headers)) reply.header(name, value)
    if (!highlight) return reply.send(response.html)
    // The outline stylesheet is one more external stylesheet from this origin: the page's CSP (style-src 'self') allows it.
    const link = `<link rel="stylesheet" href="${HIGHLIGHT_CSS_PATH}?${highlight.toString().replace(/&/g, '&amp;')}">`
    return reply.send(response.html.toString().replace('</head>', `${link}</head>`))
  }
  dash.get<PreviewParams>('/dashboard/themes/:id/preview', { preHandler: guard }, preview)
  dash.get<PreviewParams>('/dashboard/themes/:id/preview/*', { preHandler: guard }, preview)
  dash.get<PreviewParams>('/dashboard/themes/:id/versions/:version/preview', { preHandler: guard }, preview)
  dash.get<PreviewParams>('/dashboard/themes/:id/versions/:version/preview/*', { preHandler: guard }, preview)
}
