import { NextResponse, type NextRequest } from 'next/server'
import { authenticate } from '@/lib/auth/authenticate'
import { IDENTITY_HEADER, signIdentity } from '@/lib/auth/identity'
import { getApiKeysSetting } from '@/lib/env'
import { errorJson } from '@/lib/http/error-body'
import { hasMalformedEscape } from '@/lib/http/path'

const CHALLENGE = { 'www-authenticate': 'Basic realm="gas-api", charset="UTF-8"' }

const MESSAGES = {
  missing: 'Authentication required: send HTTP Basic credentials (API key as user name, API key secret as password).',
  malformed: 'The Authorization header is not valid HTTP Basic credentials.',
  invalid: 'The API key or API key secret is not valid.',
  unconfigured: 'This server has no API keys configured, so no credentials are valid.',
} as const

/**
 * HTTP Basic auth for the API and the pages (edge runtime: Web Crypto only): the one parse of the
 * Authorization header; the verified key name goes on to the handlers in a signed header. Also the
 * one place a path with a malformed percent-escape can be refused before Next answers it with a bare 500.
 */
export async function middleware(request: NextRequest) {
  const setting = getApiKeysSetting()
  const result = await authenticate(request.headers.get('authorization'), setting)
  if (result.ok) {
    if (hasMalformedEscape(request.nextUrl.pathname)) return errorJson(400, 'The path holds a malformed percent-escape.')
    // forward the verified key name, signed, in place of anything the client sent under that name:
    // the handlers trust only this (lib/auth/identity)
    const headers = new Headers(request.headers)
    headers.set(IDENTITY_HEADER, await signIdentity(result.key, setting))
    return NextResponse.next({ request: { headers } })
  }
  if (result.reason === 'misconfigured') {
    console.error(JSON.stringify({ level: 'error', error: 'ApiKeysConfigError', message: 'API_KEYS is malformed' }))
    return errorJson(503, 'The service is misconfigured; its operator has been told.', { 'retry-after': '60' })
  }
  return errorJson(401, MESSAGES[result.reason], CHALLENGE)
}

export const config = {
  // Everything but Next's static build output and public/assets: the API and the pages need credentials.
  matcher: ['/((?!_next/static/|_next/image|favicon\\.ico$|assets/).*)'],
}
