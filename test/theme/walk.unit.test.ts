import t from 'tap'
import { MAX_DEPTH, scanKeys, walk } from '../../src/theme/key-rules.ts'

t.test(
  "walk: a node's children are visited last to first, then entered first to last, each subtree whole",
  async (t) => {
    const seen: string[] = []
    walk({ a: { x: 1, y: [2, { z: 3 }] }, b: 4 }, (key, _value, at) => {
      seen.push(`${at.join('.')}=${String(key)}`)
      return undefined
    })
    t.same(seen, ['b=b', 'a=a', 'a.y=y', 'a.x=x', 'a.y.1=1', 'a.y.0=0', 'a.y.1.z=z'])
  },
)

t.test('walk: a skipped child is not entered; its siblings are, before and after it', async (t) => {
  const entered: string[] = []
  walk(
    { a: { in: 1 }, skip: { never: 1 }, c: { in: 2 }, d: [{ skip: { never: 2 } }, { in: 3 }] },
    (key, _value, at) => {
      entered.push(at.join('.'))
      return key === 'skip' ? 'skip' : undefined
    },
  )
  t.notOk(
    entered.some((p) => p.includes('never')),
    'nothing under a skipped key',
  )
  t.ok(
    ['a.in', 'c.in', 'd.1.in', 'd.0.skip'].every((p) => entered.includes(p)),
    'every other path',
  )
})

t.test('walk: the path of the first value past the depth limit, and no endless loop on a cycle', async (t) => {
  let deep: Record<string, unknown> = {}
  const root = deep
  for (let i = 0; i < MAX_DEPTH + 5; i++) deep = (deep.n = {}) as Record<string, unknown>
  t.same(
    walk(root, () => undefined),
    Array.from({ length: MAX_DEPTH }, () => 'n'),
  )
  const cyclic: Record<string, unknown> = { a: 1 }
  cyclic.self = cyclic
  t.equal(
    walk(cyclic, () => undefined),
    null,
    'a value seen before is not walked again',
  )
})

t.test('scanKeys: every flagged key of an object is reported at its own path, its value not looked into', async (t) => {
  const letters = (i: number): string =>
    i < 26 ? String.fromCharCode(97 + i) : letters(Math.floor(i / 26) - 1) + letters(i % 26)
  const flagged = Array.from({ length: 2_000 }, (_, i) => `onclick${letters(i)}`)
  const settings = Object.fromEntries(
    flagged.flatMap((k, i) => [
      [k, { price: 1 }],
      [`fine${letters(i)}`, { heading: 'x', price: 2 }],
    ]),
  )
  const scan = scanKeys({ settings }, 'section', null)
  const unsafe = scan.issues.filter((i) => i.code === 'UNSAFE_CONTENT').map((i) => i.path)
  t.same([...unsafe].sort(), flagged.map((k) => `section.settings.${k}`).sort(), 'each flagged key once')
  const commerce = scan.issues.filter((i) => i.code === 'COMMERCE_DATA_FORBIDDEN').map((i) => i.path)
  t.equal(commerce.length, 2_000, 'the price under each unflagged sibling, none under a flagged key')
  t.ok(commerce.every((p) => /^section\.settings\.fine[a-z]+\.price$/.test(p)))
})
