import { NextResponse, type NextRequest } from 'next/server'
import { authenticate } from '@/lib/auth/authenticate'
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
 * HTTP Basic auth for the API and the pages (edge runtime: Web Crypto only). Also the one place a
 * path with a malformed percent-escape can be refused before Next answers it with a bare 500.
 */
export async function middleware(request: NextRequest) {
  const result = await authenticate(request.headers.get('authorization'), getApiKeysSetting())
  if (result.ok) {
    if (hasMalformedEscape(request.nextUrl.pathname)) return errorJson(400, 'The path holds a malformed percent-escape.')
    return NextResponse.next()
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
