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

// The contract's meaning of each scope, in its words: for developers (the OpenAPI document).
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

// What each scope lets an app do, in the merchant's words: every page a merchant reads scopes on
// (the consent page, the dashboard's apps and keys) shows these, and no other list.
export const MERCHANT_SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'store:read': 'Read store profile and branding',
  'products:read': 'Read products and stock levels',
  'collections:read': 'Read collections',
  'orders:read': 'Read orders (it cannot change them)',
  'customers:read': 'Read customer details (it cannot change them)',
  'checkout:read': 'Read checkout settings',
  'settings:read': 'Read store settings (never passwords or keys)',
  'themes:read': 'Read your themes, drafts and the live one',
  'themes:create': 'Create new draft themes',
  'themes:write': 'Edit draft themes: layout, sections and pages',
  'themes:publish': 'Publish a draft theme to your live storefront',
  'themes:preview': 'Make short-lived preview links',
  'pages:read': 'Read theme pages',
  'pages:write': 'Create and edit theme pages',
  'media:read': 'See uploaded images',
  'media:write': 'Upload images',
  'navigation:read': 'Read navigation menus',
  'navigation:write': 'Change navigation menus',
}

// The default theme-agent set: everything but commerce reads beyond the catalog, and publishing.
export const DEFAULT_AGENT_SCOPES: readonly Scope[] = SCOPES.filter(
  (s) => !['orders:read', 'customers:read', 'checkout:read', 'themes:publish'].includes(s),
)

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value)
