import t from 'tap'
import { CHANNELS, subscribers, type ChangeFeed } from '../../src/notifications/change-feed.ts'
import { StoreScopedCache } from '../../src/notifications/store-scoped-cache.ts'
import { ThemeJsonCache } from '../../src/queries/themes/theme-json-cache.ts'

// A feed the test drives: deliver a change, flush, or turn unhealthy.
function fakeFeed() {
  const subs = subscribers()
  let healthy = true
  const feed: ChangeFeed = {
    kind: 'pglite',
    healthy: () => healthy,
    subscribe: (channel, handler) => subs.add(channel, handler),
    settled: async () => {},
    close: async () => {},
  }
  return {
    feed,
    change: (storeId: string) => subs.deliver(CHANNELS.storefront, { payload: `${storeId}|stores` }),
    flush: () => subs.flushAll(),
    setHealthy: (v: boolean) => void (healthy = v),
  }
}

t.test(
  'store-scoped cache: kept per store, dropped by that store’s change only, bypassed while unhealthy',
  async (t) => {
    const f = fakeFeed()
    const results: string[] = []
    const cache = new StoreScopedCache<{ storeId: string; n: number }>({ feed: f.feed, count: (r) => results.push(r) })
    let loads = 0
    const load = (storeId: string) => async () => ({ storeId, n: ++loads })
    const get = (key: string, storeId: string) => cache.get(key, load(storeId), (v) => v.storeId)

    t.equal((await get('a1', 'A'))!.n, 1)
    t.equal((await get('a1', 'A'))!.n, 1, 'a hit')
    t.equal((await get('a2', 'A'))!.n, 2, 'another key of the same store')
    t.equal((await get('b1', 'B'))!.n, 3)
    const before = cache.generation('A')
    f.change('A')
    t.not(cache.generation('A'), before, 'the store’s generation moved')
    t.equal((await get('a1', 'A'))!.n, 4, 'A’s entries are gone')
    t.equal((await get('a2', 'A'))!.n, 5)
    t.equal((await get('b1', 'B'))!.n, 3, 'B’s stay')
    f.flush()
    t.equal((await get('b1', 'B'))!.n, 6, 'a flush drops everything')

    f.setHealthy(false)
    t.equal((await get('b1', 'B'))!.n, 7, 'unhealthy: loaded')
    t.equal((await get('b1', 'B'))!.n, 8, 'every time')
    t.notOk(cache.trusted())
    f.setHealthy(true)
    t.same(results.slice(-2), ['bypass', 'bypass'])
  },
)

t.test('a load that overlapped a change is not kept; bounded by entries and bytes', async (t) => {
  const f = fakeFeed()
  const cache = new StoreScopedCache<string>({ feed: f.feed, maxEntries: 3, maxBytes: 10, sizeOf: (v) => v.length })
  let release!: () => void
  const slow = cache.get(
    'k',
    () => new Promise<string>((resolve) => (release = () => resolve('old'))),
    () => 'A',
  )
  f.change('B')
  release()
  t.equal(await slow, 'old', 'the caller gets what it loaded')
  t.equal(
    await cache.get(
      'k',
      async () => 'new',
      () => 'A',
    ),
    'new',
    'but it was not kept',
  )

  for (const key of ['1', '2', '3', '4'])
    await cache.get(
      key,
      async () => key,
      () => 'A',
    )
  t.equal(
    await cache.get(
      '1',
      async () => 'reloaded',
      () => 'A',
    ),
    'reloaded',
    'the oldest went past 3 entries',
  )
  await cache.get(
    'big',
    async () => '123456789',
    () => 'A',
  )
  t.equal(
    await cache.get(
      '4',
      async () => 'reloaded',
      () => 'A',
    ),
    'reloaded',
    'and past 10 bytes',
  )
})

t.test(
  'theme JSON cache: by theme, store and stream version; a slower older read never replaces a newer one',
  async (t) => {
    const cache = new ThemeJsonCache(100)
    t.equal(cache.versionOf('A', 'thm_1'), -1)
    cache.keep('thm_1', { storeId: 'A', streamVersion: 3, version: 2, json: '{"v":3}' })
    t.equal(cache.versionOf('A', 'thm_1'), 3)
    t.equal(cache.versionOf('B', 'thm_1'), -1, 'another store never sees it')
    t.equal(cache.at('A', 'thm_1', 3)?.json, '{"v":3}')
    t.equal(cache.at('A', 'thm_1', 4), undefined, 'nothing at another version')
    cache.keep('thm_1', { storeId: 'A', streamVersion: 2, version: 1, json: '{"v":2}' })
    t.equal(cache.versionOf('A', 'thm_1'), 3, 'an older version does not replace a newer one')
    cache.keep('thm_2', { storeId: 'A', streamVersion: 1, version: 1, json: 'x'.repeat(95) })
    t.equal(cache.versionOf('A', 'thm_1'), -1, 'past the byte budget the oldest theme goes')
    t.equal(cache.versionOf('A', 'thm_2'), 1)
  },
)
