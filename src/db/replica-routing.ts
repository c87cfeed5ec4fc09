// Which database a read goes to: the primary or one of the streaming replicas
// (docs/decisions/0162-read-replicas-by-wal-position.md). Pure bookkeeping, no I/O: the poller
// (src/db/replicas.ts) reports WAL positions, writers and the change feed report marks, and
// `choose` answers from what is known, so a read costs no statement to route.
//
// The rule. A store is *marked* when this instance commits a write to it or hears of one through
// the change feed. A mark is pending until the primary's WAL insert position is sampled by a poll
// that started after the mark: that position is at or past the write's commit record, and becomes
// the store's floor. A read of the store goes to a replica only if
//   - the feed is healthy (as for the warm caches: a change not yet heard of is at most its
//     bound old) and the primary was sampled within `freshWithinMs`,
//   - no mark of the store, nor an all-stores mark, is pending,
//   - the replica answered its last poll within `freshWithinMs`, is at most `maxLagMs` behind,
//     and has replayed past the store's and the all-stores floors;
// otherwise it goes to the primary. Replicas that qualify take turns.
//
// Lag is measured in time from the primary's samples: a replica whose replay position is short
// of the primary's position sampled at time T lacks WAL that existed at T, so it is at least
// now − T behind (the earliest such T is the figure reported; 0 when it has every sampled
// position). Short of even the oldest kept sample (`historyMs`, or since the polls started after
// an idle spell) its lag is unknown: reported from that sample, never chosen.

export type Lsn = bigint

// '16/B374D848' → 0x16B374D848n.
export function parseLsn(text: string): Lsn {
  const [hi, lo] = text.split('/')
  if (hi === undefined || lo === undefined || !/^[0-9A-Fa-f]{1,8}$/.test(hi) || !/^[0-9A-Fa-f]{1,8}$/.test(lo))
    throw new Error(`not a WAL position: ${text}`)
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`)
}

export const PRIMARY = -1

export type ReplicaState = {
  name: string
  up: boolean
  /** Seconds behind the primary (at least); null when nothing is known yet. */
  lagSeconds: number | null
  /**
   * ok: may take reads; behind: past the lag limit (or lag unknown); down: its last poll failed or
   * is old; idle: not polled, no read asked in the last minute (src/db/replicas.ts).
   */
  state: 'ok' | 'behind' | 'down' | 'idle'
}

type Mark = { seq: number; floor: Lsn | null; floorAt: number }
type Sample = { at: number; lsn: Lsn }
type Replica = {
  name: string
  replay: Lsn | null
  answeredAt: number
  up: boolean
  lagMs: number | null
  known: boolean
}

export type RoutingOptions = {
  maxLagMs?: number
  freshWithinMs?: number
  historyMs?: number
  now?: () => number
}

const ALL = '*'

export class ReplicaRouting {
  readonly maxLagMs: number
  readonly freshWithinMs: number
  readonly historyMs: number
  private readonly now: () => number
  private readonly replicas: Replica[]
  private readonly marks = new Map<string, Mark>()
  private history: Sample[] = []
  private lastPrimaryAt = 0
  private seq = 0
  private turn = 0

  constructor(names: readonly string[], options: RoutingOptions = {}) {
    this.maxLagMs = options.maxLagMs ?? 2000
    this.freshWithinMs = options.freshWithinMs ?? 1000
    this.historyMs = options.historyMs ?? 60_000
    this.now = options.now ?? Date.now
    this.replicas = names.map((name) => ({ name, replay: null, answeredAt: 0, up: false, lagMs: null, known: false }))
  }

  get size(): number {
    return this.replicas.length
  }

  /** A write to the store committed (or the feed told of one): its reads wait for a replica to pass it. */
  mark(storeId: string): void {
    this.marks.set(storeId, { seq: ++this.seq, floor: null, floorAt: 0 })
  }

  /** Every store at once: a projection rebuild's swap, or a feed that may have missed notifications. */
  markAll(): void {
    this.mark(ALL)
  }

  /** Taken when a poll of the primary starts; pass it back with the position that poll read. */
  primaryPollStarts(): number {
    return this.seq
  }

  primarySampled(startedAtSeq: number, lsn: Lsn): void {
    const at = this.now()
    // After a pause in the polls (an idle spell) what happened meanwhile is unknown: start over.
    if (this.lastPrimaryAt < at - this.freshWithinMs) this.history = []
    this.lastPrimaryAt = at
    // Only positions that moved: a sample keeps the earliest time the primary was at it.
    const last = this.history.at(-1)
    if (!last || lsn > last.lsn) this.history.push({ at, lsn })
    // The oldest kept sample is the newest one at least `historyMs` old.
    while (this.history.length > 1 && this.history[1]!.at <= at - this.historyMs) this.history.shift()
    for (const [key, mark] of this.marks) {
      if (mark.floor === null) {
        if (mark.seq <= startedAtSeq) {
          mark.floor = lsn
          mark.floorAt = at
        }
      } else if (
        // A floor every replica has replayed, or one sampled more than `maxLagMs` ago (a replica
        // short of it lacks that sample, so its lag is past the limit anyway), says nothing more.
        mark.floorAt < at - this.maxLagMs ||
        this.replicas.every((r) => r.replay !== null && r.replay >= mark.floor!)
      )
        this.marks.delete(key)
    }
    for (const r of this.replicas) this.measure(r, at)
  }

  /** A poll of replica `index` answered with its replay position, or failed (null). */
  replicaSampled(index: number, replay: Lsn | null): void {
    const replica = this.replicas[index]!
    if (replay === null) {
      replica.up = false
      return
    }
    replica.up = true
    replica.answeredAt = this.now()
    // Replay positions only move forward (a restarted replica starts from its last restart point,
    // never before what it had replayed).
    if (replica.replay === null || replay > replica.replay) replica.replay = replay
    this.measure(replica, replica.answeredAt)
  }

  /** A read on the replica failed to connect: skip it until its next poll answers. */
  replicaFailed(index: number): void {
    this.replicas[index]!.up = false
  }

  /** Where a read of the store goes: PRIMARY (-1) or a replica's index. */
  choose(storeId: string | null, feedHealthy: boolean): number {
    if (this.replicas.length === 0 || !feedHealthy) return PRIMARY
    const now = this.now()
    if (this.lastPrimaryAt < now - this.freshWithinMs) return PRIMARY
    const all = this.marks.get(ALL)
    const own = storeId === null ? undefined : this.marks.get(storeId)
    if ((all && all.floor === null) || (own && own.floor === null)) return PRIMARY
    let floor = 0n
    if (all && all.floor! > floor) floor = all.floor!
    if (own && own.floor! > floor) floor = own.floor!
    const n = this.replicas.length
    for (let k = 0; k < n; k++) {
      const index = (this.turn + k) % n
      const r = this.replicas[index]!
      if (!r.up || r.replay === null || r.answeredAt < now - this.freshWithinMs || r.replay < floor) continue
      if (!r.known || r.lagMs === null || r.lagMs > this.maxLagMs) continue
      this.turn = (index + 1) % n
      return index
    }
    return PRIMARY
  }

  // Measured when a poll answers, not per read: at most one poll interval old when used.
  private measure(r: Replica, now: number): void {
    if (r.replay === null || this.history.length === 0) {
      r.lagMs = null
      r.known = false
      return
    }
    const behind = this.history.find((s) => s.lsn > r.replay!)
    r.lagMs = behind ? Math.max(0, now - behind.at) : 0
    r.known = behind !== this.history[0]
  }

  states(): ReplicaState[] {
    const now = this.now()
    return this.replicas.map((r) => {
      const up = r.up && r.answeredAt >= now - this.freshWithinMs
      const near = r.known && r.lagMs !== null && r.lagMs <= this.maxLagMs
      return {
        name: r.name,
        up,
        lagSeconds: r.lagMs === null ? null : r.lagMs / 1000,
        state: !up ? 'down' : near ? 'ok' : 'behind',
      }
    })
  }
}
