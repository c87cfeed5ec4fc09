import { connect } from 'node:net'
import t from 'tap'
import { testApp } from '../support/app.ts'

// A stop (SIGTERM runs app.close()) lets the requests in flight finish, then closes their
// connections: a browser's keep-alive connection whose request was running when the stop began is
// not left open until the keep-alive timeout (72 s), which held every stop after a burst of
// requests (and each browser test file's teardown) that long.
t.test('a request in flight when the app closes is answered, then its connection is closed', async (t) => {
  const { app } = await testApp(t, { plugins: false })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }

  const socket = connect(port, '127.0.0.1')
  let received = ''
  socket.on('data', (chunk) => (received += chunk.toString()))
  const ended = new Promise<'closed'>((resolve) => socket.on('close', () => resolve('closed')))
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))

  // The request's head arrives; its body is still on the way when the stop begins.
  const arrived = new Promise((resolve) => app.server.once('request', resolve))
  socket.write(
    'POST /api/v1/themes HTTP/1.1\r\nHost: storefront.test\r\nConnection: keep-alive\r\n' +
      'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{',
  )
  await arrived
  const closing = app.close()
  socket.write('}')

  // Far below the 72 s the connection stayed open before.
  const bound = new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 20_000).unref())
  t.equal(await Promise.race([ended, bound]), 'closed', 'the server closed the connection after answering')
  t.match(received, /^HTTP\/1\.1 401 /, 'the request in flight was answered (no credential: 401)')
  await closing
  t.notOk(app.server.listening, 'the server stopped')
})
