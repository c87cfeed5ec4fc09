import { createHash } from 'node:crypto'

// REST's Idempotency-Key: which keys are valid, and the hash that tells a retry from another
// request under the same key. The records themselves are src/operations/idempotency.ts.
export { claim, complete, purgeExpired, release, type Scope } from '../operations/idempotency.ts'

export { validIdempotencyKey } from '../web/idempotency-key.ts'

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    if (value instanceof Uint8Array) return `bytes:${createHash('sha256').update(value).digest('hex')}`
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'undefined'
}

export const requestHash = (request: unknown) => createHash('sha256').update(canonical(request)).digest('hex')
