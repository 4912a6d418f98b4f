import { NextResponse, type NextRequest } from 'next/server'
import { authenticate, isRemembered } from '@/lib/auth/authenticate'
import { verifyBearer } from '@/lib/auth/bearer'
import { clientAddress } from '@/lib/auth/client-address'
import { addressBlocked, instanceBlocked, recordAuthFailure } from '@/lib/auth/failure-throttle'
import { IDENTITY_HEADER, signIdentity } from '@/lib/auth/identity'
import { getEdgeEnv, type EdgeEnv } from '@/lib/env'
import { BASIC_CHALLENGE, BEARER_CHALLENGE, errorJson, MISCONFIGURED } from '@/lib/http/error-body'
import { hasMalformedEscape } from '@/lib/http/path'
import { API_CONTENT_SECURITY_POLICY, newNonce, pageContentSecurityPolicy, SECURITY_HEADERS } from '@/lib/http/security-headers'

const MESSAGES = {
  missing: 'Authentication required: send HTTP Basic credentials (API key as user name, API key secret as password).',
  malformed: 'The Authorization header is not valid HTTP Basic credentials.',
  invalid: 'The API key or API key secret is not valid.',
  unconfigured: 'This server has no API keys configured, so no credentials are valid.',
} as const

/** An answer of the middleware's own, with the security headers. */
function refuse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return errorJson(status, message, { ...headers, ...SECURITY_HEADERS, 'content-security-policy': API_CONTENT_SECURITY_POLICY })
}

/** 503 for a configuration the middleware cannot use (logged by the caller). */
const misconfigured = () => refuse(MISCONFIGURED.status, MISCONFIGURED.message, MISCONFIGURED.headers)

/**
 * The API's own answers (JSON, the stream, metrics, probes): no page, so no nonce to hand to Next; a
 * fixed policy that allows nothing.
 */
const isApiPath = (path: string) =>
  /^\/networks\/[^/]+\/./.test(path) || path.startsWith('/v1/') || ['/metrics', '/readyz', '/healthz', '/openapi.json'].includes(path)

/** Passes the request on: pages with a fresh CSP nonce, and (when given) the verified identity. */
function pass(request: NextRequest, identity?: string): NextResponse {
  const headers = new Headers(request.headers)
  const csp = isApiPath(request.nextUrl.pathname)
    ? API_CONTENT_SECURITY_POLICY
    : pageContentSecurityPolicy(newNonce(), process.env.NODE_ENV === 'development')
  // Next reads a page's nonce from the request's CSP header and puts it on its inline scripts
  if (csp !== API_CONTENT_SECURITY_POLICY) headers.set('content-security-policy', csp)
  // forward the verified key name, signed, in place of anything the client sent under that name:
  // the handlers trust only this (lib/auth/identity)
  if (identity !== undefined) headers.set(IDENTITY_HEADER, identity)
  else headers.delete(IDENTITY_HEADER)
  const res = NextResponse.next({ request: { headers } })
  res.headers.set('content-security-policy', csp)
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.headers.set(k, v)
  return res
}

/** 429 for an address (or instance) past AUTH_FAILURE_LIMIT. */
const throttled = (seconds: number) =>
  refuse(429, `Too many failed authentication attempts; retry after ${seconds} s.`, { 'retry-after': String(seconds) })

/** Paths anyone may read without credentials: liveness, and the API's published contract. */
const PUBLIC_PATHS = new Set(['/healthz', '/openapi.json'])

/**
 * The gate in front of everything but Next's static output (Node.js runtime; Web Crypto, so it also runs on the edge):
 * /healthz and /openapi.json pass; /metrics needs the METRICS_TOKEN bearer (404 without one configured); /readyz
 * passes when READYZ_AUTH=none; the rest needs HTTP Basic credentials (the one parse of the
 * Authorization header), whose verified key name goes on to the handlers in a signed header.
 * Failed authentications are counted per client address (AUTH_FAILURE_LIMIT a minute, per instance)
 * and answered 429 past it. Pages get a Content-Security-Policy with a per-request nonce.
 */
export async function middleware(request: NextRequest) {
  const path = request.nextUrl.pathname
  if (PUBLIC_PATHS.has(path)) return pass(request)
  let env: EdgeEnv
  try {
    env = getEdgeEnv()
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', error: 'ConfigError', message: (err as Error).message }))
    return misconfigured()
  }
  if (path === '/readyz' && env.READYZ_AUTH === 'none') return pass(request)
  const header = request.headers.get('authorization')
  const address = clientAddress(request.headers, env.TRUST_PROXY)

  if (path === '/metrics') {
    if (env.METRICS_TOKEN === undefined) return refuse(404, 'Not found: /metrics is off (no METRICS_TOKEN is configured).')
    const blocked = addressBlocked(address, env.AUTH_FAILURE_LIMIT)
    if (blocked !== null) return throttled(blocked)
    const verdict = await verifyBearer(header, env.METRICS_TOKEN)
    if (verdict === 'ok') return pass(request)
    if (verdict === 'invalid') {
      const ceiling = instanceBlocked(env.AUTH_FAILURE_LIMIT)
      recordAuthFailure(address)
      if (ceiling !== null) return throttled(ceiling)
    }
    return refuse(401, 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.', BEARER_CHALLENGE)
  }

  // an address past its limit is not even checked (its guesses stop here), unless its exact
  // credentials verified before
  const blocked = isRemembered(header, env.API_KEYS) ? null : addressBlocked(address, env.AUTH_FAILURE_LIMIT)
  if (blocked !== null) return throttled(blocked)
  const result = await authenticate(header, env.API_KEYS)
  if (result.ok) {
    if (hasMalformedEscape(path)) return refuse(400, 'The path holds a malformed percent-escape.')
    return pass(request, await signIdentity(result.key, env.API_KEYS))
  }
  if (result.reason === 'misconfigured') {
    console.error(JSON.stringify({ level: 'error', error: 'ApiKeysConfigError', message: 'API_KEYS is malformed' }))
    return misconfigured()
  }
  if (result.reason === 'malformed' || result.reason === 'invalid') {
    // past the instance's ceiling a failure is a 429; valid credentials passed above, whatever the ceiling
    const ceiling = instanceBlocked(env.AUTH_FAILURE_LIMIT)
    recordAuthFailure(address)
    if (ceiling !== null) return throttled(ceiling)
  }
  return refuse(401, MESSAGES[result.reason], BASIC_CHALLENGE)
}

export const config = {
  // Node.js, not the Edge sandbox: the gate shares the process with the handlers (on Vercel, Node.js
  // middleware runs as a function; on `next start`, in the server's own process)
  runtime: 'nodejs',
  // Everything but Next's static build output, public/assets and the benchmark's no-middleware floor
  // (/bench-bare, a route only bench builds have): the API and the pages need credentials.
  matcher: ['/((?!_next/static/|_next/image|favicon\\.ico$|assets/|bench-bare/).*)'],
}
