// The event-store port. Commands append through it; projections and auditors read through it.
// It names no database library: an implementation says what its transaction handle is (Tx, what
// `within` runs in) and what readAll may read through (Reader, e.g. an open transaction).

export type ExpectedVersion = 'any' | 'no_stream' | 'exists' | number

// Who acted. A merchant acts through a session, not a credential: credentialId and appId are null.
export type Actor =
  | { kind: 'api_key' | 'oauth' | 'system'; credentialId: string | null; appId: string | null }
  | { kind: 'merchant'; merchantId: string; credentialId: null; appId: null }

export type Channel = 'rest' | 'mcp' | 'cli' | 'seed' | 'dashboard' | 'editor' | 'storefront'

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
  // What the command set out to do, where its events alone do not say it: a revert is made of
  // ordinary edits, so the version it restores or the command it undoes is recorded here
  // (docs/decisions/0121-revert-intent-in-metadata.md).
  intent?: CommandIntent | undefined
}

export type CommandIntent = { revertTo: number } | { undo: string }

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
  // The span of the log written by one cluster's transaction-id counter (see commit order below).
  epoch: number
  transactionId: string
  storeId: string
  type: Type
  schemaVersion: number
  data: Data
  metadata: EventMetadata
  recordedAt: Date
}

// Commit order: epoch, then transaction id, then position inside the transaction.
export type Position = { epoch: number; transactionId: string; globalPosition: number }
export const START: Position = { epoch: 0, transactionId: '0', globalPosition: 0 }

export type AppendToStream = {
  streamId: string
  streamType: string
  storeId: string
  expected: ExpectedVersion
  events: NewEvent[]
  // The stream's state at `expected` as the writer folded it (the theme a command decided on).
  // An inline projection may start from it instead of reading its own row: the append checks
  // the expected version, so when it succeeds this state is exactly the one the events follow.
  state?: unknown
}

export type StreamConflict = {
  streamId: string
  expected: ExpectedVersion
  actual: number | 'no_stream'
}

export type AppendResult =
  | { ok: true; events: RecordedEvent[]; streams: { streamId: string; version: number }[] }
  | { ok: false; conflict: StreamConflict }

export type AppendOptions<Tx = unknown> = {
  // Runs inside the append transaction after the events are written (inline projections, blobs).
  within?: (trx: Tx, events: RecordedEvent[]) => Promise<void>
}

// An event type of an aggregate or stream ({ type: 'ThemeCreated'; data: {...} } | ...).
export type EventShape = { type: string; data: unknown }
// The recorded form of each member of E, so a reader narrows on `type` without casting.
export type Recorded<E extends EventShape> = E extends EventShape ? RecordedEvent<E['type'], E['data']> : never

export type ReadStreamOptions = { fromVersion?: number; toPosition?: number; toTime?: Date }

export type ReadAllOptions = {
  after?: Position
  limit?: number
  storeId?: string
  // Only for callers that hold a lock guaranteeing no writer is between append and commit.
  ignoreRunningTransactions?: boolean
}

export interface EventStore<Tx = unknown, Reader = Tx> {
  append(streams: AppendToStream[], options?: AppendOptions<Tx>): Promise<AppendResult>
  // The events of one stream, typed by what the caller knows that stream holds (ThemeEvent, ...).
  readStream<E extends EventShape = EventShape>(streamId: string, options?: ReadStreamOptions): Promise<Recorded<E>[]>
  readAll(options?: ReadAllOptions, on?: Reader): Promise<{ events: RecordedEvent[]; position: Position }>
  streamVersion(streamId: string): Promise<number | null>
}
