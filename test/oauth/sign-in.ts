import { randomBytes } from 'node:crypto'
import { createMerchant } from '../../src/auth/merchant-accounts.ts'
import type { Services } from '../../src/services.ts'

type Live = { url: string; services: Services }

// A merchant account made the way `npm run merchants -- create` makes it: a new owner of the
// store, with a generated password (only its hash is stored).
export async function merchantFor(
  app: Live,
  storeId: string,
): Promise<{ email: string; password: string; merchantId: string }> {
  return createMerchant(app.services.db, {
    storeId,
    email: `owner-${randomBytes(4).toString('hex')}@oauth-e2e.example`,
  })
}

// The cookies a response sets, merged into a browser-like jar.
function keep(jar: Map<string, string>, response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const at = pair!.indexOf('=')
    jar.set(pair!.slice(0, at).trim(), pair!.slice(at + 1))
  }
}
const header = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')

// Signs in over HTTP as a browser does: GET the sign-in page (its CSRF cookie and token), POST
// the form, keep the session cookie. Returns the Cookie header to send from then on.
export async function signIn(app: Live, account: { email: string; password: string }): Promise<string> {
  const jar = new Map<string, string>()
  const page = await fetch(`${app.url}/dashboard/login`, { redirect: 'manual' })
  keep(jar, page)
  const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1]
  if (!token) throw new Error('no CSRF token on the sign-in page')
  const posted = await fetch(`${app.url}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: header(jar), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: token, email: account.email, password: account.password }).toString(),
  })
  keep(jar, posted)
  if (posted.status !== 303 || !jar.has('sf_session')) throw new Error(`sign-in failed: ${posted.status}`)
  return header(jar)
}
