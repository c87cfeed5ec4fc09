// The change feed: PostgreSQL notifications (LISTEN/NOTIFY, sent by the triggers of migration
// 0011 when a credential is revoked or something a live storefront page shows changes) delivered
// to the in-process caches that depend on them (src/auth/credential-cache.ts, the storefront's
// live probes).
//
// A cache may trust what it holds only while the feed is `healthy()`: connected, listening, and
// with a heartbeat answered recently enough that no notification can be outstanding for longer
// than the stated bound (see postgres-change-feed.ts). While it is not healthy every cache is
// bypassed (a plain lookup, fail closed). A feed that comes back after losing its connection may
// have missed notifications, so it sends every subscriber `'flush'` (drop everything) first.

export const CHANNELS = {
  /** Payload `k:<api key hash>`, `t:<access token hash>` or `g:<grant id>`. */
  credentials: 'sfts_credentials',
  /** Payload `<store id>|<table>`; `*` for every store (a projection rebuild swapped tables). */
  storefront: 'sfts_storefront',
  /** Payload `<store id>|<theme id>`: any write of a theme's row (a command on the theme). */
  themes: 'sfts_themes',
} as const

export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS]
export type Change = { payload: string } | 'flush'
export type ChangeHandler = (change: Change) => void

export interface ChangeFeed {
  readonly kind: 'postgres' | 'pglite' | 'disabled'
  /** True while what the caches hold can be trusted (see above). Cheap: called on every request. */
  healthy(): boolean
  subscribe(channel: Channel, handler: ChangeHandler): () => void
  /**
   * Resolves once every notification committed before the call has reached the subscribers (or
   * the feed is not listening, and will flush every cache before it trusts one again). The
   * service awaits it after each command, so a caller's own write is never hidden from its next
   * read on the instance that took the write.
   */
  settled(): Promise<void>
  close(): Promise<void>
}

/** The subscribers of a feed, by channel. */
export function subscribers() {
  const handlers = new Map<string, Set<ChangeHandler>>()
  return {
    add(channel: string, handler: ChangeHandler): () => void {
      let set = handlers.get(channel)
      if (!set) handlers.set(channel, (set = new Set()))
      set.add(handler)
      return () => void set.delete(handler)
    },
    deliver(channel: string, change: Change): void {
      for (const handler of handlers.get(channel) ?? []) {
        try {
          handler(change)
        } catch {
          // A subscriber's failure must not stop the others from hearing the change.
        }
      }
    },
    flushAll(): void {
      for (const channel of handlers.keys()) this.deliver(channel, 'flush')
    },
  }
}

/** No feed (CLI tools, tests that do not need one): never healthy, so every cache is bypassed. */
export function disabledChangeFeed(): ChangeFeed {
  return {
    kind: 'disabled',
    healthy: () => false,
    subscribe: () => () => {},
    settled: async () => {},
    close: async () => {},
  }
}
