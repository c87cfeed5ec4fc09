import { Redis } from 'ioredis'

// The Redis client of the service (rate-limit counters, /readyz). Commands fail at once while
// disconnected (no offline queue) and after 2 s without an answer, so a Redis outage never holds
// a request long: the rate limit then counts on this instance (src/http/rate-limit-store.ts).
// Shorter limits fire spuriously when a busy event loop handles the timer before the reply.
export function openRedis(url: string, onError: (error: Error) => void = () => {}): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 2000 })
  redis.on('error', onError)
  return redis
}

export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect())
  else redis.disconnect()
}
