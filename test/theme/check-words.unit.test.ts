import t from 'tap'
import { RULE_IDS } from '../../src/checks/rules.ts'
import { operations } from '../../src/operations/catalog.ts'
import {
  CHECK_TEXTS,
  checkFix,
  checkTitle,
  SECTION_LABELS,
  SEVERITY_WORDS,
  severityCount,
} from '../../src/theme/merchant-texts.ts'

// The theme checks in a shop owner's words (src/theme/merchant-texts.ts): every rule has a title
// and a fix, and no fix a merchant reads names an agent's tool, an operation or a document path,
// whatever the finding's setting and section.

// The settings findings name (src/checks), and none.
const SETTINGS = [
  undefined,
  'theme.primaryColor',
  'theme.secondaryColor',
  'theme.theme',
  'overlayOpacity',
  'image.alt',
  'productId',
  'productIds',
  'collectionId',
  'collectionIds',
  'primaryButton.href',
  'primaryButton.label',
  'secondaryButton.href',
  'link',
  'href',
  'body',
  'text',
  'answer',
  'navigation[0]',
  'navigation[1].children[0]',
  'navigation[0].label',
]
const SECTION_TYPES = [undefined, ...Object.keys(SECTION_LABELS)]

const toolWords = new Set(
  operations.flatMap((op) => [op.operationId, ...[op.mcp ?? []].flat().map((tool) => tool.name)]),
)
// Batch operations and other names agents read; camelCase or snake_case words and dotted paths
// catch the rest.
const AGENTS_ONLY = /\b[a-z]+[A-Z][A-Za-z]*\b|\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z]+|\[\d+\]|listProducts|createPage/

t.test('every rule has a merchant title and fix', async (t) => {
  t.same(Object.keys(CHECK_TEXTS).sort(), [...RULE_IDS].sort(), 'one entry per rule, no more')
  for (const rule of RULE_IDS) {
    t.ok(checkTitle(rule).length > 0, `${rule}: a title`)
    t.ok(checkFix({ rule }).length > 0, `${rule}: a fix`)
  }
})

t.test('no fix names a tool, an operation or a document path', async (t) => {
  const bad: string[] = []
  for (const rule of RULE_IDS)
    for (const setting of SETTINGS)
      for (const sectionType of SECTION_TYPES)
        for (const blockId of [undefined, 'block-1']) {
          const text = `${checkTitle(rule)} ${checkFix({ rule, setting, blockId, ...(sectionType ? { sectionType } : {}) })}`
          const words = text.split(/[^A-Za-z_]+/)
          if (AGENTS_ONLY.test(text) || words.some((w) => toolWords.has(w)))
            bad.push(`${rule} ${setting ?? '-'} ${sectionType ?? '-'}: ${text}`)
        }
  t.same([...new Set(bad)].slice(0, 5), [])
})

t.test('the fixes send the merchant where the editor fixes it', async (t) => {
  const colour = checkFix({ rule: 'contrast', setting: 'theme.primaryColor', sectionType: 'hero' })
  t.match(colour, /In “Colours, font and logo”, pick a darker \(or much lighter\) main colour/)
  t.match(
    checkFix({ rule: 'contrast', setting: 'theme.secondaryColor', sectionType: 'announcement-bar' }),
    /second colour.*set this bar’s “Colours” to “Dark”/,
    'the announcement bar can also take the dark colours',
  )
  t.match(checkFix({ rule: 'contrast', setting: 'theme.theme' }), 'choose another “Style”')
  t.match(
    checkFix({ rule: 'broken-link', setting: 'primaryButton.href' }),
    'Choose a page for this link under “Main button › Link”',
  )
  t.match(checkFix({ rule: 'broken-link', setting: 'navigation[2]' }), 'In “Navigation”, choose a page for this link')
  t.match(checkFix({ rule: 'button-label', setting: 'secondaryButton.label' }), 'under “Second button”')
  t.match(checkFix({ rule: 'empty-link', setting: 'href', blockId: 'b1' }), 'Describe the picture')
  t.match(checkFix({ rule: 'empty-link', setting: 'body' }), 'In “Text”, select the words')
  t.match(checkFix({ rule: 'contrast-over-image', setting: 'overlayOpacity' }), 'Raise “Image darkening”')
  t.match(checkFix({ rule: 'empty-section', sectionType: 'faq' }), 'Add a question')
  t.match(checkFix({ rule: 'empty-section', sectionType: 'product-grid' }), '“Products to show”')
  t.match(checkFix({ rule: 'empty-section', sectionType: 'spacer' }), 'Fill in what it should show')
})

t.test('counts and severities in words', async (t) => {
  t.equal(severityCount('error', 1), '1 error')
  t.equal(severityCount('error', 3), '3 errors')
  t.equal(severityCount('warning', 2), '2 warnings')
  t.same(SEVERITY_WORDS, { error: 'Error', warning: 'Worth a look', info: 'Note' })
})
