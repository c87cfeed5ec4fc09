import type { RefusalEvent } from './events.ts'

export function describeRefusalEvent(event: RefusalEvent): string | null {
  return `Refused: ${event.data.code}: ${event.data.message}`
}
