import t from 'tap'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { buildApp, loggerOptions } from '../../src/http/app.ts'
import { servicePlugins } from '../../src/plugins.ts'
import { testApp } from '../support/app.ts'
import { authorized, form } from './support.ts'

t.test(
  'client secrets, codes, verifiers and tokens never reach the log, even at debug level and on failures',
  async (t) => {
    const base = await testApp(t)
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const app = await buildApp(base.services, { logger: pino(loggerOptions('trace'), sink), ...servicePlugins() })
    t.teardown(() => app.close())
    const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload,
      })

    const reg = await app.inject({
      method: 'POST',
      url: '/api/oauth/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        client_name: 'Logged',
        redirect_uris: ['https://client.example/callback'],
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    })
    const client = {
      clientId: reg.json().client_id as string,
      secret: reg.json().client_secret as string,
      redirectUri: 'https://client.example/callback',
    }
    const basic = { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}` }
    const grant = await authorized({ ...base, app }, client)
    const issued = await post(
      '/api/oauth/token',
      form({
        grant_type: 'authorization_code',
        code: grant.code,
        redirect_uri: client.redirectUri,
        code_verifier: grant.verifier,
      }),
      basic,
    )
    t.equal(issued.statusCode, 200)
    const tokens = issued.json()
    await post(
      '/api/oauth/token',
      form({
        grant_type: 'authorization_code',
        code: grant.code,
        redirect_uri: client.redirectUri,
        code_verifier: grant.verifier,
      }),
      basic,
    )
    const refreshed = (
      await post(
        '/api/oauth/token',
        form({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_secret: client.secret,
          client_id: client.clientId,
        }),
      )
    ).json()
    await post('/api/oauth/token', form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), {
      authorization: `Basic ${Buffer.from(`${client.clientId}:wrong-${client.secret}`).toString('base64')}`,
    })
    await app.inject({ method: 'GET', url: `/api/v1/context?access_token=${refreshed.access_token}` })
    await app.inject({
      method: 'GET',
      url: '/api/v1/context',
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    })
    await post('/api/oauth/revoke', form({ token: refreshed.refresh_token }), basic)
    await app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: { 'content-type': 'text/plain' },
      payload: `refresh_token=${refreshed.refresh_token}`,
    })
    await new Promise((r) => setImmediate(r))

    const log = lines.join('')
    t.ok(log.includes('request completed'), 'requests were logged')
    for (const [name, value] of Object.entries({
      clientSecret: client.secret,
      code: grant.code,
      verifier: grant.verifier,
      access: tokens.access_token,
      refresh: tokens.refresh_token,
      access2: refreshed.access_token,
      refresh2: refreshed.refresh_token,
    })) {
      t.notOk(log.includes(value), `the ${name} is not in the log`)
    }
  },
)
