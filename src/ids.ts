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
