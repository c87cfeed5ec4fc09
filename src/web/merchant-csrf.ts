import cookie from '@fastify/cookie'
import csrf from '@fastify/csrf-protection'
import type { FastifyInstance, FastifyRequest } from 'fastify'

// CSRF protection for the signed-in merchant's pages, one setup for the dashboard and the editor:
// @fastify/csrf-protection with its secret in one cookie both read, so the token a dashboard page
// renders is checked the same way by the editor. Each says where its token travels: the dashboard
// in a form field, the editor in a header that a cross-site form cannot set.
export async function registerMerchantCsrf(
  app: FastifyInstance,
  baseUrl: string,
  token: (request: FastifyRequest) => string | undefined,
): Promise<void> {
  const secure = baseUrl.startsWith('https:')
  await app.register(cookie)
  await app.register(csrf, {
    cookieKey: secure ? '__Host-sf_csrf' : 'sf_csrf',
    cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', secure, signed: false },
    getToken: token,
  })
}
