import pg from 'pg'
import { changeFeedFlushes, changeFeedHealthy } from '../metrics/registry.ts'
import { CHANNELS, subscribers, type ChangeFeed } from './change-feed.ts'

// One dedicated connection (outside the pool) LISTENs on the service's channels.
//
// Staleness bound. A heartbeat (`select 1`) runs every `heartbeatMs` (250 ms). PostgreSQL sends a
// listening session its pending notifications before it answers a query, so when a heartbeat
// sent at time S is answered, every notification committed before S has been delivered. The
// feed counts as healthy only while the last answered heartbeat was sent less than
// `healthyWindowMs` (750 ms) ago: a change committed at time R is therefore either already
// applied to the caches or R > S > now − 750 ms. Hence a revocation is effective on every instance
// within 750 ms of its commit (plus the time to run the eviction, microseconds), whatever happens
// to the connection. A heartbeat that gets no answer within `heartbeatTimeoutMs`, an error or the
// end of the connection drops it; the feed reconnects (250 ms, backing off to 2 s), LISTENs
// again, and then sends every subscriber 'flush' (notifications may have been missed meanwhile).
//
// Heartbeats on demand. A heartbeat is a transaction on the server; an idle server would send
// four a second for nothing. So heartbeats run only while something asks: a cache calling
// `healthy()` or a command awaiting `settled()` in the last `idleAfterMs` (60 s). After a quiet
// spell the first request finds the feed unhealthy (its last answered heartbeat is old), reads
// PostgreSQL as every cache does then, and starts the heartbeats again: fail closed, never stale.
//
// settled(): a heartbeat sent after the call is answered (so every notification committed before
// the call has been delivered), or `healthyWindowMs` passed since it was sent (then the feed is
// unhealthy until a later heartbeat is answered, which implies this one was), or the connection
// was lost (the feed flushes every cache before it is healthy again).
export type PostgresChangeFeedOptions = {
  connectionString: string
  heartbeatMs?: number
  healthyWindowMs?: number
  heartbeatTimeoutMs?: number
  idleAfterMs?: number
  onState?: (state: 'listening' | 'lost', error?: unknown) => void
}

export type PostgresChangeFeed = ChangeFeed & {
  /** The listening session's backend pid (null while not connected): tests terminate it. */
  backendPid(): number | null
  /** Resolves once listening (the first time, or again after a loss). */
  ready(): Promise<void>
}

export function postgresChangeFeed(options: PostgresChangeFeedOptions): PostgresChangeFeed {
  const heartbeatMs = options.heartbeatMs ?? 250
  const healthyWindowMs = options.healthyWindowMs ?? 750
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 2000
  const idleAfterMs = options.idleAfterMs ?? 60_000
  const subs = subscribers()
  let client: pg.Client | null = null
  let listening = false
  let pid: number | null = null
  let lastAnsweredSentAt = 0
  let heartbeatRunning = false
  let closed = false
  let retryMs = 250
  let reconnectTimer: NodeJS.Timeout | null = null
  let waiters: (() => void)[] = []
  let lastDemand = Date.now()
  // settled() callers waiting for the next heartbeat to be sent, and for the one in flight.
  let settleNext: (() => void)[] = []
  let settleInFlight: (() => void)[] = []
  const release = (list: (() => void)[]) => {
    for (const resolve of list) resolve()
  }

  const healthy = () => {
    const now = Date.now()
    lastDemand = now
    const fresh = listening && now - lastAnsweredSentAt < healthyWindowMs
    // Back from a quiet spell: this request reads PostgreSQL, the heartbeats start again.
    if (!fresh && listening && !heartbeatRunning) void heartbeat()
    return fresh
  }

  function drop(which: pg.Client, error?: unknown) {
    if (which !== client) return
    client = null
    pid = null
    const wasListening = listening
    listening = false
    changeFeedHealthy.set(0)
    release(settleInFlight.splice(0))
    release(settleNext.splice(0))
    if (wasListening)
      options.onState?.('lost', error)
      // A dead peer may never answer `end`; the socket is destroyed instead.
    ;(which as unknown as { connection?: { stream?: { destroy?: () => void } } }).connection?.stream?.destroy?.()
    which.end().catch(() => {})
    scheduleReconnect()
  }

  function scheduleReconnect() {
    if (closed || reconnectTimer) return
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null
      void connect()
    }, retryMs)
    retryMs = Math.min(retryMs * 2, 2000)
  }

  async function connect() {
    if (closed || client) return
    const c = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
      connectionTimeoutMillis: 2000,
    })
    client = c
    c.on('error', (error) => drop(c, error))
    c.on('end', () => drop(c))
    c.on('notification', (message) => {
      if (c === client && message.payload !== undefined) subs.deliver(message.channel, { payload: message.payload })
    })
    try {
      await c.connect()
      const sentAt = Date.now()
      for (const channel of Object.values(CHANNELS)) await c.query(`listen ${channel}`)
      const { rows } = await c.query<{ pid: number }>('select pg_backend_pid() as pid')
      if (c !== client || closed) return
      pid = rows[0]!.pid
      // Whatever changed while not listening is unknown: every cache starts over.
      subs.flushAll()
      changeFeedFlushes.inc()
      lastAnsweredSentAt = sentAt
      listening = true
      retryMs = 250
      changeFeedHealthy.set(1)
      options.onState?.('listening')
      const ready = waiters
      waiters = []
      for (const resolve of ready) resolve()
    } catch (error) {
      drop(c, error)
    }
  }

  async function heartbeat() {
    const c = client
    if (!c || !listening || heartbeatRunning) return
    heartbeatRunning = true
    const sentAt = Date.now()
    const settling = (settleInFlight = settleNext)
    settleNext = []
    let timer: NodeJS.Timeout | undefined
    // Past the healthy window an unanswered heartbeat leaves the feed unhealthy: settled() may return.
    const settleTimer = setTimeout(() => release(settling.splice(0)), healthyWindowMs)
    try {
      await Promise.race([
        c.query('select 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('change feed heartbeat timed out')), heartbeatTimeoutMs)
        }),
      ])
      if (c === client) lastAnsweredSentAt = sentAt
    } catch (error) {
      drop(c, error)
    } finally {
      clearTimeout(timer)
      clearTimeout(settleTimer)
      release(settling.splice(0))
      heartbeatRunning = false
    }
    if (settleNext.length > 0) void heartbeat()
  }

  const tick = () => {
    if (Date.now() - lastDemand < idleAfterMs || settleNext.length > 0) void heartbeat()
  }
  const interval = setInterval(tick, heartbeatMs)
  interval.unref()
  void connect()

  return {
    kind: 'postgres',
    healthy,
    subscribe: (channel, handler) => subs.add(channel, handler),
    settled() {
      if (!listening || closed) return Promise.resolve()
      lastDemand = Date.now()
      return new Promise<void>((resolve) => {
        settleNext.push(resolve)
        if (!heartbeatRunning) void heartbeat()
      })
    },
    backendPid: () => pid,
    ready: () => (listening ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    async close() {
      if (closed) return
      closed = true
      clearInterval(interval)
      if (reconnectTimer) clearTimeout(reconnectTimer)
      listening = false
      changeFeedHealthy.set(0)
      const c = client
      client = null
      for (const resolve of waiters) resolve()
      waiters = []
      release(settleInFlight.splice(0))
      release(settleNext.splice(0))
      if (c) await c.end().catch(() => {})
    },
  }
}
