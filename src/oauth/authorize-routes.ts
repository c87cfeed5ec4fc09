import cookie from '@fastify/cookie'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { merchantStores } from '../auth/merchant-accounts.ts'
import type { Scope } from '../auth/scopes.ts'
import { approveConsent } from '../operations/oauth/consent.ts'
import { liveGrant } from '../queries/oauth/tokens.ts'
import type { Services } from '../services.ts'
import { checkAuthorizationRequest, redirectWith, type AuthorizationRequest } from './authorization-request.ts'
import { findClient } from './clients.ts'
import { openConsent, sealConsent, type ConsentTransaction } from './consent-transaction.ts'
import { AUTHORIZE_PATH } from './metadata.ts'
import { consentPage, errorPage, errorPageWithLink, formTargetOf, pageSecurityHeaders } from './pages.ts'
import { issueCode } from './tokens.ts'

// What the authorization page needs from the merchant side (sign-in and CSRF live in src/auth).
export type MerchantSessions = {
  current(request: FastifyRequest, reply: FastifyReply): Promise<{ merchantId: string; label: string } | null>
  csrf: {
    field: string
    token(request: FastifyRequest, reply: FastifyReply): Promise<string>
    verify(request: FastifyRequest, value: string | undefined): Promise<boolean>
  }
  loginPath: string
}

function page(reply: FastifyReply, status: number, html: string, formTarget?: string) {
  return reply.code(status).headers(pageSecurityHeaders(formTarget)).type('text/html; charset=utf-8').send(html)
}

const rawQuery = (request: FastifyRequest) => {
  const q = request.url.indexOf('?')
  return q < 0 ? '' : request.url.slice(q + 1)
}

// The merchant's stores (only the app's own, for a dashboard app), in the order of their ids.
async function storesOf(services: Services, merchantId: string, onlyStore: string | null) {
  const owned = await merchantStores(services.db, merchantId)
  return owned.filter((s) => !onlyStore || s.storeId === onlyStore).map((s) => ({ id: s.storeId, name: s.name }))
}

async function grantAndRedirect(
  services: Services,
  reply: FastifyReply,
  status: 302 | 303,
  r: Pick<AuthorizationRequest, 'redirectUri' | 'state' | 'codeChallenge' | 'resource'> & { clientId: string },
  grantId: string,
  storeId: string,
  scopes: string[],
) {
  const code = await issueCode(services, {
    grantId,
    clientId: r.clientId,
    storeId,
    redirectUri: r.redirectUri,
    codeChallenge: r.codeChallenge,
    scopes,
    resource: r.resource,
  })
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .redirect(redirectWith(r.redirectUri, services.baseUrl, { code, state: r.state }), status)
}

export const METADATA_FETCHES_PER_MINUTE = 20

export async function registerAuthorizeRoutes(
  app: FastifyInstance,
  services: Services,
  sessions: MerchantSessions,
): Promise<void> {
  await app.register(async (scope) => {
    // The merchant's session cookie is read here as on the dashboard.
    await scope.register(cookie)
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, new URLSearchParams(body as string)),
    )

    // Authorization requests that would fetch a client metadata document: 20 a minute per client
    // address (shared across instances with the Redis backend), so the service is no free fetcher.
    const fetchLimit = scope.createRateLimit({
      max: METADATA_FETCHES_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request) => `cimd-fetch:${request.ip}`,
    })
    scope.get(AUTHORIZE_PATH, async (request, reply) => {
      const checked = await checkAuthorizationRequest(services, rawQuery(request), async () => {
        const counted = await fetchLimit(request)
        return !counted.isAllowed && counted.isExceeded
          ? { ok: false, retryAfterSeconds: Math.max(1, counted.ttlInSeconds) }
          : { ok: true }
      })
      if (!checked.ok && checked.kind === 'page') {
        if (checked.retryAfterSeconds) reply.header('retry-after', String(checked.retryAfterSeconds))
        return page(reply, checked.status ?? 400, errorPage(checked.title, checked.message))
      }
      if (!checked.ok) {
        const back = redirectWith(checked.redirectUri, services.baseUrl, {
          error: checked.error,
          error_description: checked.description,
          state: checked.state,
        })
        // RFC 9700 §4.11.2: a client that registered itself (or arrived by metadata document) may
        // have registered any address, a phishing page included. Before anyone has signed in,
        // its errors are shown here with a link, never an automatic redirect.
        if (!checked.client.verified && !(await sessions.current(request, reply)))
          return page(
            reply,
            400,
            errorPageWithLink(
              'This request is not valid',
              `${checked.client.name} sent a request this service cannot accept: ${checked.description}.`,
              { href: back, label: `Return to ${new URL(checked.redirectUri).host || checked.redirectUri}` },
            ),
          )
        return reply.code(302).header('cache-control', 'no-store').redirect(back, 302)
      }
      const r = checked.request

      const merchant = await sessions.current(request, reply)
      if (!merchant)
        return reply
          .code(303)
          .header('cache-control', 'no-store')
          .redirect(`${sessions.loginPath}?next=${encodeURIComponent(request.url)}`, 303)

      // A dashboard app belongs to one store; a self-registered client may be granted any store the merchant owns.
      const stores = await storesOf(services, merchant.merchantId, r.client.storeId)
      if (stores.length === 0) {
        const message = r.client.storeId
          ? `${r.client.name} belongs to a store you do not own. Sign in as that store's owner.`
          : 'Your account owns no store, so there is nothing to connect.'
        return page(reply, 403, errorPage('Nothing to connect', message))
      }

      // Consent is skipped only when this client already holds at least these scopes on this store,
      // and never for a public client: anyone can present its client id from a loopback port of
      // their own (RFC 8252 §8.6, RFC 6749 §10.2), so the merchant is asked every time.
      if (stores.length === 1 && r.client.secretHash !== null) {
        const live = await liveGrant(services.db, stores[0]!.id, r.client.clientId)
        if (live && r.scopes.every((s) => live.scopes.includes(s)))
          return grantAndRedirect(
            services,
            reply,
            302,
            { ...r, clientId: r.client.clientId },
            live.grant_id,
            stores[0]!.id,
            r.scopes,
          )
      }

      const tx: ConsentTransaction = {
        merchantId: merchant.merchantId,
        clientId: r.client.clientId,
        redirectUri: r.redirectUri,
        state: r.state,
        codeChallenge: r.codeChallenge,
        scopes: r.scopes,
        resource: r.resource,
        storeIds: stores.map((s) => s.id),
      }
      const html = consentPage({
        appName: r.client.name,
        verified: r.client.verified,
        redirectTarget: r.redirectUri,
        merchantLabel: merchant.label,
        stores,
        scopes: r.scopes as Scope[],
        transaction: await sealConsent(services.signingSecret, tx, services.clock()),
        csrfToken: await sessions.csrf.token(request, reply),
        csrfField: sessions.csrf.field,
      })
      return page(reply, 200, html, formTargetOf(r.redirectUri))
    })

    scope.post(AUTHORIZE_PATH, async (request, reply) => {
      // Checkboxes repeat (scope=…&scope=…), so the form stays a URLSearchParams here.
      const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams()
      const field = (name: string) => form.get(name) ?? undefined
      const merchant = await sessions.current(request, reply)
      if (!merchant)
        return page(
          reply,
          401,
          errorPage('Signed out', 'Your session ended before you answered. Go back to the app and connect again.'),
        )
      if (!(await sessions.csrf.verify(request, field(sessions.csrf.field))))
        return page(
          reply,
          403,
          errorPage(
            'This form expired',
            'The page was open too long or came from somewhere else. Go back to the app and connect again.',
          ),
        )
      const opened = await openConsent(
        services.signingSecret,
        field('transaction') ?? '',
        merchant.merchantId,
        services.clock(),
      )
      if (!opened.ok)
        return page(
          reply,
          400,
          errorPage(
            opened.expired ? 'This request expired' : 'This request is not valid',
            'Go back to the app and connect again.',
          ),
        )
      const tx = opened.tx
      const found = await findClient(services, tx.clientId)
      if (!found.ok)
        return page(
          reply,
          400,
          errorPage('Unknown app', 'The app was deleted while you were deciding. Nothing was shared.'),
        )

      if (field('decision') !== 'allow')
        return reply.code(303).redirect(
          redirectWith(tx.redirectUri, services.baseUrl, {
            error: 'access_denied',
            error_description: 'the merchant denied the request',
            state: tx.state,
          }),
          303,
        )

      const storeId = field('store_id') ?? ''
      const owned = await storesOf(services, merchant.merchantId, found.client.storeId)
      if (!tx.storeIds.includes(storeId) || !owned.some((s) => s.id === storeId))
        return page(reply, 400, errorPage('Unknown store', 'Choose one of your stores.'))
      // Only what was asked for and ticked.
      const ticked = form.getAll('scope')
      const chosen = tx.scopes.filter((s) => ticked.includes(s))
      if (chosen.length === 0)
        return reply.code(303).redirect(
          redirectWith(tx.redirectUri, services.baseUrl, {
            error: 'access_denied',
            error_description: 'the merchant granted no scope',
            state: tx.state,
          }),
          303,
        )

      const { grantId } = await approveConsent(services, {
        merchantId: merchant.merchantId,
        storeId,
        requestId: request.id,
        client: {
          clientId: found.client.clientId,
          name: found.client.name,
          verified: found.client.verified,
          appId: found.client.appId,
        },
        scopes: chosen,
      })
      return grantAndRedirect(services, reply, 303, tx, grantId, storeId, chosen)
    })
  })
}
