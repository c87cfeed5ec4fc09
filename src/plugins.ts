import type { AppOptions } from './http/app.ts'

// Adapters beside the REST API (MCP endpoint, storefront renderer) join the app here.
export function servicePlugins(): Pick<AppOptions, 'plugins' | 'extraApiRoutes'> {
  return { plugins: [], extraApiRoutes: [] }
}
