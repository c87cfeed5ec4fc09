import t from 'tap'
import type { Caller } from '../../src/auth/caller.ts'
import { invoke } from '../../src/operations/invoke.ts'
import type { OperationDefinition } from '../../src/operations/operation.ts'
import type { Services } from '../../src/services.ts'

// Which services an operation runs with (src/operations/invoke.ts): a read-only operation gets
// services.forReads(its caller's store), where a replica may serve it; a change gets the primary's;
// a read whose caller presented a version (If-None-Match) gets the primary's too.

const caller: Caller = {
  storeId: 'st_a',
  scopes: new Set(['themes:read', 'themes:write']),
  actor: { kind: 'merchant', merchantId: 'mer_a', credentialId: null, appId: null },
  channel: 'rest',
  requestId: 'req_1',
}

function setup() {
  const asked: string[] = []
  const onReplica = { name: 'replica' } as unknown as Services
  const services = {
    name: 'primary',
    forReads(storeId: string) {
      asked.push(storeId)
      return onReplica
    },
  } as unknown as Services
  const op = (method: OperationDefinition['method']): OperationDefinition => ({
    operationId: `op${method}`,
    method,
    path: '/api/v1/things',
    scopes: method === 'GET' ? ['themes:read'] : ['themes:write'],
    summary: '',
    description: '',
    tag: 'Test',
    data: undefined as never,
    successStatus: 200,
    idempotent: false,
    run: async (_input, _caller, s) => ({ ok: true, data: (s as unknown as { name: string }).name }),
  })
  const call = (method: OperationDefinition['method'], exact?: boolean) =>
    invoke(op(method), services, {
      authentication: { ok: true, caller },
      input: {},
      logError: () => {},
      ...(exact === undefined ? {} : { exact }),
    })
  return { asked, call }
}

t.test('a read runs with the services forReads chose for its store', async (t) => {
  const { asked, call } = setup()
  t.same(await call('GET'), { ok: true, data: 'replica' })
  t.same(asked, ['st_a'], "asked for the caller's store")
})

t.test('changes run on the primary', async (t) => {
  const { asked, call } = setup()
  for (const method of ['POST', 'PATCH', 'DELETE'] as const) t.same(await call(method), { ok: true, data: 'primary' })
  t.same(asked, [], 'forReads never asked')
})

t.test('a read with a version the caller holds (If-None-Match) runs on the primary', async (t) => {
  const { asked, call } = setup()
  t.same(await call('GET', true), { ok: true, data: 'primary' })
  t.same(asked, [])
})
