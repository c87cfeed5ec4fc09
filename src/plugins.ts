import type { AppOptions } from './http/app.ts'
import { mcpApiPlugin, mcpRoutes, mcpSitePlugin } from './mcp/plugin.ts'
import { storefrontPlugin } from './render/plugin.ts'

// Adapters beside the REST API join the app here: MCP inside /api (rate-limited like REST),
// its protected-resource metadata and the storefront renderer at the root.
export function servicePlugins(): Pick<AppOptions, 'plugins' | 'sitePlugins' | 'extraApiRoutes'> {
  return { plugins: [mcpApiPlugin], sitePlugins: [mcpSitePlugin, storefrontPlugin], extraApiRoutes: mcpRoutes }
}
