import { readFileSync } from 'node:fs'
import { pino } from 'pino'
import t from 'tap'
import { createThemeChecker } from '../../src/checks/checker.ts'
import { parseHtml } from '../../src/checks/html.ts'
import { RULE_IDS, RULES } from '../../src/checks/rules.ts'
import { imagesFor } from '../../src/checks/weigh.ts'
import { mulberry32 } from '../../src/seed/images.ts'
import { AA_NON_TEXT, AA_NORMAL, contrastRatio, parseHex, toHex } from '../../src/theme/color.ts'
import { THEME_PRESETS } from '../../src/theme/constants.ts'
import { themePalette } from '../../src/theme/palette.ts'

t.test('every rule is documented with its id and severity', async (t) => {
  const doc = readFileSync(new URL('../../docs/theme-checks.md', import.meta.url), 'utf8')
  const documented = [...doc.matchAll(/^### `([a-z-]+)` \((error|warning|info)\)$/gm)].map((m) => [m[1], m[2]])
  t.same(
    documented,
    RULE_IDS.map((id) => [id, RULES[id].severity]),
    'docs/theme-checks.md has a section per rule, in the registry’s order',
  )
})

t.test('the file a 390 px screen loads: picture sources, srcset against sizes, src', async (t) => {
  const page = parseHtml(`
    <img src="/a.png">
    <img src="/b.png" srcset="/b-320.png 320w, /b-480.png 480w, /b-960.png 960w">
    <img src="/c.png" srcset="/c-320.png 320w, /c-480.png 480w" sizes="(max-width: 640px) 50vw, 33vw">
    <img src="/d.png" srcset="/d-1x.png 1x, /d-2x.png 2x">
    <picture><source type="image/avif" srcset="/e-480.avif 480w, /e-960.avif 960w"><img src="/e.png"></picture>
    <picture><source media="(min-width: 800px)" srcset="/f-wide.png"><img src="/f.png"></picture>
    <img src="/a.png" loading="lazy">`)
  t.same(imagesFor(page), ['/a.png', '/b-480.png', '/c-320.png', '/d-1x.png', '/e-480.avif', '/f.png'])
  t.same(imagesFor(page, 1280).slice(1, 3), ['/b-960.png', '/c-480.png'], 'a wider screen takes wider files')
})

t.test(
  'the palette derives muted text, links, control borders and the focus outline that read where they sit',
  async (t) => {
    const random = mulberry32(7)
    for (let i = 0; i < 300; i++) {
      const preset = THEME_PRESETS[i % THEME_PRESETS.length]!
      const colour = () => toHex([random() * 255, random() * 255, random() * 255])
      const p = themePalette({ preset, primaryColor: colour(), secondaryColor: colour() })
      for (const ground of [p.bg, p.surface, p.tint])
        for (const [name, ink, needed] of [
          ['muted', p.muted, AA_NORMAL],
          ['primaryInk', p.primaryInk, AA_NORMAL],
          ['control', p.control, AA_NON_TEXT],
          ['focus', p.focus, AA_NON_TEXT],
        ] as const)
          if (contrastRatio(parseHex(ink), parseHex(ground)) < needed)
            t.fail(`${preset} ${p.primary}: ${name} ${ink} on ${ground}`)
    }
    t.pass('300 random palettes')
  },
)

t.test('checks that fail report it instead of failing the change', async (t) => {
  const checker = createThemeChecker({
    read: {} as never,
    baseUrl: 'http://x.test',
    clock: () => new Date(),
    logger: pino({ level: 'silent' }),
  })
  const found = await checker.safely(async () => {
    throw new Error('database gone')
  })
  t.match(found, [{ rule: 'checks-unavailable', severity: 'info', template: 'theme' }])
})
