import t from 'tap'
import { testApp } from '../support/app.ts'
import { Browser, EMAIL_A, passwordOf } from './support.ts'

// Issue 33 point 3 (OWASP ASVS V2.2.1): throttling slows guessing without letting a stranger deny
// the owner. Refusals are per address and per account-and-address; an account guessed at from
// everywhere is slowed, never refused; behind a proxy named in TRUST_PROXY each visitor has an
// address of their own.

t.test('the owner signs in while an attacker guesses from many addresses', async (t) => {
  const { app, services } = await testApp(t)
  const password = await passwordOf(services, EMAIL_A)
  // One address guessing: refused after 5 failures.
  const attacker = new Browser(app, '203.0.113.7')
  for (let i = 0; i < 5; i++) t.equal((await attacker.signIn(EMAIL_A, `guess-${i}`)).statusCode, 401)
  const refused = await attacker.signIn(EMAIL_A, `guess-5`)
  t.equal(refused.statusCode, 429, 'the guessing address is refused')
  t.ok(Number(refused.headers['retry-after']) > 800, 'for 15 minutes')
  t.equal((await attacker.signIn(EMAIL_A, password)).statusCode, 429, 'even with the right password, from there')
  // Five more addresses, one wrong guess each: the account has ten failures.
  for (let i = 0; i < 5; i++)
    t.equal((await new Browser(app, `198.51.100.${i}`).signIn(EMAIL_A, `guess-${i}`)).statusCode, 401)
  // The owner, from an address of their own: signed in.
  const owner = new Browser(app, '192.0.2.10')
  const signedIn = await owner.signIn(EMAIL_A, password)
  t.equal(signedIn.statusCode, 303, 'the owner signs in')
  t.ok(owner.cookies.has('sf_session'))
  // Other addresses guessing are slowed, never refused (no 429 for a fresh address).
  t.equal((await new Browser(app, '198.51.100.77').signIn(EMAIL_A, 'guess')).statusCode, 401)
})

t.test('behind the proxy: one visitor cannot lock out another', async (t) => {
  const { app, services } = await testApp(t, { env: { TRUST_PROXY: '127.0.0.1,::1' } })
  const password = await passwordOf(services, EMAIL_A)
  // Every request arrives from the proxy at 127.0.0.1; X-Forwarded-For names the visitor.
  const attacker = new Browser(app, '127.0.0.1', '203.0.113.7')
  for (let i = 0; i < 5; i++) await attacker.signIn(`someone-${i}@example.com`, 'nope')
  t.equal((await attacker.signIn(EMAIL_A, 'nope')).statusCode, 429, 'the guessing visitor is refused')
  const owner = new Browser(app, '127.0.0.1', '192.0.2.10')
  t.equal((await owner.signIn(EMAIL_A, password)).statusCode, 303, 'another visitor behind the same proxy signs in')

  // X-Forwarded-For from anyone but a listed proxy is not believed: a new header each time does
  // not give the attacker new addresses.
  const direct = '10.20.30.40'
  for (let i = 0; i < 5; i++) await new Browser(app, direct, `198.51.100.${i}`).signIn(`x${i}@example.com`, 'nope')
  t.equal(
    (await new Browser(app, direct, '198.51.100.99').signIn(EMAIL_A, 'nope')).statusCode,
    429,
    'a forged X-Forwarded-For from a client is ignored',
  )
})

t.test('TRUST_PROXY is validated at start-up', async (t) => {
  const { loadConfig } = await import('../../src/config.ts')
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,loopback,::1' }).trustProxy, [
    '10.0.0.1',
    '192.168.0.0/16',
    'loopback',
    '::1',
  ])
  t.same(loadConfig({}).trustProxy, [], 'off by default')
  t.throws(() => loadConfig({ TRUST_PROXY: 'nginx.internal' }), /TRUST_PROXY/)
  t.throws(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' }), /TRUST_PROXY/)
})
