import { hash, verify } from '@node-rs/argon2'
import { base62 } from '../ids.ts'

// Argon2id with the library's OWASP-level defaults (19 MiB, 2 passes), salted per hash.
// 2 is Algorithm.Argon2id (a const enum, which this project's module settings cannot import).
const OPTIONS = { algorithm: 2 } as const

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS)

// A hash of a password nobody knows, verified when the email is unknown, so a wrong email and a
// wrong password take the same time.
let decoy: Promise<string> | null = null

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    decoy ??= hashPassword(base62(32))
    await verify(await decoy, password).catch(() => false)
    return false
  }
  try {
    return await verify(storedHash, password)
  } catch {
    return false
  }
}

// 24 base62 characters in groups of 6 (about 143 bits): easy to copy, impossible to guess.
export function generatePassword(): string {
  const raw = base62(24)
  return raw.match(/.{6}/g)!.join('-')
}
