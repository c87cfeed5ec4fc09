// All the rules over one theme version: pure, from the gathered input (checker.ts) to findings.
import { imageAltFindings } from './content/images.ts'
import { documentLinks, linkFindings } from './content/links.ts'
import { emptySectionFindings, missingReferenceFindings, sectionCountFindings } from './content/sections.ts'
import { overImageFindings } from './contrast/over-image.ts'
import { contrastFindings } from './contrast/text-contrast.ts'
import type { Found } from './finding.ts'
import type { CheckInput } from './input.ts'
import { pageWeightFindings } from './page-weight.ts'

export function runChecks(input: CheckInput): Found[] {
  const { document: doc, catalogue } = input
  const pages = input.rendered
  return [
    ...contrastFindings(pages, doc.theme),
    ...overImageFindings(pages, input.images),
    ...imageAltFindings(doc, catalogue),
    ...linkFindings(doc, catalogue, documentLinks(doc)),
    ...missingReferenceFindings(doc, catalogue),
    ...emptySectionFindings(doc, catalogue, pages),
    ...pageWeightFindings(input.rendered),
    ...sectionCountFindings(doc),
  ]
}
