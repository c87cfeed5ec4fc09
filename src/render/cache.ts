// A small LRU cache with a size budget, a time-to-live and in-flight sharing: concurrent
// misses on one key run the producer once. Keys are built by the caller (plugin.ts) and
// always start with the store id, so nothing rendered for one store is served to another.

type Entry<V> = { value: V; size: number; expiresAt: number; usedAt: number }

const USE_GRANULARITY_MS = 1000

export type CacheOptions<V> = {
  maxEntries: number
  maxBytes: number
  ttlMs: number
  now?: () => number
  sizeOf: (value: V) => number
}

export type CacheStats = { hits: number; misses: number; entries: number; bytes: number }

export class RenderCache<V> {
  private readonly entries = new Map<string, Entry<V>>()
  private readonly inFlight = new Map<string, Promise<V>>()
  private bytes = 0
  private hits = 0
  private misses = 0

  private readonly options: CacheOptions<V>

  constructor(options: CacheOptions<V>) {
    this.options = options
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now()
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    const now = this.now()
    if (entry.expiresAt <= now) {
      this.delete(key)
      return undefined
    }
    // Most recently used goes last; a page served thousands of times a second moves at most once a second.
    if (now - entry.usedAt >= USE_GRANULARITY_MS) {
      entry.usedAt = now
      this.entries.delete(key)
      this.entries.set(key, entry)
    }
    return entry.value
  }

  set(key: string, value: V): void {
    const size = this.options.sizeOf(value)
    if (size > this.options.maxBytes) return
    this.delete(key)
    const now = this.now()
    this.entries.set(key, { value, size, expiresAt: now + this.options.ttlMs, usedAt: now })
    this.bytes += size
    while (this.entries.size > this.options.maxEntries || this.bytes > this.options.maxBytes) {
      const oldest = this.entries.keys().next()
      if (oldest.done) break
      this.delete(oldest.value)
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.entries.delete(key)
    this.bytes -= entry.size
  }

  /** The cached value, or the producer's (run once for concurrent callers). `store` false: not kept. */
  async getOrCreate(
    key: string,
    produce: () => Promise<{ value: V; store: boolean }>,
  ): Promise<{ value: V; hit: boolean }> {
    const cached = this.get(key)
    if (cached !== undefined) {
      this.hits++
      return { value: cached, hit: true }
    }
    const running = this.inFlight.get(key)
    if (running !== undefined) {
      this.hits++
      return { value: await running, hit: true }
    }
    this.misses++
    const promise = produce().then(({ value, store }) => {
      if (store) this.set(key, value)
      return value
    })
    this.inFlight.set(key, promise)
    try {
      return { value: await promise, hit: false }
    } finally {
      this.inFlight.delete(key)
    }
  }

  clear(): void {
    this.entries.clear()
    this.bytes = 0
  }

  stats(): CacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, bytes: this.bytes }
  }
}
