import { z } from 'zod'
import { CSRF_FIELD } from './layout.ts'

// Form posts: every field a single string (a repeated field is an array only where the schema
// says so), no unknown fields, no control characters. Problems come back as sentences for the page.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

export const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be a single text value` })
    .max(max, { error: `${label} is too long (at most ${max} characters)` })
    .refine((v) => !CONTROL.test(v) && v.isWellFormed(), { error: `${label} contains control characters` })

export const required = (label: string, max: number) =>
  text(label, max)
    .transform((v) => v.trim())
    .pipe(z.string().min(1, { error: `${label} is required` }))

export type FormResult<T> = { ok: true; value: T } | { ok: false; problems: string[] }

export function parseForm<S extends z.ZodRawShape>(shape: S, body: unknown): FormResult<z.infer<z.ZodObject<S>>> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { ok: false, problems: ['the form was not sent as a form'] }
  const { [CSRF_FIELD]: _ignored, ...fields } = body as Record<string, unknown>
  const unknown = Object.keys(fields).filter((k) => !(k in shape))
  const parsed = z.object(shape).safeParse(fields)
  const problems = [
    ...unknown.map((k) => `unknown field "${k.slice(0, 40)}"`),
    ...(parsed.success ? [] : parsed.error.issues.map((i) => i.message)),
  ]
  if (problems.length > 0 || !parsed.success) return { ok: false, problems }
  return { ok: true, value: parsed.data }
}

// Checkbox lists arrive as one string or several.
export const list = (label: string, max: number, each: number) =>
  z
    .union([text(label, each), z.array(text(label, each))])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.string()).max(max, { error: `too many ${label} values` }))
