import cookie from '@fastify/cookie'
import csrf from '@fastify/csrf-protection'
import formbody from '@fastify/formbody'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  cartView,
  emptyCheckoutForm,
  mintShopCheckoutToken,
  orderConfirmation,
  placeShopOrder,
  readCheckoutForm,
  type CartLine,
} from '../operations/storefront/shop.ts'
import {
  cartPage,
  checkoutFormPage,
  errorPage,
  orderConfirmationPage,
  previewOrderPage,
  shopMessagePage,
  type CartNotice,
  type ServicePage,
  type ShopFrame,
} from '../render/service-pages.ts'
import { type ShopContext, shopContext, type ShopTarget } from '../render/shop-context.ts'
import { contentSecurityPolicy } from '../render/storefront.ts'
import type { Services } from '../services.ts'
import { STOREFRONT_SECURITY, withSecurityHeaders } from '../web/security-headers.ts'
import { CART_COOKIE, MAX_CART_LINES, MAX_LINE_QUANTITY, readCart, writeCart } from './cart-cookie.ts'
import { fromAnotherSite } from './same-origin.ts'

// The shop's pages and forms, on the live store (/s/{slug}/…) and in a preview (/preview/{token}/…):
//   GET  /cart                 the cart              POST /cart/add     add a variant (product pages' form)
//   POST /cart                 change quantities     POST /cart/remove  remove a line
//   GET  /checkout             the checkout form     POST /checkout     place the order (a preview places nothing)
//   GET  /orders/{token}       the order's confirmation, by the secret of its link only
// Plain HTML forms, POST then redirect; no script. Every page here is per shopper:
// `private, no-store`, noindex. The checkout form carries a CSRF token (@fastify/csrf-protection,
// its secret in a cookie of its own) and its checkout token (src/operations/storefront/checkout-token.ts).

const PREFIXES = ['/s/:slug', '/preview/:token'] as const
const VARIANT_ID = /^[A-Za-z0-9_-]{1,64}$/

type Params = { slug?: string; token?: string }
type Req = FastifyRequest

const secured = withSecurityHeaders(STOREFRONT_SECURITY)

const first = (v: unknown): string | undefined =>
  Array.isArray(v) ? first(v[0]) : typeof v === 'string' ? v : undefined
const bodyOf = (request: FastifyRequest): Record<string, unknown> =>
  request.body !== null && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {}

function send(reply: FastifyReply, page: ServicePage): FastifyReply {
  return reply
    .code(page.status)
    .headers(
      secured({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': contentSecurityPolicy(page.styleHash),
        'cache-control': 'private, no-store',
        'x-robots-tag': 'noindex, nofollow',
      }),
    )
    .send(page.html)
}

export async function shopPlugin(app: FastifyInstance, services: Services): Promise<void> {
  const secure = services.baseUrl.startsWith('https:')
  await app.register(async (shop) => {
    await shop.register(cookie)
    await shop.register(csrf, {
      cookieKey: secure ? '__Host-sf_shop_csrf' : 'sf_shop_csrf',
      cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', secure, signed: false },
      getToken: (request) => first(bodyOf(request)._csrf),
    })
    await shop.register(formbody, { bodyLimit: 32 * 1024 })

    const targetOf = (params: Params): ShopTarget =>
      params.slug !== undefined ? { slug: params.slug } : { token: params.token ?? '' }
    const frameOf = (s: ShopContext): ShopFrame => ({
      store: s.store,
      document: s.document,
      urls: s.urls,
      mode: s.mode,
      preview: s.preview,
      now: services.clock(),
    })
    const cartCookie = (s: ShopContext) => ({ storeId: s.storeId, basePath: s.basePath, secure })
    const to = (s: ShopContext, path: string, query: Record<string, string> = {}) => {
      const qs = new URLSearchParams(query).toString()
      return `${s.basePath}${path}${qs ? `?${qs}` : ''}`
    }

    // Each handler runs with its shop resolved, or answers the store's 404 or the preview's 401.
    const withShop =
      (handler: (request: Req, reply: FastifyReply, s: ShopContext) => Promise<FastifyReply>) =>
      async (request: Req, reply: FastifyReply) => {
        const resolved = await shopContext(services, targetOf(request.params as Params))
        if (!resolved.ok) return send(reply, resolved.page)
        return handler(request, reply, resolved.shop)
      }
    // The cart's forms sit on publicly cached pages, without a per-visitor token.
    const sameSite =
      (handler: (request: Req, reply: FastifyReply, s: ShopContext) => Promise<FastifyReply>) =>
      async (request: Req, reply: FastifyReply, s: ShopContext) =>
        fromAnotherSite(request, services.baseUrl)
          ? send(
              reply,
              shopMessagePage(frameOf(s), {
                status: 403,
                title: 'This form came from another site',
                message: 'Nothing was changed. Add products to your cart from the pages of this store.',
                link: { path: '/cart', label: 'Go to your cart' },
              }),
            )
          : handler(request, reply, s)

    shop.setErrorHandler(async (error, request: Req, reply) => {
      const e = error as { statusCode?: number; code?: string }
      const resolved = await shopContext(services, targetOf((request.params ?? {}) as Params)).catch(() => null)
      const frame = resolved?.ok ? frameOf(resolved.shop) : null
      if (e.code?.startsWith('FST_CSRF') && frame)
        return send(
          reply,
          shopMessagePage(frame, {
            status: 403,
            title: 'This checkout page has expired',
            message:
              'No order was placed. Open the checkout again (your cart is kept), check your details and place the order.',
            link: { path: '/checkout', label: 'Back to the checkout' },
          }),
        )
      if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500 && frame)
        return send(
          reply,
          shopMessagePage(frame, {
            status: e.statusCode === 413 ? 413 : 400,
            title: 'The form could not be read',
            message: 'Nothing was changed. Go back to the page and send the form again.',
            link: { path: '/cart', label: 'Go to your cart' },
          }),
        )
      request.log.error({ err: error, requestId: request.id }, 'shop page failed')
      return send(reply, errorPage(500))
    })

    const cartGet = withShop(async (request, reply, s) => {
      const lines = readCart(request, s.storeId)
      const cart = await cartView(services, s.storeId, lines)
      const query = request.query as Record<string, unknown>
      return send(reply, cartPage({ frame: frameOf(s), cart, notice: await noticeOf(s, query, cart) }))
    })

    async function noticeOf(
      s: ShopContext,
      query: Record<string, unknown>,
      cart: Awaited<ReturnType<typeof cartView>>,
    ): Promise<CartNotice | null> {
      if (first(query.updated) === '1') return { kind: 'updated' }
      for (const kind of ['added', 'limited', 'unavailable', 'removed'] as const) {
        const id = first(query[kind])
        if (id === undefined || !VARIANT_ID.test(id)) continue
        const line =
          cart.lines.find((l) => l.variantId === id) ??
          (await cartView(services, s.storeId, [{ variantId: id, quantity: 1 }])).lines[0]
        if (!line || line.productId === null) return null
        return { kind, title: line.title, quantity: line.quantity }
      }
      return null
    }

    const cartAdd = withShop(
      sameSite(async (request, reply, s) => {
        const body = bodyOf(request)
        const variantId = first(body.variant) ?? ''
        const quantity = Number(first(body.quantity) ?? '1')
        const [view] = VARIANT_ID.test(variantId)
          ? (await cartView(services, s.storeId, [{ variantId, quantity: 1 }])).lines
          : []
        if (!view || view.productId === null || !Number.isInteger(quantity) || quantity < 1)
          return send(
            reply,
            shopMessagePage(frameOf(s), {
              status: 400,
              title: 'That could not be added',
              message: 'Choose a product and a quantity of 1 or more on its page, then add it to your cart.',
              link: { path: '/products', label: 'Browse products' },
            }),
          )
        if (view.stock === 0) return reply.redirect(to(s, '/cart', { unavailable: variantId }), 303)
        const lines = readCart(request, s.storeId)
        const held = lines.find((l) => l.variantId === variantId)?.quantity ?? 0
        if (held === 0 && lines.length >= MAX_CART_LINES)
          return send(
            reply,
            shopMessagePage(frameOf(s), {
              status: 400,
              title: 'Your cart is full',
              message: `A cart holds at most ${MAX_CART_LINES} different products. Check out or remove some first.`,
              link: { path: '/cart', label: 'Go to your cart' },
            }),
          )
        const wanted = held + Math.min(quantity, MAX_LINE_QUANTITY)
        const kept = Math.min(wanted, view.stock, MAX_LINE_QUANTITY)
        const next: CartLine[] =
          held > 0
            ? lines.map((l) => (l.variantId === variantId ? { variantId, quantity: kept } : l))
            : [...lines, { variantId, quantity: kept }]
        writeCart(reply, cartCookie(s), next)
        return reply.redirect(to(s, '/cart', { [kept < wanted ? 'limited' : 'added']: variantId }), 303)
      }),
    )

    const cartUpdate = withShop(
      sameSite(async (request, reply, s) => {
        const body = bodyOf(request)
        const next: CartLine[] = []
        for (const line of readCart(request, s.storeId)) {
          const raw = first(body[`q:${line.variantId}`])
          const quantity = raw === undefined || raw.trim() === '' ? line.quantity : Number(raw)
          if (!Number.isInteger(quantity) || quantity < 0) next.push(line)
          else if (quantity > 0)
            next.push({ variantId: line.variantId, quantity: Math.min(quantity, MAX_LINE_QUANTITY) })
        }
        writeCart(reply, cartCookie(s), next)
        return reply.redirect(to(s, '/cart', { updated: '1' }), 303)
      }),
    )

    const cartRemove = withShop(
      sameSite(async (request, reply, s) => {
        const variantId = first(bodyOf(request).variant) ?? ''
        const lines = readCart(request, s.storeId)
        writeCart(
          reply,
          cartCookie(s),
          lines.filter((l) => l.variantId !== variantId),
        )
        return reply.redirect(
          to(
            s,
            '/cart',
            VARIANT_ID.test(variantId) && lines.some((l) => l.variantId === variantId) ? { removed: variantId } : {},
          ),
          303,
        )
      }),
    )

    const checkoutGet = withShop(async (request, reply, s) => {
      const lines = readCart(request, s.storeId)
      if (lines.length === 0) return reply.redirect(to(s, '/cart'), 303)
      return send(
        reply,
        checkoutFormPage({
          frame: frameOf(s),
          cart: await cartView(services, s.storeId, lines),
          form: emptyCheckoutForm(),
          issues: [],
          checkoutToken: mintShopCheckoutToken(services, s.storeId),
          csrfToken: reply.generateCsrf(),
        }),
      )
    })

    const checkoutPost = withShop(
      sameSite(async (request, reply, s) => {
        const lines = readCart(request, s.storeId)
        if (lines.length === 0) return reply.redirect(to(s, '/cart'), 303)
        const body = bodyOf(request)
        const { form, issues: unread } = readCheckoutForm(body)
        const token = first(body.token) ?? ''
        const placed =
          unread.length > 0
            ? ({ ok: false, issues: unread, limited: false } as const)
            : await placeShopOrder(services, {
                storeId: s.storeId,
                preview: s.mode === 'preview',
                requestId: request.id,
                clientAddress: request.ip,
                checkoutToken: token,
                lines,
                form,
              })
        if (placed.ok && s.mode === 'preview')
          return send(reply, previewOrderPage({ frame: frameOf(s), order: placed.order }))
        if (placed.ok) {
          writeCart(reply, cartCookie(s), [])
          return reply.redirect(to(s, `/orders/${token}`), 303)
        }
        return send(
          reply,
          checkoutFormPage({
            frame: frameOf(s),
            cart: await cartView(services, s.storeId, lines),
            form,
            issues: placed.issues,
            checkoutToken: mintShopCheckoutToken(services, s.storeId),
            csrfToken: reply.generateCsrf(),
            status: placed.limited ? 429 : 422,
          }),
        )
      }),
    )

    const confirmation = withShop(async (request, reply, s) => {
      const token = (request.params as { order?: string }).order ?? ''
      const order = await orderConfirmation(services, s.storeId, token)
      if (order === null)
        return send(
          reply,
          shopMessagePage(frameOf(s), {
            status: 404,
            title: 'Order not found',
            message:
              'There is no order at this address. An order is shown only through the link the checkout opened after it was placed.',
            link: { path: '/', label: 'Back to the store' },
          }),
        )
      return send(reply, orderConfirmationPage({ frame: frameOf(s), order }))
    })

    for (const prefix of PREFIXES) {
      shop.get(`${prefix}/cart`, cartGet)
      shop.post(`${prefix}/cart`, cartUpdate)
      shop.post(`${prefix}/cart/add`, cartAdd)
      shop.post(`${prefix}/cart/remove`, cartRemove)
      shop.get(`${prefix}/checkout`, checkoutGet)
      shop.post(`${prefix}/checkout`, { preHandler: shop.csrfProtection }, checkoutPost)
      shop.get(`${prefix}/orders/:order`, confirmation)
    }
  })
}

export { CART_COOKIE }
