import { describe, expect, test } from 'vitest'
import { corsHeaders, EXPOSED_HEADERS, isPreflight, preflightResponse } from '@/lib/http/cors'

const LISTED = ['https://dapp.example', 'http://localhost:5173']

describe('corsHeaders', () => {
  test.each([
    ['CORS off', 'https://dapp.example', undefined, undefined],
    ['a listed origin', 'https://dapp.example', LISTED, 'https://dapp.example'],
    ['another listed origin', 'http://localhost:5173', LISTED, 'http://localhost:5173'],
    ['an origin not listed', 'https://evil.example', LISTED, undefined],
    ['a listed origin with another port', 'https://dapp.example:8443', LISTED, undefined],
    ['no Origin header', null, LISTED, undefined],
    ['*, any origin', 'https://anyone.example', '*' as const, '*'],
    ['*, no Origin header', null, '*' as const, '*'],
  ])('args: %s', (_, origin, setting, allowed) => {
    const headers = corsHeaders(origin, setting)
    expect(headers['access-control-allow-origin']).toBe(allowed)
    expect(headers.vary).toBe(setting === undefined ? undefined : 'Origin')
    expect(headers['access-control-expose-headers']).toBe(allowed === undefined ? undefined : EXPOSED_HEADERS)
    // credentials travel in headers the page sets: never Allow-Credentials (and never with *)
    expect(headers['access-control-allow-credentials']).toBeUndefined()
  })

  test('behavior: the exposed headers are the freshness and rate-limit headers a page reads', () => {
    for (const h of [
      'X-Block-Number',
      'X-Data-Stale',
      'Age',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'X-Chain-Id',
      'X-Chain-Freshness',
    ])
      expect(EXPOSED_HEADERS.split(', ')).toContain(h)
  })
})

describe('preflight', () => {
  test('default: OPTIONS with Access-Control-Request-Method is a preflight; OPTIONS without it is not', () => {
    expect(isPreflight('OPTIONS', new Headers({ 'access-control-request-method': 'GET' }))).toBe(true)
    expect(isPreflight('OPTIONS', new Headers())).toBe(false)
    expect(isPreflight('GET', new Headers({ 'access-control-request-method': 'GET' }))).toBe(false)
  })

  test('behavior: an allowed origin gets 204 with GET, the credentials headers, X-Requested-With (rxjs ajax), Last-Event-ID and a max age', () => {
    const res = preflightResponse('https://dapp.example', LISTED)
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://dapp.example')
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS')
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(', ')
    for (const h of ['authorization', 'x-api-key', 'x-requested-with', 'last-event-id']) expect(allowed).toContain(h)
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0)
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
  })

  test('error: an origin not listed gets a 204 without any allow header (the browser then refuses the request)', () => {
    const res = preflightResponse('https://evil.example', LISTED)
    expect(res.status).toBe(204)
    for (const h of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers'])
      expect(res.headers.get(h)).toBeNull()
    expect(res.headers.get('vary')).toBe('Origin')
  })
})
