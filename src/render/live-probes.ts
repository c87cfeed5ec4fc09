import { storefrontProbes as metric } from '../metrics/registry.ts'
import { CHANNELS, disabledChangeFeed, type ChangeFeed } from '../notifications/change-feed.ts'

// What a live storefront request needs before it can look in the page cache (the store's id,
// its live theme and version, its catalogue and menus versions), kept in memory per slug so a
// cached page is served with no PostgreSQL statement.
//
// Kept current by the change feed (migration 0011 notifies `sfts_storefront` with the store id on
// a publish or rollback, an update of the active theme, a menu change, a store row update such
// as a catalog_version bump, and a settings or checkout change): the store's probe is dropped and
// its generation moves, so the next request asks PostgreSQL again and renders under new cache
// keys (data without a version of its own, such as the store profile, changes keys this way too).
// While the feed is unhealthy every request asks PostgreSQL (the behaviour before this cache). A
// probe read while a change arrived is not kept, and each probe is re-read at least every
// `maxAgeMs` (60 s) as a safety net. Unknown slugs are never kept.
export type ProbeOptions = { feed?: ChangeFeed; maxEntries?: number; maxAgeMs?: number; now?: () => number }

export class LiveProbes<P extends { storeId: string }> {
  private readonly probes = new Map<string, { probe: P; at: number }>()
  private readonly generations = new Map<string, number>()
  private epoch = 0
  private changeCount = 0
  private readonly feed: ChangeFeed
  private readonly maxEntries: number
  private readonly maxAgeMs: number
  private readonly now: () => number
  private readonly unsubscribe: () => void

  constructor(options: ProbeOptions = {}) {
    this.feed = options.feed ?? disabledChangeFeed()
    this.maxEntries = options.maxEntries ?? 10_000
    this.maxAgeMs = options.maxAgeMs ?? 60_000
    this.now = options.now ?? Date.now
    this.unsubscribe = this.feed.subscribe(CHANNELS.storefront, (change) => {
      this.changeCount++
      const storeId = change === 'flush' ? '*' : change.payload.split('|')[0]!
      if (storeId === '*') {
        this.epoch++
        this.generations.clear()
        this.probes.clear()
        return
      }
      this.generations.set(storeId, (this.generations.get(storeId) ?? 0) + 1)
      for (const [slug, entry] of this.probes) if (entry.probe.storeId === storeId) this.probes.delete(slug)
    })
  }

  /**
   * A store's cache generation: part of every cache key of its pages, so a change notified for
   * the store retires every page and store view rendered before it.
   */
  generation(storeId: string): string {
    return `${this.epoch}.${this.generations.get(storeId) ?? 0}`
  }

  /** The probe of this slug: from memory when the feed is healthy, otherwise (or on a miss) from `query`. */
  async get(slug: string, query: (slug: string) => Promise<P | null>): Promise<P | null> {
    if (!this.feed.healthy()) {
      metric.inc({ result: 'bypass' })
      return query(slug)
    }
    const entry = this.probes.get(slug)
    if (entry !== undefined && this.now() - entry.at < this.maxAgeMs) {
      metric.inc({ result: 'hit' })
      return entry.probe
    }
    metric.inc({ result: 'miss' })
    const epoch = this.epoch
    const at = this.now()
    // Any change notified while the query runs (for any store) keeps its result out of memory.
    const before = this.changeCount
    const probe = await query(slug)
    if (probe !== null && this.feed.healthy() && epoch === this.epoch && before === this.changeCount) {
      this.probes.delete(slug)
      this.probes.set(slug, { probe, at })
      if (this.probes.size > this.maxEntries) this.probes.delete(this.probes.keys().next().value!)
    }
    return probe
  }

  close(): void {
    this.unsubscribe()
    this.probes.clear()
  }
}
