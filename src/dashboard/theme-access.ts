import type { FastifyReply, FastifyRequest } from 'fastify'
import type { MerchantSession } from '../auth/merchant-session.ts'
import type { Theme } from '../aggregates/theme/state.ts'
import type { ThemeStatus } from '../theme/constants.ts'
import { findTheme } from '../queries/themes/theme-queries.ts'
import { errorPage, type DashboardContext } from './plugin.ts'

// Shared by the theme pages: the session's own theme or a 404 page (another store's id looks
// like no id), and how a history entry's actor reads.

export const THEME_ID = /^[A-Za-z0-9_-]{1,100}$/

// Drafts and private themes can go live; the live one already is, an archived one is refused.
export const publishable = (status: ThemeStatus) => status === 'draft' || status === 'private'

export type IdParams = { Params: { id: string } }

export async function ownTheme(
  ctx: DashboardContext,
  request: FastifyRequest<IdParams>,
  reply: FastifyReply,
): Promise<{ session: MerchantSession; theme: Theme } | null> {
  const session = await ctx.session(request)
  const theme = THEME_ID.test(request.params.id)
    ? await findTheme(ctx.services.read, session.storeId, request.params.id)
    : null
  if (!theme) {
    await errorPage(reply, 404, 'Theme not found', 'There is no such theme in this store.')
    return null
  }
  return { session, theme }
}

export type ActorLike = { kind: string; appId: string | null; credentialId: string | null }

export function actorLabel(actor: ActorLike, names: Map<string, string>): string {
  if (actor.kind === 'merchant') return 'You (merchant)'
  if (actor.kind === 'system') return 'Platform'
  const name =
    (actor.appId && names.get(actor.appId)) || (actor.credentialId && names.get(actor.credentialId)) || 'Unknown app'
  return `${name} · ${actor.kind === 'oauth' ? 'OAuth' : actor.kind === 'api_key' ? 'API key' : actor.kind}`
}

export const channelLabel = (channel: string, tool: string | null) =>
  channel === 'mcp' ? `MCP${tool ? ` · ${tool}` : ''}` : channel === 'rest' ? 'REST' : channel

export const themePath = (themeId: string, rest = '') => `/dashboard/themes/${encodeURIComponent(themeId)}${rest}`
export const versionPreviewPath = (themeId: string, version: number) =>
  themePath(themeId, `/versions/${version}/preview`)
