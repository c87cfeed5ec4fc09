// The editor's calls to the service: the same operations agents use, under the editor's path,
// with the session cookie and its CSRF token.
import { CSRF_HEADER } from '../session.ts'
import type { Activity, Checks, Operation, Theme, ThemeSchema } from './types.ts'

export type ApiError = {
  status: number
  code: string
  message: string
  details?: { issues?: Issue[]; currentVersion?: number }
}
export type Issue = { path: string; code: string; message: string; operationIndex?: number }
export type Ok<T> = {
  ok: true
  data: T
  etag: string | null
  pagination?: { nextCursor: string | null; hasMore: boolean }
}
export type Result<T> = Ok<T> | { ok: false; error: ApiError }

export function createApi(base: string, csrfToken: string) {
  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Result<T>> {
    let response: Response
    try {
      response = await fetch(`${base}${path}`, {
        method,
        credentials: 'same-origin',
        headers: {
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(method !== 'GET' ? { [CSRF_HEADER]: csrfToken } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      })
    } catch {
      return {
        ok: false,
        error: {
          status: 0,
          code: 'NETWORK',
          message: 'The service could not be reached. Check your connection and try again.',
        },
      }
    }
    const json = (await response.json().catch(() => null)) as {
      data?: T
      pagination?: Ok<T>['pagination']
      error?: Omit<ApiError, 'status'>
    } | null
    if (!response.ok || !json || json.error) {
      const e = json?.error
      return {
        ok: false,
        error: {
          status: response.status,
          code: e?.code ?? 'INTERNAL',
          message: e?.message ?? `The service answered ${response.status}.`,
          ...(e?.details ? { details: e.details } : {}),
        },
      }
    }
    return {
      ok: true,
      data: json.data as T,
      etag: response.headers.get('etag'),
      ...(json.pagination ? { pagination: json.pagination } : {}),
    }
  }
  const q = (params: Record<string, string | number | undefined>) => {
    const s = new URLSearchParams()
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') s.set(k, String(v))
    const text = s.toString()
    return text ? `?${text}` : ''
  }
  const id = encodeURIComponent
  return {
    schema: () => call<ThemeSchema>('GET', '/themes/schema'),
    theme: (themeId: string) => call<Theme>('GET', `/themes/${id(themeId)}`),
    batch: (themeId: string, etag: string, operations: Operation[]) =>
      call<{ theme: Theme; changes: string[] }>(
        'POST',
        `/themes/${id(themeId)}/batch`,
        { operations },
        { 'if-match': etag },
      ),
    duplicate: (themeId: string) => call<Theme>('POST', `/themes/${id(themeId)}/duplicate`, {}),
    checks: (themeId: string, version: number) => call<Checks>('GET', `/themes/${id(themeId)}/checks${q({ version })}`),
    activity: (themeId: string) => call<{ activity: Activity[] }>('GET', `/themes/${id(themeId)}/activity`),
    products: (query: string, cursor?: string, limit = 20) =>
      call<{
        products: {
          id: string
          handle: string
          title: string
          status: string
          featuredImage?: { url: string } | null
        }[]
      }>('GET', `/products${q({ query, cursor, limit })}`),
    collections: (cursor?: string) =>
      call<{ collections: { id: string; handle: string; title: string }[] }>(
        'GET',
        `/collections${q({ cursor, limit: 100 })}`,
      ),
    media: (cursor?: string) =>
      call<{ media: { id: string; url: string; themeUrl: string; alt: string }[] }>(
        'GET',
        `/media${q({ cursor, limit: 100 })}`,
      ),
    upload: (dataBase64: string, alt: string) =>
      call<{ id: string; url: string; themeUrl: string; alt: string }>('POST', '/media', { dataBase64, alt }),
  }
}

export type Api = ReturnType<typeof createApi>
