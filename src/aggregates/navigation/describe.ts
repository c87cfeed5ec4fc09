import type { NavigationEvent } from './events.ts'

export function describeNavigationEvent(event: NavigationEvent): string | null {
  return `Updated navigation menus: ${event.data.changed.join(', ')}`
}
