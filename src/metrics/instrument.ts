import type { EventStore } from '../events/event-store.ts'
import { eventsAppended, mcpToolCalls } from './registry.ts'

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

type ToolResult = { isError?: boolean; structuredContent?: { error?: { code?: unknown } } | Record<string, unknown> }

// Counts an MCP tools/call by tool and outcome once its result is known.
export async function countToolCall<R extends ToolResult>(tool: string, call: Promise<R>): Promise<R> {
  const result = await call
  const code = result.isError ? (result.structuredContent as { error?: { code?: unknown } } | undefined)?.error?.code : undefined
  mcpToolCalls.inc({ tool, outcome: result.isError ? (typeof code === 'string' ? code : 'error') : 'ok' })
  return result
}
