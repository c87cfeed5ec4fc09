// Public surface of the theme module (pure: no I/O, clocks or randomness).
export * from './constants.ts'
export {
  defaultThemeDocument,
  navigationEntrySchema,
  navigationSchema,
  pageSchema,
  templatesSchema,
  themeDocumentJsonSchema,
  themeDocumentSchema,
  themeTokensSchema,
  type NavigationEntry,
  type Page,
  type PageStatus,
  type Templates,
  type ThemeDocument,
  type ThemeTokens,
} from './document.ts'
export {
  isSectionType,
  REQUIRED_TEMPLATE_SECTION,
  SECTION_CATALOGUE,
  SECTION_TYPES,
  sectionCatalogueJsonSchema,
  sectionSchema,
  type Block,
  type JsonSchema,
  type Section,
  type SectionCatalogueEntry,
  type SectionCatalogueJson,
  type SectionType,
} from './sections.ts'
export { findMarkup, RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS, sanitizeRichText, validateRichText } from './rich-text.ts'
export { dangerousScheme, urlProblem, type UrlProblem } from './url.ts'
export { themeSchemaDescription } from './schema-description.ts'
export {
  collectReferences,
  documentIssues,
  errorCodeFor,
  isCommerceKey,
  isUnsafeKey,
  validateNavigation,
  validatePage,
  validateSection,
  validateThemeDocument,
  validateTokens,
  type IssueCode,
  type KnownReferences,
  type ValidationIssue,
} from './validate.ts'
