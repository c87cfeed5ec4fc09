import t from 'tap'
import { parseLsn, PRIMARY, ReplicaRouting } from '../../src/db/replica-routing.ts'

// The routing rule of src/db/replica-routing.ts, on a clock the test moves: where a read of a
// store goes, given the WAL positions the polls reported and the writes marked.

function setup(names = ['r1']) {
  let now = 100_000
  const routing = new ReplicaRouting(names, { now: () => now })
  const tick = (ms: number) => (now += ms)
  // One poll round: the primary at `primary`, each replica at its replay position (null: failed).
  const poll = (primary: bigint, ...replays: (bigint | null)[]) => {
    const started = routing.primaryPollStarts()
    routing.primarySampled(started, primary)
    for (const [i, lsn] of replays.entries()) routing.replicaSampled(i, lsn)
  }
  return { routing, tick, poll }
}

t.test('WAL positions are read as PostgreSQL prints them', async (t) => {
  t.equal(parseLsn('0/0'), 0n)
  t.equal(parseLsn('16/B374D848'), 0x16b374d848n)
  t.ok(parseLsn('1/0') > parseLsn('0/FFFFFFFF'), 'the high part counts first')
  t.throws(() => parseLsn('B374D848'), /not a WAL position/)
})

t.test('a caught-up replica takes reads; without replicas, a healthy feed or polls, the primary', async (t) => {
  t.equal(new ReplicaRouting([]).choose('st_a', true), PRIMARY, 'no replicas')
  const { routing, poll, tick } = setup()
  t.equal(routing.choose('st_a', true), PRIMARY, 'nothing polled yet')
  poll(100n, 100n)
  t.equal(routing.choose('st_a', true), 0)
  t.equal(routing.choose('st_a', false), PRIMARY, 'feed unhealthy: a change may not have been heard of')
  tick(1500)
  t.equal(routing.choose('st_a', true), PRIMARY, 'no poll for longer than 1 s: what the replicas have is unknown')
})

t.test("a store's write sends its reads to the primary until a replica has replayed past it", async (t) => {
  const { routing, poll, tick } = setup()
  poll(100n, 100n)
  // A poll that started before the write does not know where the write is.
  const before = routing.primaryPollStarts()
  routing.mark('st_a')
  routing.primarySampled(before, 150n)
  t.equal(routing.choose('st_a', true), PRIMARY, 'pending: no position sampled after the write yet')
  t.equal(routing.choose('st_b', true), 0, 'other stores keep reading the replica')
  tick(150)
  poll(200n, 150n)
  t.equal(routing.choose('st_a', true), PRIMARY, 'the replica has replayed 150, the write is before 200')
  tick(150)
  poll(200n, 199n)
  t.equal(routing.choose('st_a', true), PRIMARY, 'one short is short')
  tick(150)
  poll(200n, 200n)
  t.equal(routing.choose('st_a', true), 0, 'replayed past the write: the replica again')
})

t.test('a mark for every store (a rebuild, a feed that listens again) holds every read', async (t) => {
  const { routing, poll, tick } = setup()
  poll(100n, 100n)
  routing.markAll()
  t.equal(routing.choose('st_a', true), PRIMARY)
  t.equal(routing.choose('st_b', true), PRIMARY)
  tick(150)
  poll(120n, 110n)
  t.equal(routing.choose('st_b', true), PRIMARY)
  tick(150)
  poll(120n, 120n)
  t.equal(routing.choose('st_b', true), 0)
})

t.test('a replica more than 2 s behind is skipped, and its lag reported', async (t) => {
  const { routing, poll, tick } = setup()
  poll(100n, 100n)
  for (let i = 1; i <= 10; i++) {
    tick(250)
    // The primary moves on; the replica is paused at 100.
    poll(100n + BigInt(i), 100n)
  }
  const [state] = routing.states()
  t.equal(state!.lagSeconds, 2.25, 'short of the first position the primary was seen past 100 at, 2.25 s ago')
  t.equal(state!.state, 'behind')
  t.equal(routing.choose('st_quiet', true), PRIMARY, 'even for a store nobody wrote to')
  tick(250)
  poll(111n, 111n)
  t.equal(routing.states()[0]!.lagSeconds, 0)
  t.equal(routing.states()[0]!.state, 'ok')
  t.equal(routing.choose('st_quiet', true), 0, 'caught up: reads again')
})

t.test('a replica that is down, or was reported failing by a read, is skipped', async (t) => {
  const { routing, poll, tick } = setup(['r1', 'r2'])
  poll(100n, 100n, 100n)
  routing.replicaFailed(0)
  t.same([routing.choose(null, true), routing.choose(null, true)], [1, 1], 'only r2')
  tick(150)
  poll(100n, null, 100n)
  t.equal(routing.states()[0]!.state, 'down')
  t.equal(routing.choose(null, true), 1)
  tick(150)
  poll(100n, null, null)
  t.equal(routing.choose(null, true), PRIMARY, 'both down: the primary, no error')
  tick(150)
  poll(100n, 100n, 100n)
  t.same([routing.choose(null, true), routing.choose(null, true)].sort(), [0, 1], 'back: they take turns')
})

t.test('after a pause in the polls a replica must be seen at the new position before it is trusted', async (t) => {
  const { routing, poll, tick } = setup()
  poll(100n, 100n)
  t.equal(routing.choose(null, true), 0)
  // An idle minute: nothing polled. Meanwhile others wrote; the replica stopped replaying.
  tick(60_000)
  poll(900n, 100n)
  t.equal(routing.states()[0]!.state, 'behind', 'short of every position sampled since: lag unknown')
  t.equal(routing.choose(null, true), PRIMARY)
  tick(150)
  poll(900n, 900n)
  t.equal(routing.choose(null, true), 0)
})

t.test('marks are forgotten once every replica passed them or they are older than the lag limit', async (t) => {
  const { routing, poll, tick } = setup(['r1', 'r2'])
  poll(100n, 100n, 100n)
  routing.mark('st_a')
  tick(150)
  poll(200n, 200n, 150n)
  t.equal(routing.choose('st_a', true), 0, 'r1 has it, r2 does not')
  t.equal(routing.choose('st_a', true), 0, 'still only r1')
  // r2 stays at 150 while the primary is quiet: its lag is measured from the sample at 200.
  tick(2100)
  poll(200n, 200n, 150n)
  t.equal(routing.states()[1]!.state, 'behind', 'r2 is short of a position sampled 2.1 s ago')
  t.equal(routing.choose('st_a', true), 0)
})
