import { createServer, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { joinHeadersToFirstWrite } from '@/lib/runtime/header-write'

const servers: ReturnType<typeof createServer>[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r).closeAllConnections())
})

/**
 * A response started the way Next starts a streamed body (flushHeaders, then the first chunk in the same turn),
 * behind the listener when `joined`: the writes its socket made, and the bytes a raw client got.
 */
async function firstWrites(joined: boolean): Promise<{ writes: number; received: string }> {
  let writes = 0
  const server = createServer()
  servers.push(server)
  if (joined) server.prependListener('request', joinHeadersToFirstWrite)
  server.on('request', (_req, res: ServerResponse) => {
    const socket = res.socket as Socket & { _write: Socket['_write']; _writev?: Socket['_writev'] }
    for (const name of ['_write', '_writev'] as const) {
      const original = socket[name]!.bind(socket) as (...args: unknown[]) => void
      socket[name] = ((...args: unknown[]) => {
        writes++
        original(...args)
      }) as never
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.flushHeaders()
    res.write('event: fees\ndata: {}\n\n')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1')
  let received = ''
  client.on('data', (b) => (received += b.toString()))
  client.write('GET /stream HTTP/1.1\r\nhost: x\r\n\r\n')
  const deadline = Date.now() + 10_000
  while (!received.includes('data: {}') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
  client.destroy()
  return { writes, received }
}

describe('joinHeadersToFirstWrite', () => {
  test('behavior: the status line, the headers and the first chunk leave in one write (two without it)', async () => {
    const joined = await firstWrites(true)
    expect(joined.received).toMatch(
      /^HTTP\/1\.1 200 OK\r\n[\s\S]*content-type: text\/event-stream\r\n[\s\S]*\r\n\r\n[0-9a-f]+\r\nevent: fees\ndata: \{\}\n\n\r\n$/i,
    )
    expect(joined.writes).toBe(1)
    const plain = await firstWrites(false)
    expect(plain.received).toBe(joined.received.replace(/date: [^\r]*/i, plain.received.match(/date: [^\r]*/i)![0]))
    expect(plain.writes).toBe(2)
  })

  test('behavior: headers flushed with no chunk after them still go out; a response without a socket flushes as before', async () => {
    const server = createServer()
    servers.push(server)
    server.prependListener('request', joinHeadersToFirstWrite)
    server.on('request', (_req, res: ServerResponse) => {
      res.writeHead(204)
      res.flushHeaders()
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    expect(res.status).toBe(204)
    let flushed = 0
    const detached = { socket: null, flushHeaders: () => void flushed++ }
    joinHeadersToFirstWrite(undefined, detached)
    detached.flushHeaders()
    expect(flushed).toBe(1)
  })
})
