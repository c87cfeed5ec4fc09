import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freshDatabase, testDatabaseKind } from '../support/database.ts'
import { inProcessCli, spawnedCli } from './support.ts'

// The CLIs as an operator runs them, on the same database.
t.test('seed, keys, audit, projections and activity from the command line', async (t) => {
  const env: Record<string, string> = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    SIGNING_SECRET: 'cli-test-secret-0123456789abcdefghij',
  } as Record<string, string>
  delete env.DATABASE_URL
  if (testDatabaseKind === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'sfts-cli-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    env.DATA_DIR = dir
  } else {
    const { url } = await freshDatabase(t)
    env.DATABASE_URL = url!
  }
  // The seed in a process of its own, as an operator runs it; the other commands in this process
  // (test/cli/support.ts): the same code past the process start, without its seconds of loading.
  const cli = inProcessCli(env)
  const seeded = await spawnedCli(env)('seed')
  t.equal(seeded.code, 0, seeded.stderr)
  t.match(seeded.stdout, /seeded st_demo_atlas/)
  t.match(seeded.stdout, /sk_live_[0-9A-Za-z]{43}/)
  const again = await cli('seed')
  t.equal(again.code, 1, 'a second seed is refused')
  t.match(again.stderr, /already has stores/)

  const created = await cli('keys', [
    'create',
    '--store',
    'st_demo_atlas',
    '--scopes',
    'themes:read,store:read',
    '--name',
    'ci',
  ])
  t.equal(created.code, 0, created.stderr)
  const key = created.stdout.trim()
  t.match(key, /^sk_live_[0-9A-Za-z]{43}$/)
  const listed = await cli('keys', ['list', '--store', 'st_demo_atlas'])
  t.notOk(listed.stdout.includes(key), 'listing never shows a key')
  t.match(
    listed.stdout,
    new RegExp(`sk_live_…${key.slice(-4)}`),
    'the key by its hint: prefix and last four characters',
  )
  t.equal(
    (await cli('keys', ['create', '--store', 'st_demo_atlas', '--scopes', 'themes:everything'])).code,
    1,
    'unknown scopes are refused',
  )

  const exported = await cli('audit', ['export', '--store', 'st_demo_atlas'])
  t.equal(exported.code, 0, exported.stderr)
  const events = exported.stdout
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          storeId: string
          type: string
          globalPosition: number
          streamId: string
          metadata: { channel: string }
        },
    )
  t.ok(events.length > 5)
  t.ok(
    events.every((e) => e.storeId === 'st_demo_atlas'),
    'only the store’s events',
  )
  t.ok(events.every((e) => e.metadata.channel === 'seed'))
  const createdEvent = events.find((e) => e.type === 'ThemeCreated')!
  const publishedEvent = events.find((e) => e.type === 'ThemePublished')!
  const themeId = createdEvent.streamId.slice('theme-'.length)
  const stream = await cli('audit', ['export', '--stream', createdEvent.streamId])
  // The seed creates the Starter theme, applies the store's design in one batch, publishes it.
  const types = stream.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).type as string)
  t.equal(types[0], 'ThemeCreated')
  t.equal(types.at(-1), 'ThemePublished')
  t.ok(
    types.includes('ThemeTokensUpdated') && types.includes('PageCreated'),
    'the design batch: tokens, sections, pages',
  )

  const early = JSON.parse(
    (await cli('audit', ['theme-at', '--theme', themeId, '--position', String(createdEvent.globalPosition)])).stdout,
  )
  t.match(early, { themeId, status: 'draft', version: 1, asOf: { globalPosition: createdEvent.globalPosition } })
  const late = JSON.parse(
    (await cli('audit', ['theme-at', '--theme', themeId, '--position', String(publishedEvent.globalPosition)])).stdout,
  )
  t.match(late, { status: 'active', version: types.length })
  t.not(late.document.theme.primaryColor, early.document.theme.primaryColor, 'the document as of each point in time')
  t.equal(
    (await cli('audit', ['theme-at', '--theme', themeId, '--time', '2000-01-01T00:00:00Z'])).code,
    1,
    'before it existed',
  )

  const rebuilt = await cli('projections', ['rebuild'])
  t.equal(rebuilt.code, 0, rebuilt.stderr)
  t.match(rebuilt.stderr, /themes: rebuilt from \d+ events/)
  t.match(rebuilt.stderr, /developer_activity: rebuilt/)
  const status = await cli('projections', ['status'])
  t.match(status.stdout, /themes\s+checkpoint \d+ of \d+/)
  t.equal((await cli('projections', ['rebuild', 'nope'])).code, 2)

  // The catalogue's change signal by hand: bump and rebuild the catalogue read models.
  const bumped = await cli('catalog', ['bump', '--store', 'st_demo_atlas'])
  t.equal(bumped.code, 0, bumped.stderr)
  t.match(bumped.stdout, /st_demo_atlas: catalog_version \d+, read models rebuilt/)
  t.match((await cli('catalog', ['bump', '--store', 'st_demo_atlas', '--lazy'])).stdout, /catalog_version \d+\n/)
  t.equal((await cli('catalog', ['bump', '--store', 'st_nope'])).code, 1, 'an unknown store')
  t.equal((await cli('catalog', [])).code, 2, 'usage')

  const activity = await cli('activity', ['--store', 'st_demo_atlas'])
  t.match(activity.stdout, /Published theme thm_\w+ to the live storefront/)
  t.match(activity.stdout, /applied\s+publishTheme\s+seed/)
})
