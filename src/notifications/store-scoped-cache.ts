import { CHANNELS, disabledChangeFeed, type Channel, type ChangeFeed } from './change-feed.ts'

// Values that belong to one store, kept in memory while the change feed is healthy and dropped on
// every instance when it notifies a change of that store (`sfts_storefront`, migration 0011: a
// publish or rollback, an update of the active theme, a menu change, a store row update such as a
// catalog_version bump, a settings or checkout change; `*` after a projection rebuild swapped
// tables). Used by the storefront's live probes and by the catalogue reads (listProducts' pages,
// getContext's store and catalogue part), whose read models move only with those changes.
//
// Fail closed: while the feed is unhealthy every `get` loads (the behaviour without the cache). A
// value loaded while any change arrived is not kept (it may predate the change), and each entry is
// loaded again at least every `maxAgeMs` as a safety net. Loads that return null are never kept.
//
// The scope an entry is dropped by is a store by default; `invalidatedBy` names other channels and
// how a payload names a scope (getTheme's entries: one theme, by `sfts_themes`). A scope of `*`
// drops everything; null ignores the notification.
export type CacheResult = 'hit' | 'miss' | 'bypass'
export type Invalidation = { channel: Channel; scopeOf: (payload: string) => string | null }
export const BY_STORE: Invalidation = { channel: CHANNELS.storefront, scopeOf: (payload) => payload.split('|')[0]! }
export type StoreScopedCacheOptions<V> = {
  feed?: ChangeFeed
  invalidatedBy?: readonly Invalidation[]
  maxEntries?: number
  /** With sizeOf: the most bytes kept (oldest entries go first). */
  maxBytes?: number
  sizeOf?: (value: V) => number
  maxAgeMs?: number
  now?: () => number
  count?: (result: CacheResult) => void
}

type Entry<V> = { value: V; storeId: string; at: number; bytes: number }

export class StoreScopedCache<V> {
  private readonly entries = new Map<string, Entry<V>>()
  private readonly keysByStore = new Map<string, Set<string>>()
  private readonly generations = new Map<string, number>()
  private epoch = 0
  private changeCount = 0
  private readonly feed: ChangeFeed
  private readonly maxEntries: number
  private readonly maxBytes: number
  private readonly sizeOf: (value: V) => number
  private bytes = 0
  private readonly maxAgeMs: number
  private readonly now: () => number
  private readonly count: (result: CacheResult) => void
  private readonly unsubscribe: () => void

  constructor(options: StoreScopedCacheOptions<V> = {}) {
    this.feed = options.feed ?? disabledChangeFeed()
    this.maxEntries = options.maxEntries ?? 10_000
    this.maxBytes = options.maxBytes ?? Infinity
    this.sizeOf = options.sizeOf ?? (() => 0)
    this.maxAgeMs = options.maxAgeMs ?? 60_000
    this.now = options.now ?? Date.now
    this.count = options.count ?? (() => {})
    const unsubscribes = (options.invalidatedBy ?? [BY_STORE]).map(({ channel, scopeOf }) =>
      this.feed.subscribe(channel, (change) => {
        const storeId = change === 'flush' ? '*' : scopeOf(change.payload)
        if (storeId === null) return
        this.changeCount++
        if (storeId === '*') return this.clear()
        this.generations.set(storeId, (this.generations.get(storeId) ?? 0) + 1)
        for (const key of [...(this.keysByStore.get(storeId) ?? [])]) this.forget(key)
      }),
    )
    this.unsubscribe = () => {
      for (const unsubscribe of unsubscribes) unsubscribe()
    }
  }

  /** Whether what is held can be trusted now (the change feed is healthy). */
  trusted(): boolean {
    return this.feed.healthy()
  }

  /** Moves with every change notified for the store: a key part that retires what was derived before it. */
  generation(storeId: string): string {
    return `${this.epoch}.${this.generations.get(storeId) ?? 0}`
  }

  /** The value of `key`: from memory when the feed is healthy, otherwise (or on a miss) from `load`. */
  async get(key: string, load: () => Promise<V | null>, storeOf: (value: V) => string): Promise<V | null> {
    if (!this.feed.healthy()) {
      this.count('bypass')
      return load()
    }
    const entry = this.entries.get(key)
    if (entry !== undefined && this.now() - entry.at < this.maxAgeMs) {
      this.count('hit')
      return entry.value
    }
    this.count('miss')
    const epoch = this.epoch
    const at = this.now()
    // Any change notified while the load runs (for any store) keeps its result out of memory.
    const before = this.changeCount
    const value = await load()
    if (value !== null && this.feed.healthy() && epoch === this.epoch && before === this.changeCount)
      this.keep(key, { value, storeId: storeOf(value), at, bytes: this.sizeOf(value) })
    return value
  }

  private keep(key: string, entry: Entry<V>): void {
    this.forget(key)
    this.entries.set(key, entry)
    let keys = this.keysByStore.get(entry.storeId)
    if (!keys) this.keysByStore.set(entry.storeId, (keys = new Set()))
    keys.add(key)
    this.bytes += entry.bytes
    while (this.entries.size > this.maxEntries || (this.bytes > this.maxBytes && this.entries.size > 1))
      this.forget(this.entries.keys().next().value!)
  }

  private forget(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.bytes -= entry.bytes
    const keys = this.keysByStore.get(entry.storeId)
    keys?.delete(key)
    if (keys?.size === 0) this.keysByStore.delete(entry.storeId)
  }

  private clear(): void {
    this.epoch++
    this.generations.clear()
    this.entries.clear()
    this.keysByStore.clear()
    this.bytes = 0
  }

  close(): void {
    this.unsubscribe()
    this.clear()
  }
}
