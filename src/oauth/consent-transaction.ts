import { errors, jwtVerify, SignJWT } from 'jose'

// The checked authorization request travels from the consent page back to its POST as a signed,
// short-lived token bound to the merchant, so the POST cannot be pointed at another client,
// redirect URI or challenge than the ones the merchant saw.
const PURPOSE = 'oauth_consent'
const TTL_SECONDS = 10 * 60
const keyOf = (secret: string) => new TextEncoder().encode(`oauth-consent:${secret}`)

export type ConsentTransaction = {
  merchantId: string
  clientId: string
  redirectUri: string
  state: string
  codeChallenge: string
  scopes: string[]
  resource: string
  storeIds: string[]
}

export async function sealConsent(secret: string, t: ConsentTransaction, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000)
  return new SignJWT({ purpose: PURPOSE, tx: t })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(t.merchantId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TTL_SECONDS)
    .sign(keyOf(secret))
}

export async function openConsent(
  secret: string,
  token: string,
  merchantId: string,
  now: Date,
): Promise<{ ok: true; tx: ConsentTransaction } | { ok: false; expired: boolean }> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      subject: merchantId,
      currentDate: now,
    })
    if (payload.purpose !== PURPOSE || typeof payload.tx !== 'object' || payload.tx === null)
      return { ok: false, expired: false }
    const tx = payload.tx as ConsentTransaction
    if (tx.merchantId !== merchantId) return { ok: false, expired: false }
    return { ok: true, tx }
  } catch (error) {
    return { ok: false, expired: error instanceof errors.JWTExpired }
  }
}
