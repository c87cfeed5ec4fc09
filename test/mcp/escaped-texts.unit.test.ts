import t from 'tap'
import { escapedTextsHeld, jsonStringOf } from '../../src/mcp/fast-path.ts'

// The fast path's memo of escaped text blocks: the same bytes as JSON.stringify, and bounded.

t.test('the same string JSON.stringify makes, for any text', async (t) => {
  for (const text of ['{"a":"b"}', '{"html":"<p>\\"quoted\\"</p>","emoji":"😀","nl":"a\\nb"}', 'line\nbreak\ttab\u2028sep "q" \\ back', '']) {
    t.equal(jsonStringOf(text), JSON.stringify(text))
    t.equal(jsonStringOf(text), JSON.stringify(text), 'again, from the memo')
  }
})

t.test('held texts are bounded by count and by characters', async (t) => {
  for (let i = 0; i < 1000; i++) jsonStringOf(`{"n":${i},"pad":"${'x'.repeat(100)}"}`)
  t.ok(escapedTextsHeld().entries <= 256, `at most 256 entries (${escapedTextsHeld().entries})`)
  const big = `{"pad":"${'"'.repeat(400_000)}"}`
  for (let i = 0; i < 40; i++) t.equal(jsonStringOf(`${i}${big}`).length, JSON.stringify(`${i}${big}`).length)
  t.ok(escapedTextsHeld().chars <= 8 * 1024 * 1024, `at most 8 Mi characters (${escapedTextsHeld().chars})`)
  const huge = 'y'.repeat(2 * 1024 * 1024)
  const before = escapedTextsHeld()
  t.equal(jsonStringOf(huge), JSON.stringify(huge), 'a text too big to keep is still escaped')
  t.same(escapedTextsHeld(), before, 'and not kept')
})
