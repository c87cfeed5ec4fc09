import { readFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { SERVICE_NODE_FLAGS } from '../../src/service-node-flags.ts'

// Latency recording and the small amount of statistics every benchmark prints.

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

export type Summary = {
  ops: number
  units: number
  seconds: number
  opsPerSecond: number
  unitsPerSecond: number
  p50: number
  p99: number
  max: number
  cpu?: Cpu
}

export function summarize(latenciesMs: number[], seconds: number, unitsPerOp = 1, cpu?: Cpu): Summary {
  const sorted = Float64Array.from(latenciesMs).sort()
  const list = Array.from(sorted)
  const ops = list.length
  return {
    ops,
    units: ops * unitsPerOp,
    seconds,
    opsPerSecond: ops / seconds,
    unitsPerSecond: (ops * unitsPerOp) / seconds,
    p50: percentile(list, 50),
    p99: percentile(list, 99),
    max: list.at(-1) ?? NaN,
    ...(cpu ? { cpu } : {}),
  }
}

// "node 1.2 / pg 3.4": CPU milliseconds per unit (or per 1000 units) spent by this process and by PostgreSQL.
export function cpuPer(s: Summary, per = 1): string {
  if (!s.cpu || s.units === 0) return '-'
  const f = (x: number) => fmt((x * 1000 * per) / s.units, 2)
  return `${f(s.cpu.node)} / ${f(s.cpu.postgres)}`
}

export type LoadOptions = {
  workers: number
  // Stops at whichever comes first: the duration, or this many operations in total (0 = no cap).
  seconds: number
  maxOps?: number
}

// Runs `op` in `workers` concurrent loops (each worker waits for its own previous op), records
// each op's latency, and returns them with the wall-clock time of the whole run.
export async function closedLoop(
  options: LoadOptions,
  op: (worker: number, iteration: number) => Promise<void>,
): Promise<Run> {
  const latencies: number[] = []
  const cpu0 = await cpuSnapshot()
  const deadline = performance.now() + options.seconds * 1000
  const cap = options.maxOps && options.maxOps > 0 ? options.maxOps : Infinity
  let started = 0
  const start = performance.now()
  await Promise.all(
    Array.from({ length: options.workers }, async (_, worker) => {
      for (let i = 0; ; i++) {
        if (performance.now() >= deadline || started >= cap) return
        started++
        const t0 = performance.now()
        await op(worker, i)
        latencies.push(performance.now() - t0)
      }
    }),
  )
  const seconds = (performance.now() - start) / 1000
  const cpu = await cpuSince(cpu0)
  return { latencies, seconds, cpu: { node: cpu.node, postgres: cpu.postgres, machine: cpu.machine } }
}

export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-'
export const ms = (n: number) => `${fmt(n, n < 10 ? 2 : 1)} ms`

export function table(rows: Record<string, string | number>[]): string {
  if (rows.length === 0) return ''
  const keys = Object.keys(rows[0]!)
  const cells = [keys, ...rows.map((r) => keys.map((k) => String(r[k] ?? '')))]
  const widths = keys.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)))
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ')
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n')
}

export function machine(): string {
  const c = cpus()
  return `${c.length} cores (${c[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; PostgreSQL, this process and its load generator share the machine`
}

export function header(title: string, extra: string[] = []): void {
  console.log(`# ${title}`)
  console.log(`# ${new Date().toISOString()} — ${machine()}`)
  for (const line of extra) console.log(`# ${line}`)
  console.log()
}

// header() plus a measurement of how busy the machine is before the run starts.
export async function headerWithLoad(title: string, extra: string[] = []): Promise<void> {
  header(title, [...extra, await machineLoad()])
}

export const verdict = (ok: boolean) => (ok ? 'MET' : 'MISSED')

// --name value / --name=value command-line options with numeric defaults.
export function numberArg(name: string, fallback: number): number {
  const argv = process.argv.slice(2)
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === `--${name}` && argv[i + 1] !== undefined) return Number(argv[i + 1])
    if (a.startsWith(`--${name}=`)) return Number(a.slice(name.length + 3))
  }
  const env = process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`]
  return env !== undefined ? Number(env) : fallback
}

export function flag(name: string): boolean {
  return process.argv.slice(2).includes(`--${name}`)
}

// The bench servers' Node flags: the service's own (src/service-node-flags.ts), or
// --node-flags '<flags>' (BENCH_NODE_FLAGS; '' for V8's defaults) to compare.
export function serverNodeFlags(): string[] {
  const given = stringArg('node-flags')
  return given === undefined ? [...SERVICE_NODE_FLAGS] : given.split(/\s+/).filter(Boolean)
}

// How the bench headers name the server's Node: its flags, or V8's defaults.
export const serverNodeLabel = (): string => `node ${serverNodeFlags().join(' ') || "with V8's defaults"}`

export function stringArg(name: string): string | undefined {
  const argv = process.argv.slice(2)
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === `--${name}` && argv[i + 1] !== undefined) return argv[i + 1]
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3)
  }
  return process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`]
}

// CPU accounting (Linux /proc, PostgreSQL on the same host): CPU seconds of this process, of the
// PostgreSQL processes working for this run (the backends of the bench database and the WAL
// writer, checkpointer and background writer), and of the whole machine — so a figure says
// whether a phase was bound by the client, by the server, or by someone else on the machine.
export type Cpu = { node: number; postgres: number; machine: number }
export type CpuSnapshot = Cpu & { wall: number; pids: Map<number, number> }

const TICK = 100 // USER_HZ
let pgPids: (() => Promise<number[]>) | null = null

// pids: a query for the PostgreSQL pids to count (see database.ts); unset, PostgreSQL is not counted.
export function countPostgresCpu(pids: () => Promise<number[]>): void {
  pgPids = pids
}

// Two fields of /proc/<pid>/stat, counted after the command name, in seconds.
function statSeconds(pid: number, first: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(f[first]) + Number(f[first + 1])) / TICK
  } catch {
    return null
  }
}

// utime + stime: the process's own CPU.
export const processCpu = (pid: number): number | null => statSeconds(pid, 11)
// cutime + cstime: the CPU of its children that have ended and been waited for (a wrk run).
export const endedChildrenCpu = (pid: number): number | null => statSeconds(pid, 13)

export function machineBusy(): number {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    return (user + nice + system + irq + softirq + steal) / TICK
  } catch {
    return NaN
  }
}

export async function cpuSnapshot(): Promise<CpuSnapshot> {
  const pids = new Map<number, number>()
  if (pgPids) {
    for (const pid of await pgPids().catch(() => [])) {
      const t = processCpu(pid)
      if (t !== null) pids.set(pid, t)
    }
  }
  const u = process.cpuUsage()
  return {
    node: (u.user + u.system) / 1e6,
    postgres: NaN,
    machine: machineBusy(),
    wall: performance.now() / 1000,
    pids,
  }
}

export async function cpuSince(start: CpuSnapshot): Promise<Cpu & { wall: number }> {
  const now = await cpuSnapshot()
  let postgres = pgPids ? 0 : NaN
  // A backend that started during the phase counts whole; one that ended is lost (pools keep theirs).
  for (const [pid, t] of now.pids) postgres += t - (start.pids.get(pid) ?? 0)
  return { node: now.node - start.node, postgres, machine: now.machine - start.machine, wall: now.wall - start.wall }
}

// "1.2 / 0.8 / 0.1": cores busy on average — this process / its PostgreSQL / everything else.
export function coresUsed(cpu: Cpu | undefined, seconds: number): string {
  if (!cpu) return '-'
  const f = (x: number) => fmt(x / seconds, 2)
  return `${f(cpu.node)} / ${f(cpu.postgres)} / ${f(Math.max(0, cpu.machine - cpu.node - cpu.postgres))}`
}

export type Run = { latencies: number[]; seconds: number; cpu: Cpu }

export function mergeRuns(runs: Run[]): Run {
  return {
    latencies: runs.flatMap((r) => r.latencies),
    seconds: runs.reduce((a, r) => a + r.seconds, 0),
    cpu: {
      node: runs.reduce((a, r) => a + r.cpu.node, 0),
      postgres: runs.reduce((a, r) => a + r.cpu.postgres, 0),
      machine: runs.reduce((a, r) => a + r.cpu.machine, 0),
    },
  }
}

// Measures several variants in alternating rounds (A B C, C B A, A B C...) so that drift on a
// shared machine (WAL flush latency, checkpoints, a neighbour) lands on every variant alike;
// each variant's rounds are merged into one run.
export async function interleaved<V>(
  variants: V[],
  rounds: number,
  slot: (variant: V, index: number, round: number) => Promise<Run>,
  beforeSlot?: () => Promise<void>,
): Promise<Run[]> {
  const runs: Run[][] = variants.map(() => [])
  for (let round = 0; round < rounds; round++) {
    const order = variants.map((_, i) => i)
    if (round % 2 === 1) order.reverse()
    for (const i of order) {
      await beforeSlot?.()
      runs[i]!.push(await slot(variants[i]!, i, round))
    }
  }
  return runs.map(mergeRuns)
}

// How busy the machine is before the run starts (other processes: tests, other benchmarks).
// Printed in the header so a figure taken on a loaded machine says so.
export async function machineLoad(seconds = 2): Promise<string> {
  const m0 = machineBusy()
  const u0 = process.cpuUsage()
  await new Promise((r) => setTimeout(r, seconds * 1000))
  const own = (process.cpuUsage().user - u0.user + process.cpuUsage().system - u0.system) / 1e6
  const busy = Math.max(0, (machineBusy() - m0 - own) / seconds)
  const cores = cpus().length
  return `machine busy before the run: ${fmt(busy, 2)} of ${cores} cores used by other processes${busy > 0.3 ? ' — figures below are depressed by that load' : ''}`
}
