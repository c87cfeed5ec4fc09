import t from 'tap'
import { base62, newEventId, newId } from '../src/ids.ts'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

// Ids come from a pool of random bytes refilled 4 KB at a time: 20,000 ids use about 330 KB, so
// the pool is refilled some eighty times. A byte used twice, or a refill that did not happen,
// shows up as repeated ids or as a skewed alphabet.
t.test(
  'ids: prefixed, 16 base62 characters, unique across many refills of the pool, every character about as frequent',
  async (t) => {
    const ids = Array.from({ length: 20_000 }, () => newId('cmd'))
    t.ok(
      ids.every((id) => /^cmd_[0-9A-Za-z]{16}$/.test(id)),
      'shape',
    )
    t.equal(new Set(ids).size, ids.length, 'no id twice')
    const counts = new Map<string, number>()
    for (const id of ids) for (const c of id.slice(4)) counts.set(c, (counts.get(c) ?? 0) + 1)
    const expected = (ids.length * 16) / 62
    const worst = Math.max(...[...ALPHABET].map((c) => Math.abs((counts.get(c) ?? 0) - expected) / expected))
    t.ok(
      worst < 0.1,
      `each of the 62 characters within 10 % of ${Math.round(expected)} (worst ${(worst * 100).toFixed(1)} %)`,
    )
    const pairs = new Set(ids.map((id) => id.slice(4, 6)))
    t.ok(pairs.size > 3500, `first two characters vary (${pairs.size} of 3844 pairs seen)`)
  },
)

t.test('secrets: the asked length of base62 characters, each one fresh', async (t) => {
  const secrets = Array.from({ length: 2_000 }, () => base62(43))
  t.ok(
    secrets.every((s) => /^[0-9A-Za-z]{43}$/.test(s)),
    'shape',
  )
  t.equal(new Set(secrets).size, secrets.length, 'no secret twice')
})

t.test('event ids: UUIDv7, the time first, so ids of later milliseconds sort after earlier ones', async (t) => {
  const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
  const millis = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16)
  const ids = Array.from({ length: 20_000 }, () => newEventId())
  t.ok(
    ids.every((id) => V7.test(id)),
    'version 7, RFC 9562 variant',
  )
  t.equal(new Set(ids).size, ids.length, 'no id twice')
  const now = Date.now()
  t.ok(
    ids.every((id) => Math.abs(millis(id) - now) < 60_000),
    'the leading 48 bits are the time in milliseconds',
  )
  t.equal(millis(newEventId(0)), 0)
  t.equal(millis(newEventId(2 ** 48 - 1)), 2 ** 48 - 1, 'all 48 bits, beyond 32')
  t.equal(millis(newEventId(0x0123_4567_89ab)), 0x0123_4567_89ab)
  const times = [1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000, 2_000_000_000_000]
  const made = times.map((ms) => newEventId(ms))
  t.same([...made].sort(), made, 'text order follows time order')
  // 74 random bits: the part after the time differs between ids of the same millisecond.
  const sameMs = Array.from({ length: 1000 }, () => newEventId(1_700_000_000_000))
  t.equal(new Set(sameMs).size, 1000)
})
