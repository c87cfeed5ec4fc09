import { randomBytes, randomFillSync } from 'node:crypto'

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
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

export function newEventId(now = Date.now()): string {
  // 48-bit big-endian milliseconds: the high 16 bits and the low 32 apart (bitwise is 32-bit).
  const high = Math.floor(now / 2 ** 32)
  const low = now >>> 0
  const hex = (byte: number) => HEX[byte]!
  const random = () => HEX[pooledByte()]!
  return (
    hex((high >>> 8) & 0xff) + hex(high & 0xff) + hex(low >>> 24) + hex((low >>> 16) & 0xff) + '-' +
    hex((low >>> 8) & 0xff) + hex(low & 0xff) + '-' +
    hex(0x70 | (pooledByte() & 0x0f)) + random() + '-' +
    hex(0x80 | (pooledByte() & 0x3f)) + random() + '-' +
    random() + random() + random() + random() + random() + random()
  )
}
