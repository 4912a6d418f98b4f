import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll } from 'vitest'
import { installPeerStamp, PEER_HEADER, stampPeer } from '@/lib/runtime/peer-stamp'

/**
 * Makes this test process stamp peers as `next start` does (a listening HTTP server with the stamp in front of it),
 * and gives the header a request from `address` carries there: unit tests of the gate then see the address the
 * network saw, as the service does.
 */
export function stampPeersInThisProcess(): { from(address: string): Record<string, string> } {
  let server: Server | undefined
  beforeAll(async () => {
    server = createServer(() => {})
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    installPeerStamp()
  })
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))
  return {
    from(address) {
      const req = { headers: {} as Record<string, string | undefined>, socket: { remoteAddress: address } }
      stampPeer(req)
      return { [PEER_HEADER]: req.headers[PEER_HEADER]! }
    },
  }
}
