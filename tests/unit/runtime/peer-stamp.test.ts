// The stamp in front of a listening HTTP server's request listeners, on a real server on loopback: what Next would
// throw as a bare 500 is answered there, the rest goes on to the listeners (one added later too), stamped.
import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { installPeerStamp, PEER_HEADER, stampedPeer } from '@/lib/runtime/peer-stamp'

type Seen = { url?: string; peer: string | null; self: boolean }
const seen: Seen[] = []
const late: string[] = []
let server: Server
let port = 0

/** One request as a raw client sends it; the status, headers and body that came back. */
function send(method: string, path: string): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path })
    req.on('response', (res) => {
      let body = ''
      res.on('data', (d) => (body += String(d)))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Raw bytes on a new connection; the status line and the JSON body of what came back before it closed. */
function sendRaw(bytes: string, then?: string): Promise<{ statusLine: string; body: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes))
    let text = ''
    socket.on('data', (d) => {
      text += String(d)
      // a second request on the same connection once the first is answered (a keep-alive client's)
      if (then !== undefined && text.endsWith('passed')) socket.write(then)
    })
    socket.on('error', reject)
    socket.on('close', () => {
      const split = text.lastIndexOf('\r\n\r\n')
      const last = text.lastIndexOf('HTTP/1.1 ')
      resolve({
        statusLine: text.slice(last, text.indexOf('\r\n', last)),
        body: split < 0 ? null : JSON.parse(text.slice(split + 4)),
        text,
      })
    })
  })
}

beforeAll(async () => {
  server = createServer(function (this: unknown, req, res) {
    const peer = req.headers[PEER_HEADER]
    seen.push({ url: req.url, peer: typeof peer === 'string' ? stampedPeer(peer) : null, self: this === server })
    res.end('passed')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
  expect(installPeerStamp()).toBeGreaterThanOrEqual(1)
  server.on('request', (req: IncomingMessage) => late.push(req.url ?? ''))
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('the peer stamp on a listening server', () => {
  test('behavior: a request goes on to the listeners, this one added later included, stamped with its peer', async () => {
    const res = await send('GET', '/networks/1/suggestedGasFees')
    expect([res.status, res.body]).toEqual([200, 'passed'])
    expect(seen.at(-1)).toEqual({ url: '/networks/1/suggestedGasFees', peer: '127.0.0.1', self: true })
    expect(late).toEqual(['/networks/1/suggestedGasFees'])
  })

  test('behavior: an absolute-form target goes on as its path', async () => {
    await send('GET', 'http://evil.example/networks/1/busyThreshold?x=1')
    expect(seen.at(-1)!.url).toBe('/networks/1/busyThreshold?x=1')
  })

  test('error: TRACE is a JSON 405 with Allow, answered in front of the listeners', async () => {
    const before = [seen.length, late.length]
    const res = await send('TRACE', '/networks/1/suggestedGasFees')
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS')
    expect(JSON.parse(res.body)).toEqual({ statusCode: 405, error: 'Method Not Allowed', message: 'The method TRACE is not allowed here.' })
    expect([seen.length, late.length]).toEqual(before)
  })

  test.each(['/v1/suggestedGasFees?__proto__=1', '/v1/stream?chainIds=1&%5F%5Fproto%5F%5F=x', '/networks/1/gasPrices?__proto__'])(
    "error: %s: a JSON 400 naming '__proto__' (Next would drop the parameter unseen), in front of the listeners",
    async (path) => {
      const before = [seen.length, late.length]
      const res = await send('GET', path)
      expect(res.status).toBe(400)
      expect(JSON.parse(res.body)).toMatchObject({ statusCode: 400, message: expect.stringMatching(/'__proto__'/) })
      expect([seen.length, late.length]).toEqual(before)
    },
  )

  test.each([
    ['CONNECT', 'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 405 Method Not Allowed', /CONNECT/],
    ['a method HTTP does not know', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 400 Bad Request', /method/],
    ['raw bytes that are no URL', 'GET /v1/x?chainIds=\u00ff HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 400 Bad Request', /not valid HTTP/],
    [
      'a request line past the header limit',
      `GET /?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'HTTP/1.1 431 Request Header Fields Too Large',
      /too large/,
    ],
  ])('error: %s is answered with a JSON body (Node alone sends none, or closes)', async (_, bytes, statusLine, message) => {
    const res = await sendRaw(bytes)
    expect(res.statusLine).toBe(statusLine)
    expect(res.body).toMatchObject({ statusCode: Number(statusLine.split(' ')[1]), message: expect.stringMatching(message) })
  })

  test('behavior: a refused CONNECT is closed on the server side too, though its client never closes its own', async () => {
    let serverSide: Socket | undefined
    const track = (s: Socket) => (serverSide = s)
    server.once('connection', track)
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () =>
      socket.write('CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n'),
    )
    socket.resume()
    await new Promise((resolve) => socket.once('end', resolve))
    const deadline = Date.now() + 3_000
    while (!serverSide?.destroyed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(serverSide?.destroyed).toBe(true)
    socket.destroy()
  })

  test('error: an HTTP/1.1 request without Host is a JSON 400 (Node alone sends an empty one)', async () => {
    const res = await sendRaw('GET /networks/1/busyThreshold HTTP/1.1\r\n\r\n')
    expect(res.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(res.body).toMatchObject({ statusCode: 400, message: expect.stringMatching(/Host/) })
  })

  test('behavior: a request Node cannot read after an answered one on the same connection still gets its JSON 400', async () => {
    const res = await sendRaw('GET /networks/1/busyThreshold HTTP/1.1\r\nHost: x\r\n\r\n', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n')
    expect(res.text.startsWith('HTTP/1.1 200 OK') && res.text.includes('passed')).toBe(true)
    expect(res.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(res.body).toMatchObject({ statusCode: 400, message: expect.stringMatching(/method/) })
  })

  test('error: a `*` target is a 204 with Allow and no Content-Length to OPTIONS, a JSON 400 to any other method', async () => {
    const before = [seen.length, late.length]
    const options = await send('OPTIONS', '*')
    expect([options.status, options.headers.allow, options.headers['content-length']]).toEqual([204, 'GET, HEAD, OPTIONS', undefined])
    const get = await send('GET', '*')
    expect(get.status).toBe(400)
    expect(JSON.parse(get.body)).toMatchObject({ statusCode: 400, message: 'The request target is not a path.' })
    expect([seen.length, late.length]).toEqual(before)
  })
})
