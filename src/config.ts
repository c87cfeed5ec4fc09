import ipaddr from 'ipaddr.js'
import { z } from 'zod'

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])
const validProxy = (entry: string) => {
  if (PROXY_NAMES.has(entry)) return true
  if (!entry.includes('/')) return ipaddr.isValid(entry)
  try {
    ipaddr.parseCIDR(entry)
    return true
  } catch {
    return false
  }
}

const validPostgresUrl = (entry: string) => {
  try {
    const url = new URL(entry)
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== ''
  } catch {
    return false
  }
}

// Every setting the service reads, in one place, validated once at start-up.
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  BASE_URL: z.url().optional(),
  DATABASE_URL: z.string().min(1).optional(),
  // Streaming replicas of DATABASE_URL for reads, comma-separated (src/db/replicas.ts).
  DATABASE_REPLICA_URLS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((u) => u.trim())
        .filter((u) => u !== ''),
    )
    .refine((list) => list.every(validPostgresUrl), {
      message: 'each entry must be a postgres:// or postgresql:// URL with a host',
    }),
  DATA_DIR: z.string().min(1).default('./.data'),
  REDIS_URL: z.string().min(1).optional(),
  RATE_LIMIT_BACKEND: z.enum(['memory', 'redis']).default('memory'),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(120),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SIGNING_SECRET: z.string().min(32).optional(),
  OAUTH_DYNAMIC_REGISTRATION: z.enum(['on', 'off']).default('on'),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(86400).default(3600),
  OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().positive().default(20),
  // Hosts whose client metadata documents may be fetched even at private addresses (tests only).
  OAUTH_CIMD_ALLOW_HOSTS: z.string().default(''),
  // An extra CA certificate (PEM file) trusted when fetching metadata documents (tests, internal PKI).
  OAUTH_CIMD_CA_FILE: z.string().min(1).optional(),
  METRICS_TOKEN: z.string().min(16).optional(),
  // The reverse proxies whose X-Forwarded-For is believed: addresses or CIDR ranges, comma-separated
  // (proxy-addr's names loopback, linklocal and uniquelocal too). Unset: nobody's, the peer is the client.
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
    )
    .refine((list) => list.every(validProxy), {
      message: 'each entry must be an IP address, a CIDR range, loopback, linklocal or uniquelocal',
    }),
  // How long a CDN in front may serve a live storefront page without asking (s-maxage; as long
  // again stale while it revalidates). 0: shared caches revalidate every time.
  STOREFRONT_SHARED_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(86400).default(10),
})

export type Config = {
  env: 'development' | 'production' | 'test'
  port: number
  host: string
  baseUrl: string
  databaseUrl: string | undefined
  // Streaming replicas of databaseUrl that serve reads (empty: every read on the primary).
  databaseReplicaUrls: string[]
  dataDir: string
  redisUrl: string | undefined
  rateLimit: { backend: 'memory' | 'redis'; max: number; windowSeconds: number }
  logLevel: string
  signingSecret: string | undefined
  oauth: {
    dynamicRegistration: boolean
    accessTokenTtlSeconds: number
    registrationsPerHour: number
    metadataDocumentAllowHosts: string[]
    metadataDocumentCaFile: string | undefined
  }
  // Lets non-loopback clients read /metrics (Authorization: Bearer <token>).
  metricsToken: string | undefined
  // Proxies whose X-Forwarded-For gives the client address (empty: none).
  trustProxy: string[]
  storefront: { sharedMaxAgeSeconds: number }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`)
  }
  const e = parsed.data
  if (e.RATE_LIMIT_BACKEND === 'redis' && !e.REDIS_URL) {
    throw new Error('Invalid configuration:\n  REDIS_URL is required when RATE_LIMIT_BACKEND=redis')
  }
  if (e.DATABASE_REPLICA_URLS.length > 0 && !e.DATABASE_URL) {
    throw new Error(
      'Invalid configuration:\n  DATABASE_REPLICA_URLS needs DATABASE_URL: the embedded PGlite database has no replicas',
    )
  }
  if (e.NODE_ENV === 'production' && !e.SIGNING_SECRET) {
    throw new Error(
      'Invalid configuration:\n  SIGNING_SECRET (at least 32 characters) is required when NODE_ENV=production',
    )
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    baseUrl: (e.BASE_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    databaseReplicaUrls: e.DATABASE_REPLICA_URLS,
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    rateLimit: { backend: e.RATE_LIMIT_BACKEND, max: e.RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS },
    logLevel: e.LOG_LEVEL,
    signingSecret: e.SIGNING_SECRET,
    oauth: {
      dynamicRegistration: e.OAUTH_DYNAMIC_REGISTRATION === 'on',
      accessTokenTtlSeconds: e.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      registrationsPerHour: e.OAUTH_REGISTRATIONS_PER_HOUR,
      metadataDocumentAllowHosts: e.OAUTH_CIMD_ALLOW_HOSTS.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== ''),
      metadataDocumentCaFile: e.OAUTH_CIMD_CA_FILE,
    },
    metricsToken: e.METRICS_TOKEN,
    trustProxy: e.TRUST_PROXY,
    storefront: { sharedMaxAgeSeconds: e.STOREFRONT_SHARED_MAX_AGE_SECONDS },
  }
}
