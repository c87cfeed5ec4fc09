import { ACCESS_EVENT_TYPES, type AccessEvent } from './access/events.ts'
import { MEDIA_EVENT_TYPES, type MediaEvent } from './media/events.ts'
import { NAVIGATION_EVENT_TYPES, type NavigationEvent } from './navigation/events.ts'
import { OAUTH_GRANT_EVENT_TYPES, type OAuthGrantEvent } from './oauth-grants/events.ts'
import { ORDER_EVENT_TYPES, type OrderEvent } from './orders/events.ts'
import { REFUSAL_EVENT_TYPES, type RefusalEvent } from './refusals/events.ts'
import { STORE_THEMES_EVENT_TYPES, type StoreThemesEvent } from './store-themes/events.ts'
import { THEME_EVENT_TYPES, type ThemeEvent } from './theme/events.ts'

// Every event the service records, of every aggregate: what the activity view, the auditors'
// replay and the projections read.
export type DomainEvent =
  | ThemeEvent
  | StoreThemesEvent
  | NavigationEvent
  | MediaEvent
  | RefusalEvent
  | AccessEvent
  | OAuthGrantEvent
  | OrderEvent

export type DomainEventType = DomainEvent['type']

export const DOMAIN_EVENT_TYPES: readonly DomainEventType[] = [
  ...THEME_EVENT_TYPES,
  ...STORE_THEMES_EVENT_TYPES,
  ...NAVIGATION_EVENT_TYPES,
  ...MEDIA_EVENT_TYPES,
  ...REFUSAL_EVENT_TYPES,
  ...ACCESS_EVENT_TYPES,
  ...OAUTH_GRANT_EVENT_TYPES,
  ...ORDER_EVENT_TYPES,
]

// The member of the union with this type.
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>
