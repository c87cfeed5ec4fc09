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
export type PostgresChangeFeedOptions = {
  connectionString: string
  heartbeatMs?: number
  healthyWindowMs?: number
  heartbeatTimeoutMs?: number
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

  const healthy = () => listening && Date.now() - lastAnsweredSentAt < healthyWindowMs

  function drop(which: pg.Client, error?: unknown) {
    if (which !== client) return
    client = null
    pid = null
    const wasListening = listening
    listening = false
    changeFeedHealthy.set(0)
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
    let timer: NodeJS.Timeout | undefined
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
      heartbeatRunning = false
    }
  }

  const interval = setInterval(() => void heartbeat(), heartbeatMs)
  interval.unref()
  void connect()

  return {
    kind: 'postgres',
    healthy,
    subscribe: (channel, handler) => subs.add(channel, handler),
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
      if (c) await c.end().catch(() => {})
    },
  }
}
