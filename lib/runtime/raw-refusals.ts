/** Refusals written on a socket before any request listener (./peer-stamp.ts installs them): JSON, then the connection closes. */

type SocketLike = { end(data: string): void; writable?: boolean; _httpMessage?: { _headerSent?: boolean } | null; destroy(): void }

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
}

/** A whole HTTP/1.1 response with a JSON error body that closes its connection. */
export function rawJsonResponse(status: number, message: string, headers: Record<string, string> = {}): string {
  const body = JSON.stringify({ statusCode: status, error: REASONS[status] ?? 'Bad Request', message })
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`)
  return (
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\n` +
    `content-length: ${new TextEncoder().encode(body).byteLength}\r\ncache-control: no-store\r\nx-content-type-options: nosniff\r\n` +
    `${extra.join('')}connection: close\r\n\r\n${body}`
  )
}

const UPGRADE_REFUSED = rawJsonResponse(400, 'This service does not upgrade connections.')
const CONNECT_REFUSED = rawJsonResponse(405, 'The method CONNECT is not allowed here: this service is no proxy.', {
  allow: 'GET, HEAD, OPTIONS',
})

/** An upgrade request (the server's `upgrade` event): 400. */
export function refuseUpgrade(_req: unknown, socket: SocketLike): void {
  socket.end(UPGRADE_REFUSED)
}

/** A CONNECT request (the server's `connect` event; without a listener Node closes the socket with no answer): 405. */
export function refuseConnect(_req: unknown, socket: SocketLike): void {
  socket.end(CONNECT_REFUSED)
}

/** A request Node's parser refused (the `clientError` event): Node's status (431, 408, 413, else 400), with a JSON body. */
export function answerClientError(err: Error & { code?: string }, socket: SocketLike): void {
  // as Node's own: nothing is written over a response already under way on this connection
  if (err.code === 'ECONNRESET' || socket.writable === false || socket._httpMessage?._headerSent) return socket.destroy()
  if (err.code === 'HPE_HEADER_OVERFLOW') return socket.end(rawJsonResponse(431, 'The request line or headers are too large.'))
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return socket.end(rawJsonResponse(408, 'The request did not arrive in time.'))
  if (err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return socket.end(rawJsonResponse(413, 'The chunk extensions are too large.'))
  const what = err.code === 'HPE_INVALID_METHOD' ? 'its method is not one HTTP knows' : 'it is not valid HTTP/1.1'
  socket.end(rawJsonResponse(400, `The request cannot be read: ${what}.`))
}
