import type { PGlite } from '@electric-sql/pglite'
import { changeFeedHealthy } from '../metrics/registry.ts'
import { CHANNELS, subscribers, type ChangeFeed } from './change-feed.ts'

// PGlite is one process's database: its notifications (the same triggers as on PostgreSQL) are
// delivered in process by PGlite's own listen() as the committing query returns. There is no
// connection to lose, so the feed is healthy from the moment it listens until it is closed.
export async function pgliteChangeFeed(pglite: PGlite): Promise<ChangeFeed> {
  const subs = subscribers()
  const unlisten: (() => Promise<void>)[] = []
  for (const channel of Object.values(CHANNELS)) {
    unlisten.push(await pglite.listen(channel, (payload) => subs.deliver(channel, { payload })))
  }
  let open = true
  changeFeedHealthy.set(1)
  return {
    kind: 'pglite',
    healthy: () => open,
    subscribe: (channel, handler) => subs.add(channel, handler),
    // Delivered in process as the committing query returns: nothing is ever in flight.
    settled: async () => {},
    async close() {
      if (!open) return
      open = false
      changeFeedHealthy.set(0)
      for (const stop of unlisten) await stop().catch(() => {})
    },
  }
}
