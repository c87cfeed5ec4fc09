import t from 'tap'
import { progress, progressLine } from '../../src/cli/progress.ts'

t.test('on a terminal: events done of the total, rate and ETA, redrawn at most every 200 ms', async (t) => {
  let out = ''
  let clock = 0
  const shown = progress('themes: rebuilding', 10_000, { isTTY: true, write: (s: string) => (out += s) }, () => clock)
  clock = 1000
  shown.tick(2000)
  clock = 1100
  shown.tick(2100)
  t.equal(out.split('\r').length - 1, 1, 'the second tick within 200 ms draws nothing')
  t.match(out, /themes: rebuilding: 2,000 \/ 10,000 events, 2,000 events\/s, ETA 4 s/)
  clock = 5000
  shown.tick(10_000)
  shown.finish()
  t.match(out, /10,000 \/ 10,000 events, 2,000 events\/s\n$/)
})

t.test('not a terminal: nothing', async (t) => {
  let out = ''
  const shown = progress('export', 100, { isTTY: false, write: (s: string) => (out += s) })
  shown.tick(50)
  shown.finish()
  t.equal(out, '')
})

t.test('ETA in minutes and hours; no total, no ETA', async (t) => {
  t.match(progressLine('x', 1000, 1_000_000, 1000), /ETA 16 min 39 s/)
  t.match(progressLine('x', 10, 1_000_000, 1000), /ETA 27 h 47 min/)
  t.equal(progressLine('export', 5, null, 1000), 'export: 5 events, 5 events/s')
})
