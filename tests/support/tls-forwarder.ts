import { connect, type AddressInfo, type Socket } from 'node:net'
import { createServer } from 'node:tls'
import { selfSignedCert } from './self-signed-cert'

export type TlsForwarder = {
  port: number
  /** Points new connections at `port` on 127.0.0.1 and closes the open ones (a browser keeps them alive). */
  forwardTo(port: number): void
  close(): Promise<void>
}

/**
 * A TLS endpoint on 127.0.0.1 that stands in for `hostname`: it terminates TLS with a throwaway
 * self-signed certificate and pipes the decrypted bytes, unchanged, to a plain HTTP port. With
 * Chromium's `--host-resolver-rules=MAP <hostname> 127.0.0.1:<port>` and `ignoreHTTPSErrors`, a page's
 * requests to `https://<hostname>` reach a local service through the browser's own network stack
 * (CORS, preflights and all), which request interception would not: it answers preflights itself.
 * HTTP/1.1 only (ALPN), so the bytes piped are what the service parses.
 */
export async function startTlsForwarder(hostname: string): Promise<TlsForwarder> {
  let target = 0
  const open = new Set<Socket>()
  const server = createServer({ ...selfSignedCert(hostname), ALPNProtocols: ['http/1.1'] }, (client) => {
    const upstream = connect(target, '127.0.0.1')
    const pair = [client, upstream]
    for (const s of pair) {
      open.add(s)
      s.on('error', () => pair.forEach((p) => p.destroy()))
      s.on('close', () => {
        open.delete(s)
        pair.forEach((p) => p.destroy())
      })
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    forwardTo(port) {
      target = port
      for (const s of open) s.destroy()
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of open) s.destroy()
        server.close(() => resolve())
      }),
  }
}
