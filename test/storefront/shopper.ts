import type { FastifyInstance } from 'fastify'

// A shopper over app.inject: keeps its cookies (the cart's, the checkout's CSRF secret), sends
// what a browser sends with a form post from the store's own page (Sec-Fetch-Site), and reads the
// checkout form's tokens from the last checkout page.
export class Shopper {
  readonly cookies = new Map<string, string>()
  form: { csrf: string; token: string } | null = null
  readonly app: FastifyInstance
  readonly base: string
  readonly ip: string
  constructor(app: FastifyInstance, base = '/s/atlas', ip = '10.1.0.1') {
    this.app = app
    this.base = base
    this.ip = ip
  }

  private keep(setCookie: string | string[] | undefined) {
    for (const c of [setCookie ?? []].flat()) {
      const [pair, ...attrs] = c.split(';')
      const [name, ...rest] = pair!.split('=')
      const value = rest.join('=')
      if (value === '' || attrs.some((a) => /expires=Thu, 01 Jan 1970|max-age=0/i.test(a)))
        this.cookies.delete(name!.trim())
      else this.cookies.set(name!.trim(), value)
    }
  }

  async get(path: string, headers: Record<string, string> = {}) {
    const res = await this.app.inject({
      method: 'GET',
      url: path.startsWith('/') && !path.startsWith(this.base) ? `${this.base}${path}` : path,
      headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...headers },
      remoteAddress: this.ip,
    })
    this.keep(res.headers['set-cookie'])
    const csrf = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1]
    const token = /name="token" value="([^"]+)"/.exec(res.body)?.[1]
    if (csrf && token) this.form = { csrf, token }
    return res
  }

  async post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' },
  ) {
    const res = await this.app.inject({
      method: 'POST',
      url: `${this.base}${path}`,
      payload: new URLSearchParams(fields).toString(),
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      remoteAddress: this.ip,
    })
    this.keep(res.headers['set-cookie'])
    const csrf = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1]
    const token = /name="token" value="([^"]+)"/.exec(res.body)?.[1]
    if (csrf && token) this.form = { csrf, token }
    return res
  }

  add(variantId: string, quantity = 1) {
    return this.post('/cart/add', { variant: variantId, quantity: String(quantity) })
  }

  // Opens the checkout (for its tokens) unless a form is already at hand, then places the order.
  async place(fields: Record<string, string>, opts: { fresh?: boolean } = {}) {
    if (!this.form || opts.fresh) await this.get('/checkout')
    const form = this.form!
    return this.post('/checkout', { _csrf: form.csrf, token: form.token, ...fields })
  }
}

// An Atlas customer as its checkout configuration asks for it (name, phone, address, city; the
// country is Morocco, the only one it delivers to).
export const ATLAS_CUSTOMER = {
  fullName: 'Salma Idrissi',
  phone: '+212 612 34 56 78',
  address1: '14 Rue Tarik Ibn Ziad',
  city: 'Casablanca',
  rate: 'Casablanca & Rabat · Standard delivery',
}
