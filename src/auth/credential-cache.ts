import { credentialCache as metric } from '../metrics/registry.ts'
import { CHANNELS, disabledChangeFeed, type ChangeFeed } from '../notifications/change-feed.ts'
import type { Actor } from '../events/event-store.ts'

// Verified bearer credentials kept in memory (hash -> store, scopes, actor, expiry), so a
// credential seen recently costs no PostgreSQL statement.
//
// * Bounded: an entry lives at most `ttlMs` (60 s) after its lookup; at most `maxEntries`
//   (10,000), least recently used out first.
// * Expiry (`expires_at`) is checked on every request against the cached value.
// * Revocation: the triggers of migration 0011 notify `sfts_credentials` when a key, a token or a
//   grant is revoked, changed or deleted; the entry is evicted on every instance as the
//   notification arrives (within 750 ms of the commit, see postgres-change-feed.ts).
// * Fail closed: while the change feed is not healthy the cache is neither read nor written;
//   every request looks its credential up. A feed that reconnects flushes the whole cache.
// * Only verified credentials are cached: unknown, revoked or expired ones are looked up every
//   time. A lookup that overlaps an eviction (any eviction, or a flush) is not cached: it may
//   have read the row before the change committed.

export type CachedCredential = {
  storeId: string
  scopes: ReadonlySet<string>
  actor: Actor
  /** ms since the epoch, null: never expires. */
  expiresAt: number | null
  /** OAuth access tokens: the resource (audience) they were issued for, checked per request. */
  resource?: string
  /** OAuth: evicted with its grant. */
  grantId?: string
}

type Entry = { value: CachedCredential; cachedAt: number }

export type CredentialCacheOptions = { feed?: ChangeFeed; maxEntries?: number; ttlMs?: number; now?: () => number }

export class CredentialCache {
  private readonly entries = new Map<string, Entry>()
  private readonly feed: ChangeFeed
  private readonly maxEntries: number
  private readonly ttlMs: number
  private readonly now: () => number
  // Bumped by every eviction and flush; a lookup caches its result only if it did not move.
  private generation = 0
  private readonly unsubscribe: () => void

  constructor(options: CredentialCacheOptions = {}) {
    this.feed = options.feed ?? disabledChangeFeed()
    this.maxEntries = options.maxEntries ?? 10_000
    this.ttlMs = options.ttlMs ?? 60_000
    this.now = options.now ?? Date.now
    this.unsubscribe = this.feed.subscribe(CHANNELS.credentials, (change) => {
      this.generation++
      if (change === 'flush') return this.entries.clear()
      this.evict(change.payload)
    })
  }

  private evict(payload: string): void {
    const kind = payload.slice(0, 2)
    const id = payload.slice(2)
    if (kind === 'k:' || kind === 't:') {
      this.entries.delete(id)
    } else if (kind === 'g:') {
      for (const [hash, entry] of this.entries) if (entry.value.grantId === id) this.entries.delete(hash)
    } else {
      this.entries.clear()
    }
  }

  /**
   * The cached credential of this hash, or what to do instead: `miss` or `bypass` come with the
   * ticket to pass to `remember` after the lookup.
   */
  get(hash: string): { hit: CachedCredential } | { ticket: number } {
    if (!this.feed.healthy()) {
      metric.inc({ result: 'bypass' })
      return { ticket: -1 }
    }
    const entry = this.entries.get(hash)
    if (entry !== undefined) {
      if (this.now() - entry.cachedAt < this.ttlMs) {
        // Most recently used goes last.
        this.entries.delete(hash)
        this.entries.set(hash, entry)
        metric.inc({ result: 'hit' })
        return { hit: entry.value }
      }
      this.entries.delete(hash)
    }
    metric.inc({ result: 'miss' })
    return { ticket: this.generation }
  }

  /** Keeps a credential verified by a lookup that started with `ticket`, unless something changed meanwhile. */
  remember(hash: string, value: CachedCredential, ticket: number, lookedUpAt: number): void {
    if (ticket !== this.generation || !this.feed.healthy()) return
    this.entries.delete(hash)
    this.entries.set(hash, { value, cachedAt: lookedUpAt })
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next()
      if (oldest.done) break
      this.entries.delete(oldest.value)
    }
  }

  /** Marks the start of a lookup (the ticket's time). */
  clock(): number {
    return this.now()
  }

  size(): number {
    return this.entries.size
  }

  close(): void {
    this.unsubscribe()
    this.entries.clear()
  }
}
