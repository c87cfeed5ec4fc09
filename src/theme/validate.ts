// Validation of theme documents and of their parts. Every problem is reported
// (not only the first), each with an API code and a path such as
// `templates.home[0].settings.heading`. Order: structure and field safety (zod),
// then key-level safety, then references, then whole-document rules.
import type { z } from 'zod'
import {
  LIMITS,
  type Placement,
  PLACEMENTS,
  COLLECTION_REFERENCE_HINT,
  PRODUCT_REFERENCE_HINT,
  REFERENCE_ID_PATTERN,
  REFERENCE_KEYS,
  SCHEMA_HINT,
  TEMPLATE_NAMES,
  type TemplateName,
} from './constants.ts'
import {
  navigationSchema,
  pageSchema,
  themeDocumentSchema,
  themeTokensSchema,
  type NavigationEntry,
  type Page,
  type Section,
  type ThemeDocument,
  type ThemeTokens,
} from './document.ts'
import { dedupeIssues, errorCodeFor, isPlainObject, issue, joinPath, type IssueCode, type PathSegment, type ValidationIssue } from './issues.ts'
import { isSectionType, REQUIRED_TEMPLATE_SECTION, SECTION_CATALOGUE, SECTION_TYPES, sectionSchema } from './sections.ts'
import { ALLOWED_KEYS_PREFIX, type IssueParams } from './sections/fields.ts'

export { errorCodeFor }
export type { IssueCode, ValidationIssue }

export type KnownReferences = { productIds: ReadonlySet<string>; collectionIds: ReadonlySet<string> }

type Failure = { ok: false; issues: ValidationIssue[] }

// --- key-level rules ------------------------------------------------------

// Words that mark commerce data. Matching whole words (from camelCase, snake_case
// or kebab-case) keeps display keys such as `productsPerPage` legal.
const COMMERCE_WORDS: ReadonlySet<string> = new Set([
  'price',
  'prices',
  'pricing',
  'cost',
  'costs',
  'inventory',
  'inventories',
  'stock',
  'stocks',
  'quantity',
  'quantities',
  'qty',
  'sku',
  'skus',
  'available',
  'availability',
  'msrp',
])

// All-lowercase spellings that cannot be split into words.
const COMMERCE_COMPOUNDS: ReadonlySet<string> = new Set([
  'compareat',
  'compareatprice',
  'saleprice',
  'regularprice',
  'unitprice',
  'costprice',
  'pricecents',
  'instock',
  'outofstock',
  'stocklevel',
  'stockcount',
  'stockquantity',
  'onhand',
  'inventoryquantity',
  'inventorycount',
  'availablequantity',
  'availableforsale',
  'quantityavailable',
])

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
}

export function isCommerceKey(key: string): boolean {
  const normalized = key.toLowerCase().replace(/[^a-z0-9]/g, '')
  return COMMERCE_COMPOUNDS.has(normalized) || keyWords(key).some((word) => COMMERCE_WORDS.has(word))
}

// Keys that only exist to smuggle markup, styles or code into a renderer.
const UNSAFE_KEYS: ReadonlySet<string> = new Set([
  'dangerouslysetinnerhtml',
  'innerhtml',
  'outerhtml',
  'srcdoc',
  'script',
  'scripts',
  'html',
  'rawhtml',
  'customhtml',
  'customjs',
  'customcss',
  'css',
  'style',
  'styles',
  'javascript',
  'js',
  'jsx',
  'component',
  'iframe',
  'embed',
  'eval',
])

export function isUnsafeKey(key: string): boolean {
  const lower = key.toLowerCase()
  return /^on[a-z]{3,}$/.test(lower) || UNSAFE_KEYS.has(lower.replace(/[^a-z0-9]/g, ''))
}

// Theme documents are about eight levels deep; anything far deeper is hostile
// and must not cost a deep recursion.
const MAX_DEPTH = 32

type Visit = (key: string | number, value: unknown, segments: PathSegment[]) => 'skip' | undefined

function walk(root: unknown, visit: Visit): PathSegment[] | null {
  const stack: Array<{ value: unknown; segments: PathSegment[] }> = [{ value: root, segments: [] }]
  // Parsed JSON never shares objects, but values built in code may, even cyclically.
  const seen = new WeakSet<object>()
  let tooDeep: PathSegment[] | null = null
  while (stack.length > 0) {
    const { value, segments } = stack.pop() as { value: unknown; segments: PathSegment[] }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue
    seen.add(value)
    if (segments.length >= MAX_DEPTH) {
      tooDeep ??= segments
      continue
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(value)
      ? value.map((item, index): [number, unknown] => [index, item])
      : Object.entries(value)
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string | number, unknown]
      const childSegments = [...segments, key]
      if (visit(key, child, childSegments) !== 'skip') stack.push({ value: child, segments: childSegments })
    }
  }
  return tooDeep
}

function nestingIssue(path: string): ValidationIssue {
  return issue(path, 'VALIDATION_FAILED', `Value is nested more than ${MAX_DEPTH} levels deep`)
}

type FoundReference = { kind: 'product' | 'collection'; id: string; segments: PathSegment[] }

function referencesIn(key: string | number, value: unknown, segments: PathSegment[]): FoundReference[] {
  if (typeof key !== 'string' || !Object.hasOwn(REFERENCE_KEYS, key)) return []
  const kind = REFERENCE_KEYS[key as keyof typeof REFERENCE_KEYS]
  if (typeof value === 'string') return [{ kind, id: value, segments }]
  if (!Array.isArray(value)) return []
  return value.flatMap((item, index) => (typeof item === 'string' ? [{ kind, id: item, segments: [...segments, index] }] : []))
}

/** Every product and collection id referenced anywhere in a JSON value (under productId, productIds, collectionId, collectionIds). */
export function collectReferences(value: unknown): { productIds: Set<string>; collectionIds: Set<string> } {
  const productIds = new Set<string>()
  const collectionIds = new Set<string>()
  walk(value, (key, child, segments) => {
    for (const found of referencesIn(key, child, segments)) (found.kind === 'product' ? productIds : collectionIds).add(found.id)
    return undefined
  })
  return { productIds, collectionIds }
}

type KeyScan = { issues: ValidationIssue[]; references: ValidationIssue[]; flaggedPaths: Set<string> }

const COMMERCE_HINT =
  'Reference products by productId/productIds and collections by collectionId/collectionIds; the storefront reads price, stock and availability from the catalog at render time.'

function scanKeys(root: unknown, prefix: string, known: KnownReferences | null): KeyScan {
  const issues: ValidationIssue[] = []
  const references: ValidationIssue[] = []
  const flaggedPaths = new Set<string>()
  const tooDeep = walk(root, (key, value, segments) => {
    if (typeof key === 'string') {
      const path = joinPath(prefix, segments)
      if (isCommerceKey(key)) {
        flaggedPaths.add(path)
        issues.push(issue(path, 'COMMERCE_DATA_FORBIDDEN', `'${key}' is commerce data; themes never store price, stock, inventory, quantity or SKU values`, COMMERCE_HINT))
        return 'skip'
      }
      if (isUnsafeKey(key)) {
        flaggedPaths.add(path)
        issues.push(issue(path, 'UNSAFE_CONTENT', `'${key}' would carry code, markup or styles; themes contain no scripts, event handlers or raw HTML`, SCHEMA_HINT))
        return 'skip'
      }
    }
    if (known !== null && typeof key === 'string') {
      for (const found of referencesIn(key, value, segments)) {
        if (!REFERENCE_ID_PATTERN.test(found.id)) continue // malformed ids are reported by the schema
        const path = joinPath(prefix, found.segments)
        if (found.kind === 'product' && !known.productIds.has(found.id)) {
          references.push(issue(path, 'INVALID_PRODUCT_REFERENCE', `No product with id '${found.id}' exists in this store`, PRODUCT_REFERENCE_HINT))
        }
        if (found.kind === 'collection' && !known.collectionIds.has(found.id)) {
          references.push(issue(path, 'INVALID_COLLECTION_REFERENCE', `No collection with id '${found.id}' exists in this store`, COLLECTION_REFERENCE_HINT))
        }
      }
    }
    return undefined
  })
  if (tooDeep !== null) issues.push(nestingIssue(joinPath(prefix, tooDeep)))
  return { issues, references, flaggedPaths }
}

// --- zod issues ------------------------------------------------------------

function valueAt(root: unknown, segments: readonly PropertyKey[]): unknown {
  let current = root
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<PropertyKey, unknown>)[segment]
  }
  return current
}

function toSegments(path: readonly PropertyKey[]): PathSegment[] {
  return path.map((segment) => (typeof segment === 'number' ? segment : String(segment)))
}

function fromZod(error: z.ZodError, prefix: string, root: unknown, flaggedPaths: ReadonlySet<string>): ValidationIssue[] {
  const out: ValidationIssue[] = []
  for (const raw of error.issues) {
    const segments = toSegments(raw.path)
    const path = joinPath(prefix, segments)
    switch (raw.code) {
      case 'custom': {
        const params = (raw.params ?? {}) as Partial<IssueParams>
        out.push(issue(path, params.code ?? 'VALIDATION_FAILED', raw.message, params.hint))
        break
      }
      case 'unrecognized_keys': {
        const listsAllowed = raw.message.startsWith(ALLOWED_KEYS_PREFIX)
        for (const key of raw.keys) {
          const keyPath = joinPath(path, [key])
          if (flaggedPaths.has(keyPath)) continue // reported with a more specific code
          out.push(listsAllowed ? issue(keyPath, 'VALIDATION_FAILED', `Unknown key '${key}'`, raw.message) : issue(keyPath, 'VALIDATION_FAILED', raw.message))
        }
        break
      }
      case 'invalid_union': {
        if ('note' in raw && raw.note === 'No matching discriminator') {
          const value = valueAt(root, raw.path)
          out.push(
            issue(
              path,
              'VALIDATION_FAILED',
              value === undefined ? 'Section type is missing' : `Unknown section type ${JSON.stringify(value)}`,
              `Section types: ${SECTION_TYPES.join(', ')}. ${SCHEMA_HINT}`,
            ),
          )
        } else out.push(issue(path, 'VALIDATION_FAILED', raw.message))
        break
      }
      case 'invalid_type': {
        const missing = valueAt(root, raw.path) === undefined
        out.push(issue(path, 'VALIDATION_FAILED', missing ? `Required ${raw.expected} is missing` : raw.message))
        break
      }
      case 'too_big': {
        const limit: IssueCode = raw.origin === 'array' || raw.origin === 'set' ? 'LIMIT_EXCEEDED' : 'VALIDATION_FAILED'
        out.push(issue(path, limit, raw.message))
        break
      }
      default:
        out.push(issue(path, 'VALIDATION_FAILED', raw.message))
    }
  }
  return out
}

// --- structural rules outside zod -------------------------------------------

function placementLabel(placement: Placement): string {
  return placement === 'page' ? 'custom pages' : `the ${placement} template`
}

/** Placement and block-id rules for one (raw) section. */
function sectionRules(section: unknown, path: string, placement: Placement): ValidationIssue[] {
  if (!isPlainObject(section)) return []
  const issues: ValidationIssue[] = []
  const type = section.type
  if (isSectionType(type)) {
    const allowed = SECTION_CATALOGUE[type].templates as readonly Placement[]
    if (!allowed.includes(placement)) {
      issues.push(
        issue(
          joinPath(path, ['type']),
          'VALIDATION_FAILED',
          `Section type '${type}' cannot be used in ${placementLabel(placement)}`,
          `'${type}' is allowed in: ${allowed.map(placementLabel).join(', ')}.`,
        ),
      )
    }
  }
  if (Array.isArray(section.blocks)) {
    const seen = new Map<string, number>()
    section.blocks.forEach((block, index) => {
      const id = isPlainObject(block) ? block.id : undefined
      if (typeof id !== 'string') return
      const first = seen.get(id)
      if (first !== undefined) {
        issues.push(issue(joinPath(path, ['blocks', index, 'id']), 'VALIDATION_FAILED', `Block id '${id}' is already used by blocks[${first}] of this section`))
      } else seen.set(id, index)
    })
    if (section.blocks.length > LIMITS.blocksPerSection) {
      issues.push(issue(joinPath(path, ['blocks']), 'LIMIT_EXCEEDED', `Too many blocks in this section: ${section.blocks.length}; the limit is ${LIMITS.blocksPerSection}`))
    }
  }
  return issues
}

function layoutRules(layout: unknown, path: string, placement: Placement, sectionIds: Map<string, string>): ValidationIssue[] {
  if (!Array.isArray(layout)) return []
  const issues: ValidationIssue[] = []
  if (layout.length > LIMITS.sectionsPerLayout) {
    issues.push(issue(path, 'LIMIT_EXCEEDED', `Too many sections in this layout: ${layout.length}; the limit is ${LIMITS.sectionsPerLayout}`))
  }
  layout.forEach((section, index) => {
    const sectionPath = joinPath(path, [index])
    issues.push(...sectionRules(section, sectionPath, placement))
    const id = isPlainObject(section) ? section.id : undefined
    if (typeof id !== 'string') return
    const first = sectionIds.get(id)
    if (first !== undefined) {
      issues.push(
        issue(joinPath(sectionPath, ['id']), 'VALIDATION_FAILED', `Section id '${id}' is already used at ${first}`, 'Section ids are unique across the whole theme (all templates and pages).'),
      )
    } else sectionIds.set(id, sectionPath)
  })
  return issues
}

function jsonBytes(value: unknown): number | null {
  try {
    const json = JSON.stringify(value)
    return json === undefined ? null : new TextEncoder().encode(json).length
  } catch {
    return null // cycles or values JSON cannot hold; reported by the caller
  }
}

function sizeIssue(bytes: number): ValidationIssue {
  return issue(
    '',
    'LIMIT_EXCEEDED',
    `The theme document is ${bytes} bytes as JSON; the limit is ${LIMITS.documentBytes} bytes (512 KiB)`,
    'Shorten long texts or remove sections or pages.',
  )
}

function uniqueAcrossPages(pages: unknown[], key: 'id' | 'slug'): ValidationIssue[] {
  const seen = new Map<string, number>()
  const issues: ValidationIssue[] = []
  pages.forEach((page, index) => {
    const value = isPlainObject(page) ? page[key] : undefined
    if (typeof value !== 'string') return
    const first = seen.get(value)
    if (first !== undefined) {
      issues.push(issue(`pages[${index}].${key}`, 'VALIDATION_FAILED', `Page ${key} '${value}' is already used by pages[${first}]`))
    } else seen.set(value, index)
  })
  return issues
}

function wholeDocumentRules(doc: unknown, bytes: number | null): ValidationIssue[] {
  if (!isPlainObject(doc)) return []
  const issues: ValidationIssue[] = []
  if (bytes !== null && bytes > LIMITS.documentBytes) issues.push(sizeIssue(bytes))
  const sectionIds = new Map<string, string>()
  const templates = isPlainObject(doc.templates) ? doc.templates : {}
  for (const template of TEMPLATE_NAMES) {
    const layout = templates[template]
    issues.push(...layoutRules(layout, `templates.${template}`, template, sectionIds))
    if (template !== 'home' && Array.isArray(layout)) {
      const required = REQUIRED_TEMPLATE_SECTION[template]
      const count = layout.filter((section) => isPlainObject(section) && section.type === required).length
      if (count !== 1) {
        issues.push(
          issue(
            `templates.${template}`,
            'VALIDATION_FAILED',
            `The ${template} template must contain exactly one '${required}' section (found ${count})`,
            `'${required}' renders the ${template === 'blogPost' ? 'blog post' : template} itself; without it the page is empty.`,
          ),
        )
      }
    }
  }
  if (Array.isArray(doc.pages)) {
    if (doc.pages.length > LIMITS.pagesPerTheme) {
      issues.push(issue('pages', 'LIMIT_EXCEEDED', `Too many pages: ${doc.pages.length}; the limit is ${LIMITS.pagesPerTheme}`))
    }
    doc.pages.forEach((page, index) => {
      if (isPlainObject(page)) issues.push(...layoutRules(page.layout, `pages[${index}].layout`, 'page', sectionIds))
    })
    issues.push(...uniqueAcrossPages(doc.pages, 'id'), ...uniqueAcrossPages(doc.pages, 'slug'))
  }
  return issues
}

/** Whole-document rules: size, counts, unique section ids across the theme, unique page ids and slugs, required template sections, placements. */
export function documentIssues(doc: ThemeDocument): ValidationIssue[] {
  return dedupeIssues(wholeDocumentRules(doc, jsonBytes(doc)))
}

// --- public validators -------------------------------------------------------

type Parsed<T> = { success: true; data: T } | { success: false; error: z.ZodError }

function finish<T>(parsed: Parsed<T>, issues: ValidationIssue[]): { ok: true; value: T } | Failure {
  const unique = dedupeIssues(issues)
  if (unique.length > 0) return { ok: false, issues: unique }
  if (!parsed.success) return { ok: false, issues: fromZod(parsed.error, '', undefined, new Set()) }
  return { ok: true, value: parsed.data }
}

function collect<T>(value: unknown, prefix: string, parsed: Parsed<T>, known: KnownReferences | null, extra: ValidationIssue[] = []) {
  const scan = scanKeys(value, prefix, known)
  const zodIssues = parsed.success ? [] : fromZod(parsed.error, prefix, value, scan.flaggedPaths)
  return finish(parsed, [...zodIssues, ...scan.issues, ...scan.references, ...extra])
}

// Bigger than this, the document is refused on size alone: validating it
// deeply would only spend time on something that can never be accepted.
const DEEP_VALIDATION_BYTES = LIMITS.documentBytes * 4

export function validateThemeDocument(doc: unknown, known: KnownReferences): { ok: true; document: ThemeDocument } | Failure {
  if (!isPlainObject(doc)) return { ok: false, issues: [issue('', 'VALIDATION_FAILED', 'The theme document must be a JSON object')] }
  // Checked before serializing: absurd nesting would overflow JSON.stringify's stack.
  const tooDeep = walk(doc, () => undefined)
  if (tooDeep !== null) return { ok: false, issues: [nestingIssue(joinPath('', tooDeep))] }
  const bytes = jsonBytes(doc)
  if (bytes === null) return { ok: false, issues: [issue('', 'VALIDATION_FAILED', 'The theme document is not JSON data (it is cyclic or holds values JSON cannot represent)')] }
  if (bytes > DEEP_VALIDATION_BYTES) return { ok: false, issues: [sizeIssue(bytes)] }
  const result = collect(doc, '', themeDocumentSchema.safeParse(doc), known, wholeDocumentRules(doc, bytes))
  return result.ok ? { ok: true, document: result.value } : result
}

export function validateSection(
  section: unknown,
  where: { path: string; template: TemplateName | 'page' },
  known: KnownReferences,
): { ok: true; section: Section } | Failure {
  const placement: Placement = PLACEMENTS.includes(where.template) ? where.template : 'page'
  const result = collect(section, where.path, sectionSchema.safeParse(section), known, sectionRules(section, where.path, placement))
  return result.ok ? { ok: true, section: result.value } : result
}

export function validatePage(page: unknown, path: string, known: KnownReferences): { ok: true; page: Page } | Failure {
  const layout = isPlainObject(page) ? page.layout : undefined
  const rules = layoutRules(layout, joinPath(path, ['layout']), 'page', new Map())
  const result = collect(page, path, pageSchema.safeParse(page), known, rules)
  return result.ok ? { ok: true, page: result.value } : result
}

export function validateTokens(tokens: unknown, path: string): { ok: true; tokens: ThemeTokens } | Failure {
  const result = collect(tokens, path, themeTokensSchema.safeParse(tokens), null)
  return result.ok ? { ok: true, tokens: result.value } : result
}

export function validateNavigation(nav: unknown, path: string): { ok: true; navigation: NavigationEntry[] } | Failure {
  const result = collect(nav, path, navigationSchema.safeParse(nav), null)
  return result.ok ? { ok: true, navigation: result.value } : result
}
