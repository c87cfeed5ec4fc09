// Which Idempotency-Key values are valid (contract-decisions.md, "Idempotency"): 8 to 256
// printable ASCII characters. REST (src/http/idempotency.ts) and the token endpoint check the same.
export const validIdempotencyKey = (key: string) => key.length >= 8 && key.length <= 256 && /^[\x20-\x7e]+$/.test(key)
