// Rules that span more than one field and so live outside zod: placement of
// sections, unique ids, required template sections, counts and document size.
// They read raw input defensively, so they can run even when the schema fails.
import { LIMITS, type Placement, TEMPLATE_NAMES } from './constants.ts'
import { joinPath } from '../errors.ts'
import { isPlainObject, issue, type ValidationIssue } from './issues.ts'
import { isSectionType, REQUIRED_TEMPLATE_SECTION, SECTION_CATALOGUE } from './sections.ts'

function placementLabel(placement: Placement): string {
  return placement === 'page' ? 'custom pages' : `the ${placement} template`
}

/** Placement and block-id rules for one (raw) section. */
export function sectionRules(section: unknown, path: string, placement: Placement): ValidationIssue[] {
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
        issues.push(
          issue(
            joinPath(path, ['blocks', index, 'id']),
            'VALIDATION_FAILED',
            `Block id '${id}' is already used by blocks[${first}] of this section`,
          ),
        )
      } else seen.set(id, index)
    })
    if (section.blocks.length > LIMITS.blocksPerSection) {
      issues.push(
        issue(
          joinPath(path, ['blocks']),
          'LIMIT_EXCEEDED',
          `Too many blocks in this section: ${section.blocks.length}; the limit is ${LIMITS.blocksPerSection}`,
        ),
      )
    }
  }
  return issues
}

export function layoutRules(
  layout: unknown,
  path: string,
  placement: Placement,
  sectionIds: Map<string, string>,
): ValidationIssue[] {
  if (!Array.isArray(layout)) return []
  const issues: ValidationIssue[] = []
  if (layout.length > LIMITS.sectionsPerLayout) {
    issues.push(
      issue(
        path,
        'LIMIT_EXCEEDED',
        `Too many sections in this layout: ${layout.length}; the limit is ${LIMITS.sectionsPerLayout}`,
      ),
    )
  }
  layout.forEach((section, index) => {
    const sectionPath = joinPath(path, [index])
    issues.push(...sectionRules(section, sectionPath, placement))
    const id = isPlainObject(section) ? section.id : undefined
    if (typeof id !== 'string') return
    const first = sectionIds.get(id)
    if (first !== undefined) {
      issues.push(
        issue(
          joinPath(sectionPath, ['id']),
          'VALIDATION_FAILED',
          `Section id '${id}' is already used at ${first}`,
          'Section ids are unique across the whole theme (all templates and pages).',
        ),
      )
    } else sectionIds.set(id, sectionPath)
  })
  return issues
}

export function jsonBytes(value: unknown): number | null {
  try {
    const json = JSON.stringify(value)
    return json === undefined ? null : Buffer.byteLength(json)
  } catch {
    return null // cycles or values JSON cannot hold; reported by the caller
  }
}

export function sizeIssue(bytes: number): ValidationIssue {
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
      issues.push(
        issue(
          `pages[${index}].${key}`,
          'VALIDATION_FAILED',
          `Page ${key} '${value}' is already used by pages[${first}]`,
        ),
      )
    } else seen.set(value, index)
  })
  return issues
}

export function wholeDocumentRules(doc: unknown, bytes: number | null): ValidationIssue[] {
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
      issues.push(
        issue('pages', 'LIMIT_EXCEEDED', `Too many pages: ${doc.pages.length}; the limit is ${LIMITS.pagesPerTheme}`),
      )
    }
    doc.pages.forEach((page, index) => {
      if (isPlainObject(page)) issues.push(...layoutRules(page.layout, `pages[${index}].layout`, 'page', sectionIds))
    })
    issues.push(...uniqueAcrossPages(doc.pages, 'id'), ...uniqueAcrossPages(doc.pages, 'slug'))
  }
  return issues
}
