import type { EventStore } from '../events/event-store.ts'
import { eventsAppended } from './registry.ts'

// The event-store port with a counter of committed events; every other method is the store's own.
export function instrumentEventStore(store: EventStore): EventStore {
  const append: EventStore['append'] = async (streams, options) => {
    const result = await store.append(streams, options)
    if (result.ok) for (const e of result.events) eventsAppended.inc({ type: e.type })
    return result
  }
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
