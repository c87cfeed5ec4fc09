import { ACCESS_EVENT_TYPES } from './access/events.ts'
import { describeAccessEvent } from './access/describe.ts'
import type { DomainEvent, DomainEventType } from './events.ts'
import { MEDIA_EVENT_TYPES } from './media/events.ts'
import { describeMediaEvent } from './media/describe.ts'
import { NAVIGATION_EVENT_TYPES } from './navigation/events.ts'
import { describeNavigationEvent } from './navigation/describe.ts'
import { OAUTH_GRANT_EVENT_TYPES } from './oauth-grants/events.ts'
import { describeOAuthGrantEvent } from './oauth-grants/describe.ts'
import { ORDER_EVENT_TYPES } from './orders/events.ts'
import { describeOrderEvent } from './orders/describe.ts'
import { REFUSAL_EVENT_TYPES } from './refusals/events.ts'
import { describeRefusalEvent } from './refusals/describe.ts'
import { STORE_THEMES_EVENT_TYPES } from './store-themes/events.ts'
import { describeStoreThemesEvent } from './store-themes/describe.ts'
import { THEME_EVENT_TYPES, themeStream } from './theme/events.ts'
import { describeThemeEvent, themeMerchantLines } from './theme/describe.ts'
import type { MerchantLine } from './merchant-line.ts'

type Describe = (event: DomainEvent, streamId: string) => string | null
const describers = new Map<DomainEventType, Describe>()
const register = <E extends DomainEvent>(
  types: readonly E['type'][],
  describe: (e: E, streamId: string) => string | null,
) => {
  for (const type of types) describers.set(type, describe as Describe)
}
register(THEME_EVENT_TYPES, describeThemeEvent)
register(STORE_THEMES_EVENT_TYPES, describeStoreThemesEvent)
register(NAVIGATION_EVENT_TYPES, describeNavigationEvent)
register(MEDIA_EVENT_TYPES, describeMediaEvent)
register(REFUSAL_EVENT_TYPES, describeRefusalEvent)
register(ACCESS_EVENT_TYPES, describeAccessEvent)
register(OAUTH_GRANT_EVENT_TYPES, describeOAuthGrantEvent)
register(ORDER_EVENT_TYPES, describeOrderEvent)

// One readable line per event, from the aggregate the event belongs to; null for bookkeeping.
export function describeEvent(event: DomainEvent, streamId: string): string | null {
  return describers.get(event.type)?.(event, streamId) ?? null
}

// The same event in the merchant's words. Theme events have their own (section and setting
// labels, old → new values); the other aggregates' lines already read as plain sentences. A
// refusal has none: its row says it was refused and lists its problems.
export function merchantLines(event: DomainEvent, streamId: string): MerchantLine[] {
  if (event.type === 'CommandRejected') return []
  if (themeStream.idOf(streamId) !== null) return themeMerchantLines(event as Parameters<typeof themeMerchantLines>[0])
  const line = describeEvent(event, streamId)
  return line ? [{ text: line }] : []
}

// The theme an event concerns: its stream's, or the one its data names (a refusal, the registry).
export function themeIdOf(event: DomainEvent, streamId: string): string | null {
  const themeId = themeStream.idOf(streamId)
  if (themeId !== null) return themeId
  if ('themeId' in event.data && typeof event.data.themeId === 'string') return event.data.themeId
  return null
}

export function summarize(lines: string[]): string {
  if (lines.length === 0) return 'No visible change'
  if (lines.length === 1) return lines[0]!
  const shown = lines.slice(0, 3).join('; ')
  return `${lines.length} changes: ${shown}${lines.length > 3 ? `; and ${lines.length - 3} more` : ''}`
}
