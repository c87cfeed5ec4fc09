import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database.ts'

// The event-store port. Commands append through it; projections and auditors read through it.

export type ExpectedVersion = 'any' | 'no_stream' | 'exists' | number

export type Actor = {
  kind: 'api_key' | 'oauth' | 'merchant' | 'system'
  credentialId: string | null
  appId: string | null
}

export type Channel = 'rest' | 'mcp' | 'cli' | 'seed' | 'dashboard' | 'storefront'

export type EventMetadata = {
  storeId: string
  actor: Actor
  channel: Channel
  tool?: string | undefined
  requestId?: string | undefined
  idempotencyKey?: string | undefined
  correlationId: string
  causationId: string | null
  // One command may append several events (a batch, a publish): they share a commandId.
  commandId: string
  command: string
}

export type NewEvent = {
  type: string
  data: unknown
  schemaVersion?: number
  metadata: EventMetadata
  eventId?: string
}

export type RecordedEvent<Type extends string = string, Data = unknown> = {
  eventId: string
  streamId: string
  streamVersion: number
  globalPosition: number
  transactionId: string
  storeId: string
  type: Type
  schemaVersion: number
  data: Data
  metadata: EventMetadata
  recordedAt: Date
}

// Commit order: transaction id first, then position inside it.
export type Position = { transactionId: string; globalPosition: number }
export const START: Position = { transactionId: '0', globalPosition: 0 }

export type AppendToStream = {
  streamId: string
  streamType: string
  storeId: string
  expected: ExpectedVersion
  events: NewEvent[]
}

export type StreamConflict = {
  streamId: string
  expected: ExpectedVersion
  actual: number | 'no_stream'
}

export type AppendResult =
  | { ok: true; events: RecordedEvent[]; streams: { streamId: string; version: number }[] }
  | { ok: false; conflict: StreamConflict }

export type DbOrTrx = Kysely<Database> | Transaction<Database>

export type AppendOptions = {
  // Runs inside the append transaction after the events are written (inline projections, blobs).
  within?: (trx: Transaction<Database>, events: RecordedEvent[]) => Promise<void>
}

export type ReadStreamOptions = { fromVersion?: number; toPosition?: number; toTime?: Date }

export type ReadAllOptions = {
  after?: Position
  limit?: number
  storeId?: string
  // Only for callers that hold a lock guaranteeing no writer is between append and commit.
  ignoreRunningTransactions?: boolean
}

export interface EventStore {
  append(streams: AppendToStream[], options?: AppendOptions): Promise<AppendResult>
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>
  readAll(options?: ReadAllOptions, db?: DbOrTrx): Promise<{ events: RecordedEvent[]; position: Position }>
  streamVersion(streamId: string): Promise<number | null>
}
