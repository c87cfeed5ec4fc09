import type { FastifyReply, FastifyRequest } from 'fastify'
import type { MerchantSession } from '../auth/merchant-session.ts'
import type { Theme } from '../aggregates/theme/state.ts'
import type { ThemeStatus } from '../theme/constants.ts'
import { actorText, channelText, type ActorDirectory, type ActorRef } from '../queries/actors.ts'
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
    ? // A page reads where the store's reads go now; an action decides on the primary's row.
      await findTheme(
        request.method === 'GET' ? ctx.services.readFor(session.storeId) : ctx.services.read,
        session.storeId,
        request.params.id,
      )
    : null
  if (!theme) {
    await errorPage(reply, 404, 'Theme not found', 'There is no such theme in this store.')
    return null
  }
  return { session, theme }
}

// Who acted, as every page names it (src/queries/actors.ts), and through what.
export const actorLabel = (actor: ActorRef, actors: ActorDirectory): string => actorText(actors.nameOf(actor))
export const channelLabel = (channel: string) => `via ${channelText(channel)}`

export const themePath = (themeId: string, rest = '') => `/dashboard/themes/${encodeURIComponent(themeId)}${rest}`
export const versionPreviewPath = (themeId: string, version: number) =>
  themePath(themeId, `/versions/${version}/preview`)
