import { randomUUID } from 'node:crypto'
import { errors, jwtVerify, SignJWT } from 'jose'

// Preview tokens: JWTs signed by the service (HS256), purpose-bound and short-lived.
export const PREVIEW_PURPOSE = 'theme_preview'
export const PREVIEW_TTL_SECONDS = 15 * 60
const ISSUER = 'storefront-theme-service'
const AUDIENCE = 'storefront-preview'

export type PreviewClaims = { storeId: string; themeId: string; themeVersion: number; tokenId: string; expiresAt: Date }

export type PreviewTokenError = { code: 'PREVIEW_TOKEN_EXPIRED' | 'PREVIEW_TOKEN_INVALID'; message: string }

const keyOf = (secret: string) => new TextEncoder().encode(`preview:${secret}`)

export async function issuePreviewToken(
  secret: string,
  input: { storeId: string; themeId: string; themeVersion: number; now: Date; ttlSeconds?: number },
): Promise<{ token: string; tokenId: string; expiresAt: Date }> {
  const tokenId = randomUUID()
  const issuedAt = Math.floor(input.now.getTime() / 1000)
  const expiresAt = new Date((issuedAt + (input.ttlSeconds ?? PREVIEW_TTL_SECONDS)) * 1000)
  const token = await new SignJWT({
    purpose: PREVIEW_PURPOSE,
    store: input.storeId,
    theme: input.themeId,
    ver: input.themeVersion,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setJti(tokenId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(keyOf(secret))
  return { token, tokenId, expiresAt }
}

export async function verifyPreviewToken(
  secret: string,
  token: string,
  now: Date = new Date(),
): Promise<{ ok: true; claims: PreviewClaims } | { ok: false; error: PreviewTokenError }> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: now,
    })
    if (payload.purpose !== PREVIEW_PURPOSE)
      return { ok: false, error: { code: 'PREVIEW_TOKEN_INVALID', message: 'this token is not a theme preview token' } }
    const { store, theme, ver, jti, exp } = payload as {
      store?: unknown
      theme?: unknown
      ver?: unknown
      jti?: unknown
      exp?: unknown
    }
    if (
      typeof store !== 'string' ||
      typeof theme !== 'string' ||
      typeof ver !== 'number' ||
      typeof jti !== 'string' ||
      typeof exp !== 'number'
    ) {
      return { ok: false, error: { code: 'PREVIEW_TOKEN_INVALID', message: 'the preview token is malformed' } }
    }
    return {
      ok: true,
      claims: { storeId: store, themeId: theme, themeVersion: ver, tokenId: jti, expiresAt: new Date(exp * 1000) },
    }
  } catch (error) {
    if (error instanceof errors.JWTExpired)
      return {
        ok: false,
        error: { code: 'PREVIEW_TOKEN_EXPIRED', message: 'the preview link has expired; ask for a new one' },
      }
    return { ok: false, error: { code: 'PREVIEW_TOKEN_INVALID', message: 'the preview link is not valid' } }
  }
}
