import { createHash, timingSafeEqual } from 'node:crypto'

// RFC 7636: a verifier is 43 to 128 unreserved characters; S256 is the only method accepted.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/

export const validChallenge = (challenge: string) => CHALLENGE.test(challenge)

export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'))
  const expected = Buffer.from(challenge)
  return computed.length === expected.length && timingSafeEqual(computed, expected)
}
