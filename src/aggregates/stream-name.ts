// A stream is named by its aggregate's type and the aggregate's id (`theme-thm_…`). Each
// aggregate writes its name once, in its events.ts; nothing else spells a prefix.
export type StreamName = ((id: string) => string) & {
  // The event store's stream_type column.
  type: string
  prefix: string
  idOf: (streamId: string) => string | null
}

export const streamName = (type: string): StreamName => {
  const prefix = `${type}-`
  return Object.assign((id: string) => `${prefix}${id}`, {
    type,
    prefix,
    idOf: (streamId: string) => (streamId.startsWith(prefix) ? streamId.slice(prefix.length) : null),
  })
}

// The event types of one aggregate, listed at run time (projections subscribe by type). The
// compiler checks the list is complete: a new event type that is not added here is an error.
export const eventTypes =
  <E extends { type: string }>() =>
  <const L extends readonly E['type'][]>(
    list: L & ([Exclude<E['type'], L[number]>] extends [never] ? unknown : { missing: Exclude<E['type'], L[number]> }),
  ): readonly E['type'][] =>
    list
