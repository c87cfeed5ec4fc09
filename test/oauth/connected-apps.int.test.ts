import t from 'tap'
import { merchantActor } from '../../src/auth/caller.ts'
import { revokeGrant, revokeGrantsOfApp } from '../../src/commands/access/oauth-grants.ts'
import { connectedApps } from '../../src/queries/oauth-grants.ts'
import { bearer, STORE_A, STORE_B, testApp } from '../support/app.ts'
import { authorized, exchange, registeredClient, token } from './support.ts'
import { createApp, deleteApp } from '../../src/commands/access/apps.ts'

t.test(
  'connected apps per store; a merchant revocation or an app deletion ends the grant and its tokens, recorded in the activity view',
  async (t) => {
    const app = await testApp(t)
    const one = await registeredClient(app, { name: 'One' })
    const two = await registeredClient(app, { name: 'Two' })
    const tokens = await exchange(app, one, await authorized(app, one, { scopes: ['store:read'] }))
    await exchange(app, two, await authorized(app, two, { scopes: ['store:read', 'themes:read'] }))
    await authorized(app, two, { storeId: STORE_B })
    const listed = await connectedApps(app.services.db, STORE_A)
    t.equal(listed.length, 2)
    t.same(listed.map((a) => a.scopes).sort(), [['store:read'], ['store:read', 'themes:read']])
    t.equal((await connectedApps(app.services.db, STORE_B)).length, 1, 'per store')

    const merchant = (
      await app.services.db
        .selectFrom('stores')
        .select('merchant_id')
        .where('store_id', '=', STORE_A)
        .executeTakeFirstOrThrow()
    ).merchant_id
    const ctx = {
      storeId: STORE_A,
      actor: merchantActor(merchant),
      channel: 'dashboard' as const,
      operation: 'revokeOAuthGrant',
    }
    const target = listed.find((a) => a.clientId === one.clientId)!
    t.equal(
      await revokeGrant(app.services.commands, { ...ctx, storeId: STORE_B }, target.grantId, 'merchant'),
      false,
      "another store's merchant cannot revoke it",
    )
    t.equal(await revokeGrant(app.services.commands, ctx, target.grantId, 'merchant'), true)
    t.equal(
      await revokeGrant(app.services.commands, ctx, target.grantId, 'merchant'),
      false,
      'a second revocation changes nothing',
    )
    t.equal(
      (await app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(tokens.access_token) }))
        .statusCode,
      401,
    )
    t.same(
      (await connectedApps(app.services.db, STORE_A)).map((a) => a.clientId),
      [two.clientId],
      'the other connection stays',
    )

    // A dashboard app's grants end with the app.
    await app.services.db
      .updateTable('oauth_grants')
      .set({ app_id: 'app_dashboard' })
      .where('client_id', '=', two.clientId)
      .execute()
    t.equal(
      await revokeGrantsOfApp(app.services.commands, ctx, 'app_dashboard'),
      1,
      'only this store’s grant of the app',
    )
    t.equal((await connectedApps(app.services.db, STORE_A)).length, 0)
    t.equal((await connectedApps(app.services.db, STORE_B)).length, 1)
    const activity = await app.services.db
      .selectFrom('developer_activity')
      .select(['summary', 'credential_kind', 'channel'])
      .where('store_id', '=', STORE_A)
      .execute()
    t.ok(
      activity.some(
        (a) =>
          /Disconnected .*revoked by the merchant/.test(a.summary) &&
          a.credential_kind === 'merchant' &&
          a.channel === 'dashboard',
      ),
    )
    t.ok(activity.some((a) => /the app was deleted/.test(a.summary)))
  },
)

t.test(
  'deleting a dashboard app in the dashboard ends its OAuth grants and tokens, and its client id stops working',
  async (t) => {
    const app = await testApp(t)
    const merchant = (
      await app.services.db
        .selectFrom('stores')
        .select('merchant_id')
        .where('store_id', '=', STORE_A)
        .executeTakeFirstOrThrow()
    ).merchant_id
    const ctx = {
      storeId: STORE_A,
      actor: merchantActor(merchant),
      channel: 'dashboard' as const,
      operation: 'createApp',
    }
    const created = await createApp(app.services.commands, ctx, {
      name: 'Agency agent',
      kind: 'confidential',
      redirectUris: ['https://client.example/callback'],
    })
    if (!created.ok) throw new Error('createApp failed')
    const client = {
      clientId: created.value.clientId,
      secret: created.value.clientSecret,
      redirectUri: 'https://client.example/callback',
    }
    const grant = await authorized(app, client, { scopes: ['store:read'] })
    await app.services.db
      .updateTable('oauth_grants')
      .set({ app_id: created.value.appId })
      .where('client_id', '=', client.clientId)
      .execute()
    const tokens = await exchange(app, client, grant)
    t.equal(
      (await app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(tokens.access_token) }))
        .statusCode,
      200,
      'the token works before',
    )

    const deleted = await deleteApp(app.services.commands, { ...ctx, operation: 'deleteApp' }, created.value.appId)
    t.ok(deleted.ok)
    t.equal(
      (await app.app.inject({ method: 'GET', url: '/api/v1/context', headers: bearer(tokens.access_token) }))
        .statusCode,
      401,
      'the access token is refused after',
    )
    const refreshed = await token(app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.clientId,
      client_secret: client.secret ?? undefined,
    })
    t.equal(refreshed.statusCode, 401, 'the deleted app cannot refresh')
    t.equal(refreshed.json().error, 'invalid_client')
    t.equal((await connectedApps(app.services.db, STORE_A)).length, 0, 'no connection left')
  },
)
