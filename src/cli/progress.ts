// Progress of a long operator command on a terminal: events done (of how many), rate and ETA,
// redrawn on one line at most every 200 ms. Nothing at all when the stream is not a TTY (cron,
// CI, a pipe): the command's final summary line is the only output there.

export type ProgressStream = { isTTY?: boolean; write: (text: string) => unknown }

export type Progress = { tick: (done: number) => void; finish: () => void }

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?'
  if (seconds < 60) return `${Math.ceil(seconds)} s`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`
  return `${Math.floor(seconds / 3600)} h ${Math.ceil((seconds % 3600) / 60)} min`
}

export function progressLine(label: string, done: number, total: number | null, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0
  const of = total !== null && total > 0 ? ` / ${fmt(total)}` : ''
  const eta = total !== null && total > done && rate > 0 ? `, ETA ${duration((total - done) / rate)}` : ''
  return `${label}: ${fmt(done)}${of} events, ${fmt(rate)} events/s${eta}`
}

export function progress(
  label: string,
  total: number | null,
  stream: ProgressStream = process.stderr,
  now: () => number = () => Date.now(),
): Progress {
  if (!stream.isTTY) return { tick: () => {}, finish: () => {} }
  const started = now()
  let drawn = 0
  let last = 0
  return {
    tick(done) {
      last = done
      const t = now()
      if (t - drawn < 200) return
      drawn = t
      stream.write(`\r\x1b[2K${progressLine(label, done, total, t - started)}`)
    },
    finish() {
      stream.write(`\r\x1b[2K${progressLine(label, last, total, now() - started)}\n`)
    },
  }
}
