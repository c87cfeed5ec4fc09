import type { NavigationEntry } from '../../theme/document.ts'
import { eventTypes, streamName } from '../stream-name.ts'

export type NavigationMenu = { handle: string; title: string; items: NavigationEntry[] }

// A store's navigation menus (`navigation-<storeId>`). Each event carries the whole set of menus.
export type NavigationEvent = {
  type: 'NavigationMenusUpdated'
  data: { menus: NavigationMenu[]; changed: string[]; at: string }
}

export const navigationStream = streamName('navigation')

export const NAVIGATION_EVENT_TYPES = eventTypes<NavigationEvent>()(['NavigationMenusUpdated'])
