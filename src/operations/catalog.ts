import type { OperationDefinition } from './operation.ts'
import { getContextOperation } from './context-operation.ts'
import * as commerce from './commerce-operations.ts'
import * as media from './media-navigation-operations.ts'
import * as themes from './theme-operations.ts'
import * as content from './theme-content-operations.ts'
import * as history from './theme-history-operations.ts'
import { getThemeChecksOperation } from './theme-check-operations.ts'

// Every operation of the contract, in the contract's order. REST routes, the OpenAPI document
// and the MCP tools are all generated from this list.
export const operations: readonly OperationDefinition[] = [
  getContextOperation,
  commerce.getStoreOperation,
  commerce.getStoreSettingsOperation,
  commerce.listProductsOperation,
  commerce.getProductOperation,
  commerce.listCollectionsOperation,
  commerce.getCollectionOperation,
  commerce.listOrdersOperation,
  commerce.getOrderOperation,
  commerce.listCustomersOperation,
  commerce.getCheckoutOperation,
  media.listMediaOperation,
  media.uploadMediaOperation,
  media.getNavigationOperation,
  media.updateNavigationOperation,
  themes.listThemesOperation,
  themes.createThemeOperation,
  themes.getThemeSchemaOperation,
  themes.getThemeOperation,
  themes.updateThemeOperation,
  themes.archiveThemeOperation,
  themes.duplicateThemeOperation,
  themes.publishThemeOperation,
  themes.createThemePreviewTokenOperation,
  themes.applyThemeBatchOperation,
  getThemeChecksOperation,
  content.listThemePagesOperation,
  content.createThemePageOperation,
  content.updateThemePageOperation,
  content.deleteThemePageOperation,
  content.listThemeSectionsOperation,
  content.createThemeSectionOperation,
  content.updateThemeSectionOperation,
  content.deleteThemeSectionOperation,
  history.listThemeVersionsOperation,
  history.getThemeVersionOperation,
  history.diffThemeOperation,
  history.blameThemeOperation,
  history.revertThemeOperation,
] as OperationDefinition[]
