import { randomBytes, randomFillSync, randomUUID } from 'node:crypto'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

// Base62 from unbiased random bytes (rejection sampling: 62 does not divide 256).
function base62From(length: number, nextByte: () => number): string {
  let out = ''
  while (out.length < length) {
    const byte = nextByte()
    if (byte < 248) out += ALPHABET[byte % 62]
  }
  return out
}

// Secrets (API keys, tokens, client secrets, passwords) get bytes of their own from the CSPRNG,
// held nowhere after.
export function base62(length: number): string {
  const bytes = randomBytes(length * 2)
  let i = 0
  return base62From(length, () => (i < bytes.length ? bytes[i++]! : randomBytes(1)[0]!))
}

// Identifiers are drawn from a pool of CSPRNG bytes refilled 4 KB at a time (as Node does for
// randomUUID); each byte is used once. A randomBytes call per id was 10 µs of every agent batch's
// server CPU in a bench:api profile (2 µs alone); from the pool an id costs well under one.
const pool = Buffer.alloc(4096)
let next = pool.length
const pooledByte = (): number => {
  if (next === pool.length) {
    randomFillSync(pool)
    next = 0
  }
  return pool[next++]!
}

export const newId = (prefix: string): string => `${prefix}_${base62From(16, pooledByte)}`

// Event ids are UUIDv7 (RFC 9562): the time in milliseconds, then 74 random bits. Their unique
// index then grows at its right edge like the log itself, instead of taking each new id on a
// random leaf page: random pages to find, dirty and write after each checkpoint. With v4 ids, an
// agent batch's append took about 8 % longer in PostgreSQL on a log of a million events (pgbench
// on the append alone, 2026-11-26).
export function newEventId(now = Date.now()): string {
  // Node's v4 UUID (from its own pool of random bytes) with its first 48 bits and its version
  // replaced: the variant and the 74 random bits after them are v7's layout already.
  const time = now.toString(16).padStart(12, '0')
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`
}
