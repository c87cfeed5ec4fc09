import { createHash } from 'node:crypto'
import { existsSync, openAsBlob, readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import type { Kysely } from 'kysely'
import pg from 'pg'
import { pino } from 'pino'
import { loadConfig } from '../../src/config.ts'
import { openPglite, openPostgres } from '../../src/db/connect.ts'
import type { Database } from '../../src/db/database.ts'
import { seedDemoCommerce } from '../../src/seed/seed-commerce.ts'
import { seedDemo } from '../../src/seed/seed-demo.ts'
import { createServices, prepareDatabase } from '../../src/services.ts'

// Template databases (docs/decisions/0069-template-databases-for-tests.md): the migrated schema,
// with the demo stores' catalogue, customers and orders (`commerce`), and with all `npm run seed`
// makes (`demo`), made once and copied for every test file instead of running the migrations and
// the seed again in each (the seed's product drawings alone are seconds of CPU). On PostgreSQL a template database cloned with
// CREATE DATABASE … TEMPLATE; on PGlite a dump of the data directory (dumpDataDir) that a new
// in-memory PGlite starts from (loadDataDir).
//
// A template's name carries a hash of everything that could change what it holds: every file
// under src/ (the migrations, the seed, and the commands and projections the seed goes through),
// package-lock.json (PostgreSQL in PGlite, sharp's images) and this file. An edit anywhere there
// names a new template, so a stale one is never cloned; old versions are dropped (KEEP_VERSIONS).

export type TemplateContents = 'migrated' | 'commerce' | 'demo'

// Each template is the one before it plus one step.
const STEPS: Record<
  TemplateContents,
  { after: TemplateContents | null; fill: (db: Kysely<Database>) => Promise<unknown> }
> = {
  migrated: { after: null, fill: prepareDatabase },
  commerce: { after: 'migrated', fill: seedDemoCommerce },
  demo: { after: 'commerce', fill: seed },
}

const ROOT = resolve(new URL('../..', import.meta.url).pathname)
// Versions of the code (hashes) whose templates are kept: other worktrees and branches test
// against the same server and the same temporary directory.
const KEEP_VERSIONS = 6
const hashOf = (name: string) => /([0-9a-f]{16})(\.tar)?$/.exec(name)?.[1] ?? ''
// The names of all but the newest KEEP_VERSIONS versions, given newest first.
const oldVersions = (names: string[]) => {
  const kept = new Set([...new Set(names.map(hashOf))].slice(0, KEEP_VERSIONS))
  return names.filter((name) => !kept.has(hashOf(name)))
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    return e.isDirectory() ? filesUnder(path) : [path]
  })
}

// The files a template is made from, relative to the project root, in a stable order.
export function templateSources(): string[] {
  return [
    ...filesUnder(join(ROOT, 'src')),
    join(ROOT, 'package-lock.json'),
    join(ROOT, 'test/support/template-database.ts'),
  ]
    .map((path) => relative(ROOT, path))
    .sort()
}

let hashed: string | undefined
export function templateHash(): string {
  if (hashed) return hashed
  const hash = createHash('sha256')
  for (const path of templateSources()) {
    hash.update(`${path}\0`)
    hash.update(readFileSync(join(ROOT, path)))
    hash.update('\0')
  }
  hashed = hash.digest('hex').slice(0, 16)
  return hashed
}

// A template's own step, on a database that holds the template before it
// (test/db/template-database.int.test.ts makes one from scratch step by step).
export async function fillStep(db: Kysely<Database>, contents: TemplateContents): Promise<void> {
  await STEPS[contents].fill(db)
}

// The demo stores as `npm run seed` and a first start make them (src/seed/seed-demo.ts). The seed
// reads no setting: the configuration only has to be valid.
async function seed(db: Kysely<Database>): Promise<void> {
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: 'http://storefront.test',
    SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
  })
  const services = createServices({
    config,
    db,
    signingSecret: config.signingSecret!,
    logger: pino({ level: 'silent' }),
  })
  await seedDemo(services)
  await services.close()
}

// ---- PostgreSQL

export const templateName = (contents: TemplateContents) => `sfts_tpl_${contents}_${templateHash()}`
const buildName = (template: string) => template.replace(/^sfts_tpl_/, 'sfts_tplbuild_')
const urlOf = (adminUrl: string, database: string) => {
  const url = new URL(adminUrl)
  url.pathname = `/${database}`
  return url.toString()
}

async function withAdmin<T>(adminUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    return await fn(admin)
  } finally {
    await admin.end()
  }
}

const exists = async (admin: pg.Client, name: string) =>
  (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1

// The template's name, made first if it does not exist. One builder per template at a time: the
// others wait on its advisory lock (held by the session, so released if the builder dies) and then
// find it. It is built under another name and renamed when complete, so a half-made template is
// never cloned.
export async function postgresTemplate(adminUrl: string, contents: TemplateContents): Promise<string> {
  const name = templateName(contents)
  return withAdmin(adminUrl, async (admin) => {
    if (await exists(admin, name)) return name
    await admin.query('select pg_advisory_lock(hashtextextended($1, 0))', [name])
    try {
      if (await exists(admin, name)) return name
      const build = buildName(name)
      await admin.query(`drop database if exists ${build} with (force)`)
      const { after, fill } = STEPS[contents]
      if (after) await admin.query(`create database ${build} template ${await postgresTemplate(adminUrl, after)}`)
      else await admin.query(`create database ${build}`)
      const opened = openPostgres(urlOf(adminUrl, build), 4)
      try {
        await fill(opened.db)
      } finally {
        await opened.close()
      }
      // A backend of the closed pool may still be on its way out; it would block the rename.
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [build])
      await admin.query(`alter database ${build} rename to ${name}`)
      await admin.query(`alter database ${name} with is_template true allow_connections false`)
      await dropOldTemplates(admin)
      return name
    } finally {
      await admin.query('select pg_advisory_unlock(hashtextextended($1, 0))', [name])
    }
  })
}

// Templates of old versions, and builds nobody is running, unless someone holds their lock.
async function dropOldTemplates(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `select datname from pg_database where datname like 'sfts\\_tpl\\_%' order by oid desc`,
  )
  const builds = await admin.query<{ datname: string }>(
    `select datname from pg_database where datname like 'sfts\\_tplbuild\\_%'`,
  )
  const templates = [
    ...oldVersions(rows.map((r) => r.datname)),
    ...builds.rows.map((r) => r.datname.replace(/^sfts_tplbuild_/, 'sfts_tpl_')),
  ]
  for (const template of templates) {
    const locked = await admin.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as ok', [
      template,
    ])
    if (!locked.rows[0]!.ok) continue
    try {
      for (const db of [template, buildName(template)]) {
        if (!(await exists(admin, db))) continue
        await admin.query(`alter database ${db} with is_template false`)
        await admin.query(`drop database if exists ${db} with (force)`)
      }
    } finally {
      await admin.query('select pg_advisory_unlock(hashtextextended($1, 0))', [template])
    }
  }
}

// A new database `name`, a copy of the template. A template dropped in between (by another
// worktree's run making room) is made again.
export async function cloneTemplate(adminUrl: string, contents: TemplateContents, name: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const template = await postgresTemplate(adminUrl, contents)
    try {
      await withAdmin(adminUrl, (admin) => admin.query(`create database ${name} template ${template}`))
      return urlOf(adminUrl, name)
    } catch (error) {
      if ((error as { code?: string }).code !== '3D000' || attempt >= 2) throw error
    }
  }
}

// ---- PGlite

const pgliteDir = join(tmpdir(), 'sfts-test-templates')

// The data directory of a PGlite holding the template, as a tarball in the system's temporary
// directory, made first if missing (one builder per file: a lock file with the builder's pid).
export async function pgliteTemplate(contents: TemplateContents): Promise<Blob> {
  const file = join(pgliteDir, `${contents}-${templateHash()}.tar`)
  if (!existsSync(file)) {
    await mkdir(pgliteDir, { recursive: true })
    await withLockFile(`${file}.lock`, async () => {
      if (existsSync(file)) return
      const { after, fill } = STEPS[contents]
      const opened = await openPglite(undefined, after ? await pgliteTemplate(after) : undefined)
      try {
        await fill(opened.db)
        // The dump is of a running server, started again by crash recovery from its last
        // checkpoint: one here, or the recovery would replay sequences' logged-ahead values (the
        // events' global positions would jump by 32 in every copy).
        await opened.pglite!.exec('checkpoint')
        const dump = await opened.pglite!.dumpDataDir('none')
        const partial = `${file}.${process.pid}`
        await writeFile(partial, new Uint8Array(await dump.arrayBuffer()))
        await rename(partial, file)
      } finally {
        await opened.close()
      }
      dropOldPgliteTemplates()
    })
  }
  return openAsBlob(file)
}

async function withLockFile(lock: string, fn: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 10 * 60_000
  for (;;) {
    try {
      const handle = await open(lock, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      break
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error
    }
    // A holder that died, or died before writing its pid, holds nothing.
    const holder = Number(await readFile(lock, 'utf8').catch(() => ''))
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
    if (holder ? !alive(holder) : age > 10_000) await rm(lock, { force: true })
    if (Date.now() > deadline) throw new Error(`${lock} held for 10 minutes by ${holder}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  try {
    await fn()
  } finally {
    await rm(lock, { force: true })
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM'
  }
}

function dropOldPgliteTemplates(): void {
  const tarballs = readdirSync(pgliteDir)
    .filter((n) => n.endsWith('.tar'))
    .map((n) => ({ name: n, mtime: statSync(join(pgliteDir, n)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)
  for (const name of oldVersions(tarballs.map((f) => f.name))) void rm(join(pgliteDir, name), { force: true })
}
