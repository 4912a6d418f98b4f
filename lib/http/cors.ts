/** CORS (CORS_ORIGINS): which pages of other origins may read the API's answers. Edge-safe. */

/** `*` (any origin), the listed origins, or undefined (CORS off: no CORS header at all). */
export type CorsSetting = '*' | readonly string[] | undefined

/** The headers a page may read besides the CORS-safelisted ones: the service's freshness and rate-limit headers. */
export const EXPOSED_HEADERS = [
  'X-Block-Number',
  'X-Block-Timestamp',
  'X-Block-Interval-Ms',
  'X-Chain-Id',
  'X-Data-Stale',
  // a multi-chain answer's per-chain block, age and staleness (GET /v1/suggestedGasFees)
  'X-Chain-Freshness',
  'Age',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'Retry-After',
].join(', ')

/**
 * The request headers a page may send: the credentials', the stream's resume point, and X-Requested-With, which
 * rxjs's ajax (Blocknative's client, @web3-onboard/gas) adds to every request (rxjs/dist/esm/internal/ajax/ajax.js).
 */
export const ALLOWED_REQUEST_HEADERS = 'Authorization, X-Api-Key, X-Requested-With, Last-Event-ID, Cache-Control'

/** How long a browser may keep a preflight's answer, seconds (Chromium caps it at 7,200). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600

/** The origin a page's request may be answered to, or null (CORS off, no Origin, or an origin not listed). */
function allowedOrigin(origin: string | null, setting: CorsSetting): string | null {
  if (setting === undefined) return null
  if (setting === '*') return '*'
  return origin !== null && setting.includes(origin) ? origin : null
}

/**
 * The CORS headers of an API answer (errors included): `Vary: Origin` whenever CORS is on, and
 * Access-Control-Allow-Origin (the origin when listed, or `*`) with the exposed headers when the origin may
 * read it. Never Access-Control-Allow-Credentials: credentials travel in headers the page sets itself.
 * @example corsHeaders('https://dapp.example', ['https://dapp.example'])['access-control-allow-origin'] // 'https://dapp.example'
 */
export function corsHeaders(origin: string | null, setting: CorsSetting): Record<string, string> {
  if (setting === undefined) return {}
  const allowed = allowedOrigin(origin, setting)
  if (allowed === null) return { vary: 'Origin' }
  return { vary: 'Origin', 'access-control-allow-origin': allowed, 'access-control-expose-headers': EXPOSED_HEADERS }
}

/** Whether a request is a CORS preflight: OPTIONS with Access-Control-Request-Method. */
export const isPreflight = (method: string, headers: Headers) => method === 'OPTIONS' && headers.has('access-control-request-method')

/**
 * The answer to a preflight, before any credential is asked for: 204, with the allowed methods, request
 * headers and max age when the origin may read the API; without any allow header when it may not.
 */
export function preflightResponse(origin: string | null, setting: CorsSetting): Response {
  const headers = corsHeaders(origin, setting)
  if (headers['access-control-allow-origin'] !== undefined)
    Object.assign(headers, {
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    })
  return new Response(null, { status: 204, headers })
}
