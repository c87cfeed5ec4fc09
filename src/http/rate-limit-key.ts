import type { FastifyRequest } from 'fastify'
import { bearerToken } from '../auth/authenticate.ts'
import { hashCredential } from '../auth/credentials.ts'

// The hash of the presented credential identifies it without a database read; no credential
// means the client address. Either way every request, refused ones included, is counted.
export function rateLimitKey(request: FastifyRequest): string {
  const token = bearerToken(request.headers.authorization)
  return token ? `cred:${hashCredential(token)}` : `ip:${request.ip}`
}
