import { z } from 'zod'
import { navigationEntrySchema } from '../theme/document.ts'
import type { ReadContext } from './read-context.ts'

export const navigationMenuSchema = z.object({
  handle: z.string(),
  title: z.string(),
  items: z.array(navigationEntrySchema),
  updatedAt: z.string(),
})
export type NavigationMenuView = z.output<typeof navigationMenuSchema>

export async function listNavigationMenus(ctx: ReadContext, storeId: string): Promise<NavigationMenuView[]> {
  const rows = await ctx.db
    .selectFrom('navigation_menus')
    .selectAll()
    .where('store_id', '=', storeId)
    .orderBy('handle')
    .execute()
  return rows.map((r) => ({
    handle: r.handle,
    title: r.title,
    items: r.items as NavigationMenuView['items'],
    updatedAt: new Date(r.updated_at).toISOString(),
  }))
}
