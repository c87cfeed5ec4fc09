import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { mcpSitePlugin } from '../../src/mcp/plugin.ts'
import type { MerchantSessions } from '../../src/oauth/authorize-routes.ts'
import { oauthSitePluginWith } from '../../src/oauth/plugin.ts'
import { storefrontPlugin } from '../../src/render/plugin.ts'

// A test double of the merchant's sign-in, for the OAuth flows until merchant sessions exist:
// a cookie naming the merchant, signed so the tests cannot forge one by accident; CSRF tokens
// are an HMAC of the merchant id.
const SECRET = 'test-merchant-session-secret'
const sign = (value: string) => createHmac('sha256', SECRET).update(value).digest('base64url')
export const COOKIE = 'test_merchant'
export const sessionCookie = (merchantId: string) => `${merchantId}.${sign(merchantId)}`

function merchantOf(request: FastifyRequest): string | null {
  const raw = (request.headers.cookie ?? '').split(/;\s*/).find((c) => c.startsWith(`${COOKIE}=`))?.slice(COOKIE.length + 1)
  if (!raw) return null
  const dot = raw.lastIndexOf('.')
  const id = raw.slice(0, dot)
  const mac = Buffer.from(raw.slice(dot + 1))
  const expected = Buffer.from(sign(id))
  return mac.length === expected.length && timingSafeEqual(mac, expected) ? id : null
}

export const testSessions = (): MerchantSessions => ({
  current: async (request) => {
    const id = merchantOf(request)
    return id ? { merchantId: id, label: `${id}@demo.test` } : null
  },
  csrf: {
    field: '_csrf',
    token: async (request) => sign(`csrf:${merchantOf(request)}`),
    verify: async (request, value) => value !== undefined && value === sign(`csrf:${merchantOf(request)}`),
  },
  loginPath: '/dashboard/login',
})

export const signedInPlugins = { sitePlugins: [mcpSitePlugin, oauthSitePluginWith(() => testSessions()), storefrontPlugin] }
