// DNS-rebinding protection (MCP transport spec): a browser's Origin must be the service's own
// (BASE_URL) or a loopback one (local tools such as MCP Inspector). Clients that are not
// browsers send no Origin and are not affected.

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

export function originAllowed(origin: string, baseUrl: string): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  // An Origin is scheme://host[:port] and nothing else.
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || origin.endsWith('/'))
    return false
  if (url.origin === new URL(baseUrl).origin) return true
  return LOOPBACK_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost')
}
