import type { AppOptions } from './http/app.ts'
import { mcpApiPlugin, mcpDocumentedRoutes, mcpRoutes, mcpSitePlugin } from './mcp/plugin.ts'
import { dashboardPlugin } from './dashboard/plugin.ts'
import { metricsPlugin } from './http/metrics-plugin.ts'
import { oauthApiPlugin, oauthDocumentedRoutes, oauthRoutes, oauthSitePlugin } from './oauth/plugin.ts'
import { storefrontPlugin } from './storefront/plugin.ts'
import { shopPlugin } from './storefront/shop-routes.ts'
import { editorPlugin } from './editor/plugin.ts'

// Adapters beside the REST API join the app here: MCP inside /api (rate-limited like REST),
// its protected-resource metadata, the storefront renderer, /metrics, the merchant dashboard and the
// theme editor at the root; the OAuth authorization server's endpoints inside /api, its
// authorization page and metadata at the root.
export function servicePlugins(): Pick<AppOptions, 'plugins' | 'sitePlugins' | 'extraApiRoutes' | 'documentedRoutes'> {
  return {
    plugins: [mcpApiPlugin, oauthApiPlugin],
    sitePlugins: [
      metricsPlugin,
      mcpSitePlugin,
      oauthSitePlugin,
      storefrontPlugin,
      shopPlugin,
      dashboardPlugin,
      editorPlugin,
    ],
    extraApiRoutes: [...mcpRoutes, ...oauthRoutes],
    documentedRoutes: [...mcpDocumentedRoutes, ...oauthDocumentedRoutes],
  }
}
