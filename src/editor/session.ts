// The CSRF token of a state-changing editor call travels in this header (a cross-site form
// cannot set one); @fastify/csrf-protection checks it against the secret in the CSRF cookie.
export const CSRF_HEADER = 'x-csrf-token'
