/**
 * The TCP peer's address, stamped on each request where only this process can write it: Next keeps a client's own
 * X-Forwarded-For and the middleware sees no socket, so under `next start` a listener in front of Next's writes
 * `<process token> <socket address>` to PEER_HEADER. The token never leaves the process, so a header without it is
 * no address at all. Edge-safe to import; installPeerStamp runs in Node.js only.
 */
import { processSingleton } from './process-singleton'
import { answerClientError, refuseConnect, refuseExpectation, refuseUpgrade } from './raw-refusals'
import { createPacer, type Pacer } from './request-pacer'

/** The request header the stamp is written to (replaced on every request; the gate removes it before the handlers). */
export const PEER_HEADER = 'x-gas-api-peer'

const state = processSingleton(
  'peer-stamp',
  () => ({ token: crypto.randomUUID(), servers: 0 }) as { token: string; servers: number; pacer?: Pacer },
)
// `next dev` may keep a state made before the pacer existed
const pacer = () => (state.pacer ??= createPacer())

/** The service's probes, answered at once even in a burst of opens (an orchestrator restarts what they time out on). */
const PROBES = new Set(['/healthz', '/readyz', '/metrics'])
const served = new WeakSet<object>()

/**
 * Whether a request waits its turn behind the accepting of connections (request-pacer.ts): a connection's first
 * request, not a probe. A keep-alive connection's later requests start at once.
 */
export function pacedRequest(req: RequestLike): boolean {
  const socket = req.socket
  if (!socket || served.has(socket)) return false
  served.add(socket)
  const q = req.url?.indexOf('?') ?? -1
  return !PROBES.has(q < 0 ? (req.url ?? '') : req.url!.slice(0, q))
}

type RequestLike = {
  url?: string
  headers: Record<string, string | string[] | undefined>
  socket?: { remoteAddress?: string; destroyed?: boolean; writable?: boolean } | null
}
type RequestHandler = (req: RequestLike & { method?: string; httpVersion?: string }, res: ResponseLike) => void
type ServerLike = {
  prependListener(event: 'upgrade', listener: (req: RequestLike) => void): unknown
  removeAllListeners(event: 'request' | 'upgrade'): unknown
  removeListener(event: 'request', listener: RequestHandler): unknown
  on(event: 'upgrade' | 'connect', listener: (req: RequestLike, socket: SocketLike) => void): unknown
  on(event: 'clientError', listener: (err: Error, socket: SocketLike) => void): unknown
  removeAllListeners(event: 'clientError' | 'connect' | 'checkExpectation'): unknown
  on(event: 'checkExpectation', listener: (req: RequestLike, res: ResponseLike) => void): unknown
  on(event: 'request', listener: RequestHandler): unknown
  on(event: 'newListener', listener: (event: string | symbol, listener: RequestHandler) => void): unknown
  on(event: 'connection', listener: () => void): unknown
  listening?: boolean
  requireHostHeader?: boolean
}
type SocketLike = { end(data: string): void; destroy(): void }
type ResponseLike = { writeHead(status: number, headers: Record<string, string | number>): unknown; end(body: string): unknown }

/**
 * A method a fetch Request cannot carry that reaches a request listener: Next's request handling throws it as a bare
 * 500 before any middleware (Node's parser refuses TRACK, and CONNECT goes to the server's `connect` event).
 */
const FETCH_FORBIDDEN_METHODS = new Set(['TRACE'])

/** Answers a request before Next sees it: a JSON error body, as every refusal (none with `body` null). */
function answer(res: ResponseLike, status: number, body: object | null, headers: Record<string, string> = {}): void {
  const text = body === null ? '' : JSON.stringify(body)
  res.writeHead(status, {
    // a 204 carries no Content-Length (RFC 9110 §8.6)
    ...(body === null
      ? {}
      : { 'content-type': 'application/json; charset=utf-8', 'content-length': new TextEncoder().encode(text).byteLength }),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  })
  res.end(text)
}

const ALLOW = { allow: 'GET, HEAD, OPTIONS' }

/**
 * Next's request listeners behind one that stamps each request, and answers what Next would throw as a bare 500:
 * a method no fetch Request can carry (405), a target that is no path (`*`: 204 to OPTIONS, else 400).
 */
function stampedHandler(handlers: RequestHandler[]): RequestHandler {
  return function (this: unknown, req, res) {
    stampPeer(req)
    const method = req.method ?? 'GET'
    if (FETCH_FORBIDDEN_METHODS.has(method))
      return answer(res, 405, { statusCode: 405, error: 'Method Not Allowed', message: `The method ${method} is not allowed here.` }, ALLOW)
    if (!req.url?.startsWith('/')) {
      if (method === 'OPTIONS' && req.url === '*') return answer(res, 204, null, ALLOW)
      return answer(res, 400, { statusCode: 400, error: 'Bad Request', message: 'The request target is not a path.' })
    }
    // Node's own refusal of an HTTP/1.1 request without Host has no body (installPeerStamp hands it here)
    if (req.httpVersion === '1.1' && !req.headers.host)
      return answer(
        res,
        400,
        { statusCode: 400, error: 'Bad Request', message: 'The request has no Host header, which its HTTP version requires.' },
        { connection: 'close' },
      )
    if (hasProtoParameter(req.url))
      return answer(res, 400, {
        statusCode: 400,
        error: 'Bad Request',
        message: "Query parameter '__proto__' is not taken by any endpoint.",
      })
    const start = () => {
      for (const handle of handlers) handle.call(this, req, res)
    }
    if (!pacedRequest(req)) return start()
    // a client gone (or half-closed, which Node answers by ending the socket) while its request waited is not served
    pacer().pace(start, () => req.socket?.destroyed === true || req.socket?.writable === false)
  }
}

/** Whether a request target's query names `__proto__` (encoded or not), which Next's rebuilt query drops unseen. */
export function hasProtoParameter(url: string): boolean {
  const q = url.indexOf('?')
  if (q < 0) return false
  const hash = url.indexOf('#', q)
  try {
    return new URLSearchParams(url.slice(q + 1, hash < 0 ? undefined : hash)).has('__proto__')
  } catch {
    return false
  }
}

/** Writes the stamp on one request (the listener's body), and takes the slash redirects off a key's path (keyPathUrl). */
export function stampPeer(req: RequestLike): void {
  const address = req.socket?.remoteAddress
  if (address) req.headers[PEER_HEADER] = `${state.token} ${address}`
  else delete req.headers[PEER_HEADER]
  if (req.url !== undefined) req.url = keyPathUrl(originForm(req.url))
}

/**
 * A request target in origin form: an absolute-form one (`GET http://host/path`, as proxies send it, RFC 9112 §3.2.2)
 * loses its scheme and authority, which Next would otherwise answer with a 308 to that URL.
 */
export function originForm(url: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/\\?#]*/i.exec(url)
  if (!absolute) return url
  const rest = url.slice(absolute[0].length)
  return rest.startsWith('/') ? rest : `/${rest}`
}

/**
 * Infura's `/v3/<key>/…` path in the one form Next serves without a redirect: Next answers repeated slashes, dot
 * segments or a trailing slash with a 308 that repeats the URL before any middleware, which would echo the key.
 */
export function keyPathUrl(url: string): string {
  // only a target that names a /v3/ path, in its path or its query (/_next/image/?url=/v3/<key>/…), is touched
  if (!/v3(?:[\\/]|%2f|%5c)/i.test(url)) return url
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/\\?#]*/i.exec(url)
  const target = absolute ? url.slice(absolute[0].length) || '/' : url
  const hash = target.indexOf('#')
  const noHash = hash < 0 ? target : target.slice(0, hash)
  const q = noHash.indexOf('?')
  const path = q < 0 ? noHash : noHash.slice(0, q)
  let clean: string
  try {
    clean = new URL(path.replace(/[\\/]+/g, '/'), 'http://n').pathname.replace(/(.)\/$/, '$1')
  } catch {
    return url
  }
  return clean + (q < 0 ? '' : noHash.slice(q))
}

/**
 * Puts the stamp in front of every HTTP server this process is listening with (Next's own, found among the
 * process's active handles). Idempotent per server.
 * @returns how many servers stamp their requests now (0: this host hands requests over some other way)
 */
export function installPeerStamp(): number {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? []
  for (const h of handles) {
    const server = h as ServerLike & { listeners?: (e: string) => unknown[]; [STAMPED]?: true }
    if (typeof server?.prependListener !== 'function' || typeof server.listeners !== 'function' || !server.listening) continue
    if (server.listeners('request').length === 0 || server[STAMPED]) continue
    const handlers = server.listeners('request') as RequestHandler[]
    const handler = stampedHandler(handlers)
    server.removeAllListeners('request')
    server.on('request', handler)
    server.on('connection', () => pacer().accepted())
    // a request listener added later goes behind the stamp too, not beside it
    server.on('newListener', (event, listener) => {
      if (event !== 'request' || listener === handler) return
      process.nextTick(() => {
        server.removeListener('request', listener)
        handlers.push(listener)
      })
    })
    // no route upgrades, and Next keeps open the socket of an upgrade its middleware refused: refused here in
    // production; `next dev` keeps Next's own (its hot reload is a WebSocket), stamped
    if (process.env.NODE_ENV === 'production') {
      server.removeAllListeners('upgrade')
      server.on('upgrade', refuseUpgrade)
    } else server.prependListener('upgrade', stampPeer)
    server.removeAllListeners('connect')
    server.on('connect', refuseConnect)
    server.removeAllListeners('clientError')
    server.on('clientError', answerClientError)
    server.removeAllListeners('checkExpectation')
    server.on('checkExpectation', refuseExpectation)
    server.requireHostHeader = false
    server[STAMPED] = true
    state.servers++
  }
  return state.servers
}
const STAMPED = Symbol.for('gas-api.peer-stamped')

/** Whether this process stamps its requests' peers (installPeerStamp found a server). */
export const peerStampInstalled = () => state.servers > 0

/** The peer's address from a request's stamp; null when it carries none of this process's. */
export function stampedPeer(value: string | null): string | null {
  if (value === null) return null
  const space = value.indexOf(' ')
  if (space < 0 || !sameToken(value.slice(0, space), state.token)) return null
  return value.slice(space + 1)
}

/** Compares a presented token with the process's in time independent of where they differ (never `===` on a secret). */
function sameToken(a: string, b: string): boolean {
  let diff = a.length ^ b.length
  for (let i = 0; i < b.length; i++) diff |= (a.charCodeAt(i) || 0) ^ b.charCodeAt(i)
  return diff === 0
}
