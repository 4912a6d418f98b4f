import { NextResponse, type NextRequest } from 'next/server'
import { checkAccess } from '@/lib/auth/access'
import { verifyBearer } from '@/lib/auth/bearer'
import { addressSource, clientAddress } from '@/lib/auth/client-address'
import { addressBlocked, instanceBlocked, recordAuthFailure } from '@/lib/auth/failure-throttle'
import { IDENTITY_HEADER, isKeyless, signIdentity } from '@/lib/auth/identity'
import { getEdgeEnv, type EdgeEnv } from '@/lib/env'
import { corsHeaders, isPreflight, preflightResponse } from '@/lib/http/cors'
import { BASIC_CHALLENGE, BEARER_CHALLENGE, errorJson, MISCONFIGURED } from '@/lib/http/error-body'
import { toErrorResponse } from '@/lib/http/error-answers'
import { hasMalformedEscape, isApiPath } from '@/lib/http/path'
import { consumeRateLimit } from '@/lib/ratelimit'
import { PEER_HEADER, stampedPeer } from '@/lib/runtime/peer-stamp'
import { API_CONTENT_SECURITY_POLICY, newNonce, pageContentSecurityPolicy, SECURITY_HEADERS } from '@/lib/http/security-headers'

/** An answer of the middleware's own, with the security headers (and the CORS headers, so a page can read it). */
function refuse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return errorJson(status, message, { ...headers, ...SECURITY_HEADERS, 'content-security-policy': API_CONTENT_SECURITY_POLICY })
}

/** 503 for a configuration the middleware cannot use (logged by the caller). */
const misconfigured = (cors: Record<string, string> = {}) =>
  refuse(MISCONFIGURED.status, MISCONFIGURED.message, { ...cors, ...MISCONFIGURED.headers })

/** Passes the request on: pages with a fresh CSP nonce, the verified identity (when given), the CORS headers. */
function pass(request: NextRequest, identity?: string, cors: Record<string, string> = {}): NextResponse {
  const headers = new Headers(request.headers)
  const csp = isApiPath(request.nextUrl.pathname)
    ? API_CONTENT_SECURITY_POLICY
    : pageContentSecurityPolicy(newNonce(), process.env.NODE_ENV === 'development')
  // Next reads a page's nonce from the request's CSP header and puts it on its inline scripts
  if (csp !== API_CONTENT_SECURITY_POLICY) headers.set('content-security-policy', csp)
  // forward the verified caller, signed, in place of anything the client sent under that name:
  // the handlers trust only this (lib/auth/identity)
  if (identity !== undefined) headers.set(IDENTITY_HEADER, identity)
  else headers.delete(IDENTITY_HEADER)
  // the peer's stamp carries this process's token: it stops here
  headers.delete(PEER_HEADER)
  const res = NextResponse.next({ request: { headers } })
  res.headers.set('content-security-policy', csp)
  for (const [k, v] of Object.entries({ ...SECURITY_HEADERS, ...cors })) res.headers.set(k, v)
  return res
}

/** 429 for an address (or instance) past AUTH_FAILURE_LIMIT. */
const throttled = (seconds: number, cors: Record<string, string>) =>
  refuse(429, `Too many failed authentication attempts; retry after ${seconds} s.`, { ...cors, 'retry-after': String(seconds) })

/** Paths anyone may read without credentials: liveness, and the API's published contract. */
const PUBLIC_PATHS = new Set(['/healthz', '/openapi.json'])
const ROUTABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * The gate in front of everything but Next's static output (Node.js runtime: it meters pages through lib/ratelimit,
 * which may use Redis): /_next/image and connection upgrades are refused; /healthz and /openapi.json pass; /metrics needs the METRICS_TOKEN bearer (404 without one configured); /readyz
 * passes when READYZ_AUTH=none; a CORS preflight is answered before any credential (CORS_ORIGINS); the rest
 * goes through lib/auth/access (Basic credentials, public keys, the keyless tier), whose verified caller goes
 * on to the handlers in a signed header. Failed authentications are counted per client address (the one the network
 * saw: lib/auth/client-address.ts; AUTH_FAILURE_LIMIT a minute, per instance) and answered 429 past it. A page render
 * counts against the caller's quota (the handlers count the API). Pages get a Content-Security-Policy with a
 * per-request nonce; API answers get the CORS headers.
 */
export async function middleware(request: NextRequest) {
  const path = request.nextUrl.pathname
  // the app has no images to optimise (next.config.mjs turns the optimizer off): nothing answers here, and a URL
  // naming a /v3/<key>/ path never reaches the optimizer's log line
  if (path === '/_next/image') return refuse(404, 'Not found.')
  // a method no route handler can take (WebDAV's PROPFIND, …): refused before any credential (TRACE: lib/runtime/peer-stamp.ts)
  if (!ROUTABLE_METHODS.has(request.method))
    return refuse(405, `The method ${request.method} is not allowed here.`, { allow: 'GET, HEAD, OPTIONS' })
  // no route of the app upgrades a connection: refused before any credential is looked at (no oracle, no held socket)
  if (request.headers.get('upgrade') !== null) return refuse(400, 'This service does not upgrade connections.', { connection: 'close' })
  let env: EdgeEnv
  if (PUBLIC_PATHS.has(path)) {
    try {
      env = getEdgeEnv()
    } catch {
      return pass(request)
    }
    return pass(request, undefined, corsHeaders(request.headers.get('origin'), env.CORS_ORIGINS))
  }
  try {
    env = getEdgeEnv()
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', error: 'ConfigError', message: (err as Error).message }))
    return misconfigured()
  }
  const cors = isApiPath(path) ? corsHeaders(request.headers.get('origin'), env.CORS_ORIGINS) : {}
  if (env.CORS_ORIGINS !== undefined && isApiPath(path) && isPreflight(request.method, request.headers))
    return preflightResponse(request.headers.get('origin'), env.CORS_ORIGINS)
  if (path === '/readyz' && env.READYZ_AUTH === 'none') return pass(request, undefined, cors)
  // the address the network saw (the TCP peer, the platform's, or past TRUST_PROXY's proxies), never one the client wrote
  const address = clientAddress(request.headers, env.TRUST_PROXY, addressSource(), stampedPeer(request.headers.get(PEER_HEADER)))

  if (path === '/metrics') {
    const header = request.headers.get('authorization')
    if (env.METRICS_TOKEN === undefined) return refuse(404, 'Not found: /metrics is off (no METRICS_TOKEN is configured).', cors)
    const blocked = addressBlocked(address, env.AUTH_FAILURE_LIMIT)
    if (blocked !== null) return throttled(blocked, cors)
    const verdict = await verifyBearer(header, env.METRICS_TOKEN)
    if (verdict === 'ok') return pass(request, undefined, cors)
    if (verdict === 'invalid') {
      const ceiling = instanceBlocked(env.AUTH_FAILURE_LIMIT)
      recordAuthFailure(address)
      if (ceiling !== null) return throttled(ceiling, cors)
    }
    return refuse(401, 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.', { ...cors, ...BEARER_CHALLENGE })
  }

  const verdict = await checkAccess({ path, headers: request.headers, address }, env)
  if (!verdict.pass) {
    if (verdict.status === 503 && verdict.misconfigured) {
      console.error(JSON.stringify({ level: 'error', error: 'ApiKeysConfigError', message: verdict.message }))
      return misconfigured(cors)
    }
    if (verdict.status === 503) return refuse(503, verdict.message, { ...cors, 'retry-after': String(verdict.retryAfterSeconds ?? 1) })
    if (verdict.status === 429) return throttled(verdict.retryAfterSeconds ?? 60, cors)
    return refuse(verdict.status, verdict.message, verdict.status === 401 ? { ...cors, ...BASIC_CHALLENGE } : cors)
  }
  if (hasMalformedEscape(verdict.path)) return refuse(400, 'The path holds a malformed percent-escape.', cors)
  // Infura's /v3/<key>/<read path> goes on as it is: app/v3/[key]/[...path] answers as the read path (a rewrite
  // would come back through this gate under `next start`, without the key)
  const identity = await signIdentity(verdict.identity, identitySetting(env))
  if (isApiPath(path)) return pass(request, identity, cors)
  // a chain page is metered like the API it calls, under the caller's own quota (the keyless tier's per address):
  // the handlers meter the API, and a page has no handler of its own to do it
  let limits: Record<string, string>
  try {
    limits = await consumeRateLimit(verdict.identity, isKeyless(verdict.identity) ? 'public' : 'key')
  } catch (err) {
    const res = toErrorResponse(err)
    for (const [k, v] of Object.entries({ ...SECURITY_HEADERS, 'content-security-policy': API_CONTENT_SECURITY_POLICY }))
      res.headers.set(k, v)
    return res
  }
  const res = pass(request, identity, cors)
  for (const [k, v] of Object.entries(limits)) res.headers.set(k, v)
  return res
}

/** The setting the handlers verify identities under (getIdentitySetting in lib/env.ts reads the same variables). */
const identitySetting = (env: EdgeEnv) => ({ apiKeys: env.API_KEYS, publicApiKeys: env.PUBLIC_API_KEYS, publicAccess: env.PUBLIC_ACCESS })

export const config = {
  // Node.js, not the Edge sandbox: the gate shares the process with the handlers (on Vercel, Node.js
  // middleware runs as a function; on `next start`, in the server's own process)
  runtime: 'nodejs',
  // Everything but Next's static build output, public/assets and the benchmark's no-middleware floor
  // (/bench-bare, a route only bench builds have): the API and the pages need credentials.
  matcher: ['/((?!_next/static/|favicon\\.ico$|assets/|bench-bare/).*)'],
}
