import t from 'tap'
import { Utf8Memo } from '../../src/web/utf8-memo.ts'

// The memo of response bytes: what the encoder makes, made once while held, and bounded.

t.test('the bytes the encoder makes, made once while held', async (t) => {
  const memo = new Utf8Memo(4, 1024 * 1024)
  let made = 0
  const encode = (text: string) => {
    made++
    return Buffer.from(text)
  }
  for (const text of ['{"a":"b"}', '{"dash":"–","emoji":"😀"}', '']) {
    t.equal(memo.of(text, encode).toString('utf8'), text)
    t.equal(memo.of(text, encode), memo.of(text, encode), 'the same buffer again')
  }
  t.equal(made, 3, 'each text encoded once')
})

t.test('bounded by count and by bytes', async (t) => {
  const memo = new Utf8Memo(256, 8 * 1024 * 1024)
  for (let i = 0; i < 1000; i++) memo.of(`{"n":${i},"pad":"${'x'.repeat(100)}"}`, Buffer.from)
  t.equal(memo.size.entries, 256, 'at most 256 entries')
  const big = 'q'.repeat(400_000)
  for (let i = 0; i < 40; i++) t.equal(memo.of(`${i}${big}`, Buffer.from).length, big.length + String(i).length)
  t.ok(memo.size.bytes <= 8 * 1024 * 1024, `at most 8 MiB of texts and bytes (${memo.size.bytes})`)
  const huge = 'y'.repeat(2 * 1024 * 1024)
  const before = memo.size
  t.equal(memo.of(huge, Buffer.from).length, huge.length, 'a text too big to keep is still encoded')
  t.same(memo.size, before, 'and not kept')
})

t.test('the oldest go first', async (t) => {
  const memo = new Utf8Memo(2, 1024)
  let made = 0
  const encode = (text: string) => {
    made++
    return Buffer.from(text)
  }
  memo.of('a', encode)
  memo.of('b', encode)
  memo.of('c', encode)
  memo.of('b', encode)
  t.equal(made, 3, 'b still held')
  memo.of('a', encode)
  t.equal(made, 4, 'a was let go')
})
