import type { FastifyInstance } from 'fastify'

// application/x-www-form-urlencoded, with RFC 6749 §3.1's rule that no parameter appears twice
// (a repeated one is reported by name so the endpoint can refuse it).
export const DUPLICATE_PARAMETERS = Symbol('duplicateParameters')
export type Form = Record<string, string> & { [DUPLICATE_PARAMETERS]?: string[] }

export function parseForm(body: string): Form {
  const form: Form = {}
  const duplicates: string[] = []
  for (const [key, value] of new URLSearchParams(body)) {
    if (Object.hasOwn(form, key)) duplicates.push(key)
    else form[key] = value
  }
  if (duplicates.length > 0) form[DUPLICATE_PARAMETERS] = duplicates
  return form
}

export function addFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => done(null, parseForm(body as string)),
  )
}
