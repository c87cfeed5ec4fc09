import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { loginPath, readMerchantSession } from '../auth/merchant-session.ts'
import type { Services } from '../services.ts'
import type { MerchantSessions } from './authorize-routes.ts'

// The merchant's sign-in (src/auth/merchant-session.ts) as the authorization page sees it. The
// consent form's CSRF token is an HMAC of the session's hash: only a page rendered for this very
// session carries it, and signing out or in again invalidates it.
export function merchantSessions(services: Services): MerchantSessions {
  const deps = { db: services.db, baseUrl: services.baseUrl, clock: services.clock }
  const tokenFor = (sessionHash: string) =>
    createHmac('sha256', `oauth-consent-csrf:${services.signingSecret}`).update(sessionHash).digest('base64url')
  const session = (request: FastifyRequest) => readMerchantSession(request, deps)
  return {
    current: async (request) => {
      const s = await session(request)
      return s ? { merchantId: s.merchantId, label: s.email } : null
    },
    csrf: {
      field: '_csrf',
      token: async (request) => {
        const s = await session(request)
        return s ? tokenFor(s.sessionHash) : ''
      },
      verify: async (request, value) => {
        const s = await session(request)
        if (!s || value === undefined) return false
        const a = Buffer.from(value)
        const b = Buffer.from(tokenFor(s.sessionHash))
        return a.length === b.length && timingSafeEqual(a, b)
      },
    },
    loginPath: loginPath(null),
  }
}
