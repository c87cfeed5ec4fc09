import t from 'tap'
import { signIn } from '../../src/auth/merchant-accounts.ts'
import { freshDatabase, templateDataDir, testDatabaseKind } from '../support/database.ts'
import { inProcessCli } from './support.ts'

// The operator's answer to a merchant who lost the password (the sign-in page names it):
// `npm run merchants -- reset-password --email <e>` prints a new password once, ends every
// session, and the new password signs in; an unknown e-mail or a missing argument is refused.
t.test('npm run merchants -- reset-password', async (t) => {
  const env: Record<string, string> = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    SIGNING_SECRET: 'cli-test-secret-0123456789abcdefghij',
  } as Record<string, string>
  delete env.DATABASE_URL
  // The demo stores and their merchants, as `npm run seed` leaves them (a copy of the template
  // instead of the seed in a process of its own: test/cli/cli.int.test.ts runs that one).
  const opened = testDatabaseKind === 'pglite' ? null : await freshDatabase(t, { seed: 'demo' })
  if (opened) env.DATABASE_URL = opened.url!
  else env.DATA_DIR = await templateDataDir(t, 'demo')
  // In this process (test/cli/support.ts); test/cli/cli.int.test.ts runs a command in its own.
  const cli = inProcessCli(env)
  const reset = await cli('merchants', ['reset-password', '--email', 'Owner@Atlas-Outfitters.example'])
  t.equal(reset.code, 0, reset.stderr)
  const password = reset.stdout.trim()
  t.match(password, /^[0-9A-Za-z]{6}(-[0-9A-Za-z]{6}){3}$/, 'one generated password on stdout')
  t.match(reset.stderr, /new password for owner@atlas-outfitters.example; every session of this merchant was ended/)
  if (opened) {
    const signedIn = await signIn(opened.db, { email: 'owner@atlas-outfitters.example', password, address: '10.0.0.9' })
    t.equal(signedIn.ok, true, 'the printed password signs in')
  }

  const again = await cli('merchants', ['reset-password', '--email', 'owner@atlas-outfitters.example'])
  t.not(again.stdout.trim(), password, 'each reset makes a new password')

  const unknown = await cli('merchants', ['reset-password', '--email', 'nobody@example.com'])
  t.equal(unknown.code, 1)
  t.match(unknown.stderr, /no merchant with email nobody@example.com/)
  t.equal(unknown.stdout, '')

  const usage = await cli('merchants', ['reset-password'])
  t.equal(usage.code, 2)
  t.match(usage.stderr, /npm run merchants -- reset-password --email <email>/)
})
