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

// The young generation grows under allocation up to what the flag allows (V8's own limit here is
// 32 MB semi-spaces): with the flags it stays at two 8 MB semi-spaces at most.
const churn = `let keep = []
for (let i = 0; i < 3e6; i++) { keep.push({ a: i, b: 'x' + i }); if (keep.length > 50000) keep = [] }
console.log(require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)`

t.test('the flags are ones this Node accepts, and they bound the young generation', async (t) => {
  const { spawnSync } = await import('node:child_process')
  const newSpace = (flags: readonly string[]) => {
    const run = spawnSync(process.execPath, [...flags, '-e', churn], { encoding: 'utf8' })
    t.equal(run.status, 0, run.stderr)
    return Number(run.stdout)
  }
  const bounded = newSpace(SERVICE_NODE_FLAGS)
  t.ok(bounded <= 2 * 8 * 1024 * 1024, `new space with the flags: ${bounded} bytes`)
  const unbounded = newSpace([])
  t.ok(unbounded > bounded, `new space without them: ${unbounded} bytes`)
})
