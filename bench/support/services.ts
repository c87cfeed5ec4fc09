import type { Kysely } from 'kysely'
import { pino } from 'pino'
import { loadConfig } from '../../src/config.ts'
import type { CommandContext } from '../../src/commands/context.ts'
import type { Database } from '../../src/db/database.ts'
import { DEMO_STORE_IDS } from '../../src/seed/demo-catalog.ts'
import { seedDemo, type DemoKey } from '../../src/seed/seed-demo.ts'
import { createServices, type Services } from '../../src/services.ts'
import { createTheme } from '../../src/commands/theme.ts'
import type { Edit } from '../../src/aggregates/theme/edits.ts'
import { postgresChangeFeed } from '../../src/notifications/postgres-change-feed.ts'

export const BENCH_SIGNING_SECRET = 'bench-signing-secret-0123456789abcdef'

// The real services (createServices) on a bench database, seeded like `npm start` does. With
// `changeFeedUrl`, the change feed main.ts opens (credential cache and storefront probes in use),
// unless BENCH_CHANGE_FEED=off (every cache bypassed: one lookup per request, as before them).
export async function seededServices(
  db: Kysely<Database>,
  env: Record<string, string> = {},
  options: { changeFeedUrl?: string } = {},
): Promise<{ services: Services; keys: DemoKey[] }> {
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: 'http://storefront.bench',
    RATE_LIMIT_MAX: '1000000000',
    RATE_LIMIT_WINDOW_SECONDS: '60',
    SIGNING_SECRET: BENCH_SIGNING_SECRET,
    LOG_LEVEL: 'silent',
    ...env,
  })
  let changeFeed: ReturnType<typeof postgresChangeFeed> | undefined
  if (options.changeFeedUrl && process.env.BENCH_CHANGE_FEED !== 'off') {
    changeFeed = postgresChangeFeed({ connectionString: options.changeFeedUrl })
    await changeFeed.ready()
  }
  const services = createServices({
    config,
    db,
    signingSecret: BENCH_SIGNING_SECRET,
    logger: pino({ level: 'silent' }),
    ...(changeFeed ? { changeFeed } : {}),
  })
  const { keys } = await seedDemo(services)
  return { services, keys }
}

export const agentContext = (storeId: string, operation = 'applyThemeBatch'): CommandContext => ({
  storeId,
  actor: { kind: 'api_key', credentialId: 'key_bench', appId: 'app_bench' },
  channel: 'rest',
  operation,
})

// n draft themes spread over the given stores (a store holds at most 20 themes, one is the starter).
export async function draftThemes(
  services: Services,
  n: number,
  storeIds: readonly string[] = DEMO_STORE_IDS,
  name = 'Bench draft',
): Promise<{ themeId: string; storeId: string }[]> {
  const out: { themeId: string; storeId: string }[] = []
  for (let i = 0; i < n; i++) {
    const storeId = storeIds[i % storeIds.length]!
    const created = await createTheme(services.commands, agentContext(storeId, 'createTheme'), {
      name: `${name} ${i + 1}`,
      provider: 'bench',
    })
    if (!created.ok) throw new Error(`createTheme: ${created.error.code} ${created.error.message}`)
    out.push({ themeId: created.value.themeId, storeId })
  }
  return out
}

// Ten valid operations that leave the theme as it found them (apart from one heading), so a
// batch can be applied forever: three sections added, updated, moved, then deleted again.
export function tenOperations(i: number): Edit[] {
  const section = (id: string, heading: string) => ({
    id,
    type: 'rich-text',
    settings: { heading, body: `<p>Section ${id}, batch ${i}.</p>`, alignment: 'left', width: 'narrow' },
  })
  return [
    { op: 'createSection', target: { template: 'home' }, index: 0, section: section('bench-a', 'First') },
    { op: 'createSection', target: { template: 'home' }, section: section('bench-b', 'Second') },
    { op: 'createSection', target: { template: 'home' }, section: section('bench-c', 'Third') },
    { op: 'updateSection', sectionId: 'bench-a', settings: { heading: `First, edited in batch ${i}` } },
    { op: 'updateSection', sectionId: 'home-about', settings: { heading: `About us (${i})` } },
    { op: 'moveSection', sectionId: 'bench-c', index: 0 },
    { op: 'moveSection', sectionId: 'bench-a', index: 2 },
    { op: 'deleteSection', sectionId: 'bench-a' },
    { op: 'deleteSection', sectionId: 'bench-b' },
    { op: 'deleteSection', sectionId: 'bench-c' },
  ] as Edit[]
}

// Ten updateSection operations on fixed sections of the starter document: repeatable forever,
// and each request's outcome does not depend on any other request's.
export function tenSettingUpdates(i: number): Edit[] {
  const ids = ['home-hero', 'home-products', 'home-about']
  return Array.from({ length: 10 }, (_, k) => {
    const sectionId = ids[k % ids.length]!
    const settings =
      sectionId === 'home-products' ? { heading: `New arrivals ${i}.${k}` } : { heading: `Heading ${i}.${k}` }
    return { op: 'updateSection', sectionId, settings } as Edit
  })
}
