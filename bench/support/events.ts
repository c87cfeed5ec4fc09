import { randomUUID } from 'node:crypto'
import type { EventMetadata, NewEvent } from '../../src/events/event-store.ts'

// Event payloads of a realistic size and shape for the store-level benchmarks: a section update
// as an agent's batch produces it, with the metadata every command writes.

export const BENCH_STORE = 'st_bench'

export function benchMetadata(commandId: string, storeId = BENCH_STORE): EventMetadata {
  return {
    storeId,
    actor: { kind: 'api_key', credentialId: 'key_bench000000000000000000', appId: 'app_bench000000000000000000' },
    channel: 'rest',
    requestId: randomUUID(),
    correlationId: commandId,
    causationId: null,
    commandId,
    command: 'applyThemeBatch',
  }
}

export function sectionUpdated(n: number, commandId: string, storeId = BENCH_STORE): NewEvent & { eventId: string } {
  return {
    eventId: randomUUID(),
    type: 'SectionUpdated',
    data: {
      sectionId: 'home-about',
      target: { template: 'home' },
      section: {
        id: 'home-about',
        type: 'rich-text',
        settings: {
          heading: `About us (${n})`,
          body: '<p>We are a small, independent shop. Every order is packed with care, and you pay in <strong>cash on delivery</strong>.</p>',
          alignment: 'center',
          width: 'narrow',
        },
      },
      changed: ['settings.heading'],
      at: new Date().toISOString(),
    },
    metadata: benchMetadata(commandId, storeId),
  }
}

export const eventBytes = (e: NewEvent) => JSON.stringify(e.data).length + JSON.stringify(e.metadata).length
