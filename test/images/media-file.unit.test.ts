import t from 'tap'
import { derivativePath, derivativeWidths, parseMediaFile } from '../../src/images/variants.ts'

// Every copy address the pages link is one the media route accepts: an image narrower than ten
// pixels has a copy at its own width (1w ... 9w), as any other.
const SHA = 'a'.repeat(64)

t.test('every width a page links parses back', async (t) => {
  for (const original of [1, 9, 10, 161, 2000, 5000])
    for (const width of derivativeWidths(original))
      t.same(
        parseMediaFile(derivativePath(SHA, width, 'avif').slice('/media/'.length)),
        { kind: 'derivative', sha256: SHA, width, format: 'avif' },
        `${original} px wide: its ${width} px copy`,
      )
  t.same(parseMediaFile(`${SHA}.png`), { kind: 'original', sha256: SHA })
  t.equal(parseMediaFile(`${SHA}-0w.avif`), null, 'no zero width')
  t.equal(parseMediaFile(`${SHA}-123456w.avif`), null, 'no six-digit width')
})
