import { readFileSync } from 'node:fs'
import t from 'tap'
import { SERVICE_ARGV, SERVICE_NODE_FLAGS } from '../src/service-node-flags.ts'

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')

// Every way the project starts the service passes the same Node flags, right before the entry point.
t.test('npm start, the container and the systemd unit start node with the service flags', async (t) => {
  t.ok(SERVICE_NODE_FLAGS.length > 0)
  t.equal(
    (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start,
    `node ${SERVICE_ARGV.join(' ')}`,
  )
  const cmd = read('infra/Dockerfile').match(/^CMD (\[.*\])$/m)
  t.ok(cmd, 'the Dockerfile has an exec-form CMD')
  t.same(JSON.parse(cmd![1]!), ['node', ...SERVICE_ARGV])
  const execStart = read('infra/storefront-theme.service').match(/^ExecStart=\S+\/node (.*)$/m)
  t.equal(execStart?.[1], SERVICE_ARGV.join(' '))
})

// The flags are ones this Node knows: a misspelt or retired V8 flag makes node exit with "bad option"
// before the service starts. What V8 then makes of them (how it rounds the young generation's size
// on a given processor) is the engine's business; src/service-node-flags.ts records the measurements
// behind them, and bench/ is where their effect is measured.
t.test("node starts with the service flags, and each names an option of this Node's V8", async (t) => {
  const { spawnSync } = await import('node:child_process')
  const run = spawnSync(process.execPath, [...SERVICE_NODE_FLAGS, '-e', 'process.stdout.write("started")'], {
    encoding: 'utf8',
  })
  t.equal(run.status, 0, run.stderr)
  t.equal(run.stderr, '', 'no warning about the flags')
  t.equal(run.stdout, 'started')
  const v8Options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout
  for (const flag of SERVICE_NODE_FLAGS) {
    const name = flag.replace(/^--(no-)?/, '').replace(/=.*$/, '')
    t.match(v8Options, new RegExp(`^\\s+--${name} `, 'm'), `${flag} is a V8 option`)
  }
})
