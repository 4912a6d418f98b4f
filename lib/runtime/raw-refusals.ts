/** Refusals written on a socket before any request listener (./peer-stamp.ts installs them): JSON, then the connection closes. */

type SocketLike = {
  end(data: string, done?: () => void): void
  writable?: boolean
  _httpMessage?: object | null
  destroy(): void
}

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

/** Writes a refusal and closes the socket once it is out (Node keeps a socket it only ended half-open), in 5 s at most. */
function refuse(socket: SocketLike, response: string): void {
  socket.end(response, () => socket.destroy())
  setTimeout(() => socket.destroy(), 5_000).unref()
}

const UPGRADE_REFUSED = rawJsonResponse(400, 'This service does not upgrade connections.')
const CONNECT_REFUSED = rawJsonResponse(405, 'The method CONNECT is not allowed here: this service is no proxy.', {
  allow: 'GET, HEAD, OPTIONS',
})

/** An upgrade request (the server's `upgrade` event): 400. */
export function refuseUpgrade(_req: unknown, socket: SocketLike): void {
  refuse(socket, UPGRADE_REFUSED)
}

/** A CONNECT request (the server's `connect` event; without a listener Node closes the socket with no answer): 405. */
export function refuseConnect(_req: unknown, socket: SocketLike): void {
  refuse(socket, CONNECT_REFUSED)
}

/** A request whose Expect is not 100-continue (the server's `checkExpectation` event; without a listener Node answers a bare 417). */
export function refuseExpectation(
  _req: unknown,
  res: { writeHead(status: number, headers: Record<string, string>): unknown; end(body: string): void },
): void {
  const body = JSON.stringify({
    statusCode: 417,
    error: 'Expectation Failed',
    message: 'The request expects what this service does not do: the only Expect it meets is 100-continue.',
  })
  res.writeHead(417, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(new TextEncoder().encode(body).byteLength),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  })
  res.end(body)
}

/** A request Node's parser refused (the `clientError` event): Node's status (431, 408, 413, else 400), with a JSON body. */
export function answerClientError(err: Error & { code?: string }, socket: SocketLike): void {
  // nothing is written on a connection with a response under way (pipelined requests): it would answer the earlier one
  if (err.code === 'ECONNRESET' || socket.writable === false || socket._httpMessage) return socket.destroy()
  if (err.code === 'HPE_HEADER_OVERFLOW') return refuse(socket, rawJsonResponse(431, 'The request line or headers are too large.'))
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return refuse(socket, rawJsonResponse(408, 'The request did not arrive in time.'))
  if (err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return refuse(socket, rawJsonResponse(413, 'The chunk extensions are too large.'))
  const what = err.code === 'HPE_INVALID_METHOD' ? 'its method is not one HTTP knows' : 'it is not valid HTTP/1.1'
  refuse(socket, rawJsonResponse(400, `The request cannot be read: ${what}.`))
}
