import type { FastifyInstance } from 'fastify'
import { resetPassword } from '../../src/auth/merchant-accounts.ts'
import type { Services } from '../../src/services.ts'

export const EMAIL_A = 'owner@atlas-outfitters.example'
export const EMAIL_B = 'owner@lumen-home.example'

// A browser-like client over app.inject: keeps cookies, reads the CSRF token of the last page.
export class Browser {
  cookies = new Map<string, string>()
  lastHtml = ''
  readonly app: FastifyInstance
  readonly ip: string
  // X-Forwarded-For, as a reverse proxy in front of the service sets it.
  readonly forwardedFor: string | undefined
  constructor(app: FastifyInstance, ip = '10.0.0.1', forwardedFor?: string) {
    this.app = app
    this.ip = ip
    this.forwardedFor = forwardedFor
  }
  private header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
  private headers(extra: Record<string, string> = {}) {
    return {
      cookie: this.header(),
      ...(this.forwardedFor ? { 'x-forwarded-for': this.forwardedFor } : {}),
      ...extra,
    }
  }
  private keep(setCookie: string | string[] | undefined) {
    for (const c of [setCookie ?? []].flat()) {
      const [pair, ...attrs] = c.split(';')
      const [name, ...rest] = pair!.split('=')
      const value = rest.join('=')
      if (value === '' || attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a))) this.cookies.delete(name!.trim())
      else this.cookies.set(name!.trim(), value)
    }
  }
  async get(url: string) {
    const res = await this.app.inject({
      method: 'GET',
      url,
      headers: this.headers(),
      remoteAddress: this.ip,
    })
    this.keep(res.headers['set-cookie'])
    if (String(res.headers['content-type'] ?? '').startsWith('text/html')) this.lastHtml = res.body
    return res
  }
  csrf(): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(this.lastHtml)
    if (!m) throw new Error('no CSRF token on the last page')
    return m[1]!
  }
  async post(url: string, fields: Record<string, string | string[]>, opts: { csrf?: string | null } = {}) {
    const params = new URLSearchParams()
    const token = opts.csrf === undefined ? this.csrf() : opts.csrf
    if (token !== null) params.append('_csrf', token)
    for (const [k, v] of Object.entries(fields)) for (const item of [v].flat()) params.append(k, item)
    const res = await this.app.inject({
      method: 'POST',
      url,
      payload: params.toString(),
      headers: this.headers({ 'content-type': 'application/x-www-form-urlencoded' }),
      remoteAddress: this.ip,
    })
    this.keep(res.headers['set-cookie'])
    if (String(res.headers['content-type'] ?? '').startsWith('text/html')) this.lastHtml = res.body
    return res
  }
  async signIn(email: string, password: string) {
    await this.get('/dashboard/login')
    return this.post('/dashboard/login', { email, password })
  }
}

export async function passwordOf(services: Services, email: string): Promise<string> {
  const reset = await resetPassword(services.db, email)
  if (!reset) throw new Error(`no merchant ${email}`)
  return reset.password
}

// The store's active themes, as the themes projection has them: exactly one when all is well.
export async function activeThemeIds(services: Services, storeId: string): Promise<string[]> {
  const rows = await services.db
    .selectFrom('themes')
    .select('theme_id')
    .where('store_id', '=', storeId)
    .where('status', '=', 'active')
    .execute()
  return rows.map((r) => r.theme_id)
}

// The store's live theme: its one active theme.
export async function liveThemeId(services: Services, storeId: string): Promise<string> {
  const [id, ...more] = await activeThemeIds(services, storeId)
  if (id === undefined || more.length > 0) throw new Error(`${storeId} has ${more.length + (id ? 1 : 0)} active themes`)
  return id
}

// The hidden fields of the form posting to `action` on a page (what a browser would send), _csrf aside.
export function hiddenFields(page: string, action: string): Record<string, string> {
  const escaped = action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const form = new RegExp(`<form method="post" action="${escaped}"[^>]*>([\\s\\S]*?)</form>`).exec(page)
  if (!form) throw new Error(`no form posting to ${action}`)
  const out: Record<string, string> = {}
  for (const m of form[1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    if (m[1] !== '_csrf') out[m[1]!] = m[2]!
  return out
}
