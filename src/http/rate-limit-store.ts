import { createRequire } from 'node:module'
import type { Redis } from 'ioredis'
import { rateLimitBackendErrors } from '../metrics/registry.ts'

// The API rate limit's store with RATE_LIMIT_BACKEND=redis: counters shared by every instance in
// Redis; while Redis is down or slow (ioredis fails a command after its commandTimeout), each
// instance counts on its own (a client gets at most the limit per instance). Neither refusing
// every request (one cache taking the whole API down) nor dropping the limit altogether.
// Login throttling does not use this store: it lives in PostgreSQL and never fails open.

const require = createRequire(import.meta.url)
type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void
type Store = {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void
  read?(key: string, cb: Callback, timeWindow: number, max: number): void
  child(routeOptions: unknown): Store
}
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key?: string,
) => Store
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => Store

type Params = { continueExceeding?: boolean | undefined; exponentialBackoff?: boolean | undefined }

export function redisWithLocalFallback(redis: Redis, nameSpace: string, onFallback: (error: Error) => void) {
  return class RedisWithLocalFallbackStore {
    private readonly shared: Store
    private readonly local: Store
    constructor(params: Params) {
      this.shared = new RedisStore(
        params.continueExceeding === true,
        params.exponentialBackoff === true,
        redis,
        nameSpace,
      )
      this.local = new LocalStore(params.continueExceeding === true, params.exponentialBackoff === true)
    }
    private pick(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number) {
      const local = () =>
        method === 'incr' ? this.local.incr(key, cb, timeWindow, max) : this.local.read?.(key, cb, timeWindow, max)
      if (redis.status !== 'ready') {
        rateLimitBackendErrors.inc()
        onFallback(new Error(`redis ${redis.status}`))
        return local()
      }
      const done: Callback = (error, result) => {
        if (!error) return cb(null, result ?? undefined)
        rateLimitBackendErrors.inc()
        onFallback(error)
        local()
      }
      if (method === 'incr') this.shared.incr(key, done, timeWindow, max)
      else this.shared.read?.(key, done, timeWindow, max)
    }
    incr(key: string, cb: Callback, timeWindow: number, max: number) {
      this.pick('incr', key, cb, timeWindow, max)
    }
    read(key: string, cb: Callback, timeWindow: number, max: number) {
      this.pick('read', key, cb, timeWindow, max)
    }
    child(): this {
      return this
    }
  }
}
