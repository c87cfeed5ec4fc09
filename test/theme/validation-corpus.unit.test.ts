import t from 'tap'
import { KNOWN_REFS, MALICIOUS_DOCUMENTS } from '../fixtures/malicious-documents.ts'
import { defaultThemeDocument } from '../../src/theme/document.ts'
import { errorCodeFor, validateThemeDocument } from '../../src/theme/validate.ts'

t.test('the corpus is big and varied enough', async (t) => {
  t.ok(MALICIOUS_DOCUMENTS.length >= 70, `${MALICIOUS_DOCUMENTS.length} cases`)
  t.equal(new Set(MALICIOUS_DOCUMENTS.map((c) => c.name)).size, MALICIOUS_DOCUMENTS.length, 'names are unique')
  const codes = new Set(MALICIOUS_DOCUMENTS.map((c) => c.expectedCode))
  t.same([...codes].sort(), [
    'COMMERCE_DATA_FORBIDDEN',
    'INVALID_COLLECTION_REFERENCE',
    'INVALID_PRODUCT_REFERENCE',
    'LIMIT_EXCEEDED',
    'UNSAFE_CONTENT',
    'VALIDATION_FAILED',
  ])
  t.ok(
    validateThemeDocument(defaultThemeDocument(), KNOWN_REFS).ok,
    'the base document is valid with the corpus references',
  )
})

for (const testCase of MALICIOUS_DOCUMENTS) {
  t.test(testCase.name, async (t) => {
    const result = validateThemeDocument(testCase.document, KNOWN_REFS)
    t.notOk(result.ok, 'refused')
    if (result.ok) return
    const found = result.issues.find((i) => i.code === testCase.expectedCode && i.path === testCase.expectedPath)
    t.ok(
      found,
      `${testCase.expectedCode} at ${JSON.stringify(testCase.expectedPath)}`,
      found ? {} : { issues: result.issues },
    )
    t.equal(errorCodeFor(result.issues), testCase.expectedCode, 'top-level code')
    for (const issue of result.issues) t.ok(issue.message.length > 0, 'every issue has a message')
  })
}
