import type { Scope } from '../../../src/auth/scopes.ts'

// The endpoint table of the contract (seed/storefront-developer-api.md), copied by hand so the
// tests check the service against the contract rather than against its own catalog.
export type ContractOperation = { operationId: string; method: string; path: string; scopes: Scope[] }

export const contractOperations: ContractOperation[] = [
  { operationId: 'getContext', method: 'GET', path: '/api/v1/context', scopes: ['store:read'] },
  { operationId: 'getStore', method: 'GET', path: '/api/v1/store', scopes: ['store:read'] },
  { operationId: 'getStoreSettings', method: 'GET', path: '/api/v1/store/settings', scopes: ['settings:read'] },
  { operationId: 'listProducts', method: 'GET', path: '/api/v1/products', scopes: ['products:read'] },
  { operationId: 'getProduct', method: 'GET', path: '/api/v1/products/{id}', scopes: ['products:read'] },
  { operationId: 'listCollections', method: 'GET', path: '/api/v1/collections', scopes: ['collections:read'] },
  { operationId: 'getCollection', method: 'GET', path: '/api/v1/collections/{id}', scopes: ['collections:read'] },
  { operationId: 'listOrders', method: 'GET', path: '/api/v1/orders', scopes: ['orders:read'] },
  { operationId: 'getOrder', method: 'GET', path: '/api/v1/orders/{id}', scopes: ['orders:read'] },
  { operationId: 'listCustomers', method: 'GET', path: '/api/v1/customers', scopes: ['customers:read'] },
  { operationId: 'getCheckout', method: 'GET', path: '/api/v1/checkout', scopes: ['checkout:read'] },
  { operationId: 'listMedia', method: 'GET', path: '/api/v1/media', scopes: ['media:read'] },
  { operationId: 'uploadMedia', method: 'POST', path: '/api/v1/media', scopes: ['media:write'] },
  { operationId: 'getNavigation', method: 'GET', path: '/api/v1/navigation', scopes: ['navigation:read'] },
  { operationId: 'updateNavigation', method: 'PATCH', path: '/api/v1/navigation', scopes: ['navigation:write'] },
  { operationId: 'listThemes', method: 'GET', path: '/api/v1/themes', scopes: ['themes:read'] },
  { operationId: 'createTheme', method: 'POST', path: '/api/v1/themes', scopes: ['themes:create'] },
  { operationId: 'getThemeSchema', method: 'GET', path: '/api/v1/themes/schema', scopes: ['themes:read'] },
  { operationId: 'getTheme', method: 'GET', path: '/api/v1/themes/{id}', scopes: ['themes:read'] },
  { operationId: 'updateTheme', method: 'PATCH', path: '/api/v1/themes/{id}', scopes: ['themes:write'] },
  { operationId: 'archiveTheme', method: 'DELETE', path: '/api/v1/themes/{id}', scopes: ['themes:write'] },
  { operationId: 'duplicateTheme', method: 'POST', path: '/api/v1/themes/{id}/duplicate', scopes: ['themes:create'] },
  { operationId: 'publishTheme', method: 'POST', path: '/api/v1/themes/{id}/publish', scopes: ['themes:publish'] },
  {
    operationId: 'createThemePreviewToken',
    method: 'POST',
    path: '/api/v1/themes/{id}/preview-token',
    scopes: ['themes:read', 'themes:preview'],
  },
  { operationId: 'applyThemeBatch', method: 'POST', path: '/api/v1/themes/{id}/batch', scopes: ['themes:write'] },
  { operationId: 'listThemePages', method: 'GET', path: '/api/v1/themes/{id}/pages', scopes: ['themes:read'] },
  {
    operationId: 'createThemePage',
    method: 'POST',
    path: '/api/v1/themes/{id}/pages',
    scopes: ['themes:write', 'pages:write'],
  },
  {
    operationId: 'updateThemePage',
    method: 'PATCH',
    path: '/api/v1/themes/{id}/pages/{pageId}',
    scopes: ['themes:write', 'pages:write'],
  },
  {
    operationId: 'deleteThemePage',
    method: 'DELETE',
    path: '/api/v1/themes/{id}/pages/{pageId}',
    scopes: ['themes:write', 'pages:write'],
  },
  { operationId: 'listThemeSections', method: 'GET', path: '/api/v1/themes/{id}/sections', scopes: ['themes:read'] },
  { operationId: 'createThemeSection', method: 'POST', path: '/api/v1/themes/{id}/sections', scopes: ['themes:write'] },
  {
    operationId: 'updateThemeSection',
    method: 'PATCH',
    path: '/api/v1/themes/{id}/sections/{sectionId}',
    scopes: ['themes:write'],
  },
  {
    operationId: 'deleteThemeSection',
    method: 'DELETE',
    path: '/api/v1/themes/{id}/sections/{sectionId}',
    scopes: ['themes:write'],
  },
  // History, v1 additions (contract-decisions.md, "History").
  { operationId: 'listThemeVersions', method: 'GET', path: '/api/v1/themes/{id}/versions', scopes: ['themes:read'] },
  {
    operationId: 'getThemeVersion',
    method: 'GET',
    path: '/api/v1/themes/{id}/versions/{version}',
    scopes: ['themes:read'],
  },
  { operationId: 'diffTheme', method: 'GET', path: '/api/v1/themes/{id}/diff', scopes: ['themes:read'] },
  { operationId: 'blameTheme', method: 'GET', path: '/api/v1/themes/{id}/blame', scopes: ['themes:read'] },
  { operationId: 'revertTheme', method: 'POST', path: '/api/v1/themes/{id}/revert', scopes: ['themes:write'] },
  // Theme checks, v1.2 additions (contract-decisions.md, "v1.2 additions").
  { operationId: 'getThemeChecks', method: 'GET', path: '/api/v1/themes/{id}/checks', scopes: ['themes:read'] },
]

// Rows of the same table served outside the operation catalog (by the MCP and OAuth adapters).
export const contractAdapterOperations: ContractOperation[] = [
  { operationId: 'mcpJsonRpc', method: 'POST', path: '/api/v1/mcp', scopes: [] },
  { operationId: 'mcpDiscovery', method: 'GET', path: '/api/v1/mcp', scopes: [] },
  { operationId: 'oauthToken', method: 'POST', path: '/api/oauth/token', scopes: [] },
]

export const contractOperation = (operationId: string): ContractOperation => {
  const found = contractOperations.find((o) => o.operationId === operationId)
  if (!found) throw new Error(`${operationId} is not in the contract table`)
  return found
}
