// Rules on keys rather than values, checked by walking the raw JSON: commerce
// data and code carriers are refused wherever they hide, and references are
// found under their four canonical keys.
import {
  COLLECTION_REFERENCE_HINT,
  PRODUCT_REFERENCE_HINT,
  REFERENCE_ID_PATTERN,
  REFERENCE_KEYS,
  SCHEMA_HINT,
} from './constants.ts'
import { joinPath, type PathSegment } from '../errors.ts'
import { issue, type ValidationIssue } from './issues.ts'
import type { ThemeDocument } from './document.ts'

export type KnownReferences = { productIds: ReadonlySet<string>; collectionIds: ReadonlySet<string> }

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
export const MAX_DEPTH = 32

// `at` is the path of the value being visited, its own key last. The walk reuses one array for
// every path (every command walks its sections, and a path object per node was most of the walk's
// allocations): it is valid during the visit only, and copied where something at it is reported.
type Visit = (key: string | number, value: unknown, at: readonly PathSegment[]) => 'skip' | undefined

const segmentsOf = (at: readonly PathSegment[], ...more: PathSegment[]): PathSegment[] => [...at, ...more]

export function walk(root: unknown, visit: Visit): PathSegment[] | null {
  const path: PathSegment[] = []
  // Parsed JSON never shares objects, but values built in code may, even cyclically.
  const seen = new WeakSet<object>()
  let tooDeep: PathSegment[] | null = null
  // A node's children are all visited (last to first), then entered (first to last), each subtree
  // whole before the next: the order of the issues a visitor reports.
  const enter = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return
    seen.add(value)
    if (path.length >= MAX_DEPTH) {
      tooDeep ??= [...path]
      return
    }
    const list = Array.isArray(value) ? (value as unknown[]) : null
    const keys = list ? null : Object.keys(value)
    const record = value as Record<string, unknown>
    const count = list ? list.length : keys!.length
    // Skipped children (a flagged key) are few: a list only when there is one, filled in
    // descending order and read from its end as the second loop goes up.
    let skipped: number[] | null = null
    let nextSkipped = -1
    for (let i = count - 1; i >= 0; i--) {
      const key = list ? i : keys![i]!
      path.push(key)
      if (visit(key, list ? list[i] : record[key], path) === 'skip') nextSkipped = (skipped ??= []).push(i) - 1
      path.pop()
    }
    for (let i = 0; i < count; i++) {
      if (nextSkipped >= 0 && skipped![nextSkipped] === i) {
        nextSkipped--
        continue
      }
      const key = list ? i : keys![i]!
      const child = list ? list[i] : record[key]
      if (typeof child !== 'object' || child === null) continue
      path.push(key)
      enter(child)
      path.pop()
    }
  }
  enter(root)
  return tooDeep
}

export function nestingIssue(path: string): ValidationIssue {
  return issue(path, 'VALIDATION_FAILED', `Value is nested more than ${MAX_DEPTH} levels deep`)
}

type FoundReference = { kind: 'product' | 'collection'; id: string; index: number | null }
const NONE: readonly FoundReference[] = []

// `index`: the position in a list of ids (productIds), null for a single id (productId).
function referencesIn(key: string | number, value: unknown): readonly FoundReference[] {
  if (typeof key !== 'string' || !Object.hasOwn(REFERENCE_KEYS, key)) return NONE
  const kind = REFERENCE_KEYS[key as keyof typeof REFERENCE_KEYS]
  if (typeof value === 'string') return [{ kind, id: value, index: null }]
  if (!Array.isArray(value)) return NONE
  return value.flatMap((item, index) => (typeof item === 'string' ? [{ kind, id: item, index }] : []))
}

type References = { productIds: Set<string>; collectionIds: Set<string> }

function addReferences(into: References, value: unknown): References {
  walk(value, (key, child) => {
    for (const found of referencesIn(key, child))
      (found.kind === 'product' ? into.productIds : into.collectionIds).add(found.id)
    return undefined
  })
  return into
}

/** Every product and collection id referenced anywhere in a JSON value (under productId, productIds, collectionId, collectionIds). */
export function collectReferences(value: unknown): References {
  return addReferences({ productIds: new Set(), collectionIds: new Set() }, value)
}

// A theme document's references, with those of `also` (the command about to change it). Each
// section's are kept while the section object lives: an edit replaces a few sections and the next
// document shares the others (structural sharing in the theme's state), so a command walks only
// what changed, not the whole document again.
const sectionReferences = new WeakMap<object, References>()

export function documentReferences(doc: ThemeDocument, also?: unknown): References {
  const into: References = { productIds: new Set(), collectionIds: new Set() }
  const sections = (layout: readonly object[]) => {
    for (const section of layout) {
      let found = sectionReferences.get(section)
      if (!found) sectionReferences.set(section, (found = collectReferences(section)))
      for (const id of found.productIds) into.productIds.add(id)
      for (const id of found.collectionIds) into.collectionIds.add(id)
    }
  }
  const { templates, pages, ...rest } = doc
  addReferences(into, rest)
  for (const layout of Object.values(templates)) sections(layout)
  for (const { layout, ...page } of pages) {
    addReferences(into, page)
    sections(layout)
  }
  return addReferences(into, also)
}

export type KeyScan = { issues: ValidationIssue[]; references: ValidationIssue[]; flaggedPaths: Set<string> }

const COMMERCE_HINT =
  'Reference products by productId/productIds and collections by collectionId/collectionIds; the storefront reads price, stock and availability from the catalog at render time.'

// What a key is, by its spelling alone. Documents use a small vocabulary of keys (heading,
// productIds, …) and every command scans its sections' keys: the answers are kept, so a key's
// words are split once, not on every command (split, they were a sixth of a batch's CPU in
// bench:api). Bounded; only short keys are kept.
type KeyClass = 'commerce' | 'unsafe' | null
const keyClasses = new Map<string, KeyClass>()
const KEY_CLASSES_MAX = 4096
function classOf(key: string): KeyClass {
  const known = keyClasses.get(key)
  if (known !== undefined) return known
  const found: KeyClass = isCommerceKey(key) ? 'commerce' : isUnsafeKey(key) ? 'unsafe' : null
  if (key.length <= 64) {
    if (keyClasses.size >= KEY_CLASSES_MAX) keyClasses.clear()
    keyClasses.set(key, found)
  }
  return found
}

// A flagged key's issue, by what the key is; its value is not looked into.
const FLAGGED = {
  commerce: {
    code: 'COMMERCE_DATA_FORBIDDEN',
    hint: COMMERCE_HINT,
    message: (key: string) =>
      `'${key}' is commerce data; themes never store price, stock, inventory, quantity or SKU values`,
  },
  unsafe: {
    code: 'UNSAFE_CONTENT',
    hint: SCHEMA_HINT,
    message: (key: string) =>
      `'${key}' would carry code, markup or styles; themes contain no scripts, event handlers or raw HTML`,
  },
} as const

export function scanKeys(root: unknown, prefix: string, known: KnownReferences | null): KeyScan {
  const issues: ValidationIssue[] = []
  const references: ValidationIssue[] = []
  const flaggedPaths = new Set<string>()
  const tooDeep = walk(root, (key, value, at) => {
    if (typeof key !== 'string') return undefined
    const found = classOf(key)
    if (found !== null) {
      const path = joinPath(prefix, segmentsOf(at))
      const flag = FLAGGED[found]
      flaggedPaths.add(path)
      issues.push(issue(path, flag.code, flag.message(key), flag.hint))
      return 'skip'
    }
    if (known !== null) {
      for (const found of referencesIn(key, value)) {
        if (!REFERENCE_ID_PATTERN.test(found.id)) continue // malformed ids are reported by the schema
        const path = () => joinPath(prefix, found.index === null ? segmentsOf(at) : segmentsOf(at, found.index))
        if (found.kind === 'product' && !known.productIds.has(found.id)) {
          references.push(
            issue(
              path(),
              'INVALID_PRODUCT_REFERENCE',
              `No product with id '${found.id}' exists in this store`,
              PRODUCT_REFERENCE_HINT,
            ),
          )
        }
        if (found.kind === 'collection' && !known.collectionIds.has(found.id)) {
          references.push(
            issue(
              path(),
              'INVALID_COLLECTION_REFERENCE',
              `No collection with id '${found.id}' exists in this store`,
              COLLECTION_REFERENCE_HINT,
            ),
          )
        }
      }
    }
    return undefined
  })
  if (tooDeep !== null) issues.push(nestingIssue(joinPath(prefix, tooDeep)))
  return { issues, references, flaggedPaths }
}
