// Scope names exactly as the contract lists them.
export const SCOPES = [
  'store:read',
  'products:read',
  'collections:read',
  'orders:read',
  'customers:read',
  'checkout:read',
  'settings:read',
  'themes:read',
  'themes:create',
  'themes:write',
  'themes:publish',
  'themes:preview',
  'pages:read',
  'pages:write',
  'media:read',
  'media:write',
  'navigation:read',
  'navigation:write',
] as const
export type Scope = (typeof SCOPES)[number]

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'store:read': 'read store profile and branding',
  'products:read': 'read products and inventory summaries',
  'collections:read': 'read collections',
  'orders:read': 'read orders, no mutations',
  'customers:read': 'read customers, no mutations',
  'checkout:read': 'read checkout configuration summaries',
  'settings:read': 'read non-secret store settings',
  'themes:read': 'read private and active themes',
  'themes:create': 'create private draft themes',
  'themes:write': 'update draft theme layouts, sections, pages',
  'themes:publish': 'publish a draft theme to the live storefront',
  'themes:preview': 'issue short-lived signed preview URLs',
  'pages:read': 'read custom pages',
  'pages:write': 'create and update theme pages',
  'media:read': 'list media assets',
  'media:write': 'upload and register media assets',
  'navigation:read': 'read navigation menus',
  'navigation:write': 'update theme navigation',
}

// How the scope reads to a merchant deciding whether to grant it (a key's scopes in the dashboard,
// the OAuth consent page): its description as a sentence.
export const scopeLabel = (scope: Scope): string =>
  SCOPE_DESCRIPTIONS[scope].charAt(0).toUpperCase() + SCOPE_DESCRIPTIONS[scope].slice(1)

// What a merchant is told before granting a scope that reaches past drafts.
export const SCOPE_WARNINGS: Partial<Record<Scope, string>> = {
  'themes:publish': 'Lets the app change your live storefront. Tick it only if you want the app to publish on its own.',
}

// The default theme-agent set: everything but commerce reads beyond the catalog, and publishing.
export const DEFAULT_AGENT_SCOPES: readonly Scope[] = SCOPES.filter(
  (s) => !['orders:read', 'customers:read', 'checkout:read', 'themes:publish'].includes(s),
)

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value)
