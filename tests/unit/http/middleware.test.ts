import { afterEach, describe, expect, test } from 'vitest'
import { NextRequest } from 'next/server'
import { formatBasicAuth } from '@/lib/auth/basic-auth'
import { resetAuthFailures } from '@/lib/auth/failure-throttle'
import { middleware } from '@/middleware'

const KEY = { key: 'alice', secret: 'alice-secret-of-the-unit-test' }
const saved = { ...process.env }
afterEach(() => {
  for (const k of ['API_KEYS', 'READYZ_AUTH', 'METRICS_TOKEN', 'AUTH_FAILURE_LIMIT', 'TRUST_PROXY']) {
    if (saved[k] === undefined) delete process.env[k]
    else process.env[k] = saved[k]
  }
  resetAuthFailures()
})

const call = (path: string, headers: Record<string, string> = {}) => middleware(new NextRequest(`http://127.0.0.1${path}`, { headers }))
/** NextResponse.next(): the request goes on to the route. */
const passed = (res: Response) => res.headers.get('x-middleware-next') === '1'

describe('middleware', () => {
  test.each([
    ['none', {}, true],
    ['basic', {}, false],
    ['basic', { authorization: formatBasicAuth(KEY) }, true],
  ])('args: READYZ_AUTH=%s, headers %o: /readyz passes: %s', async (setting, headers, passes) => {
    Object.assign(process.env, { API_KEYS: `${KEY.key}:${KEY.secret}`, READYZ_AUTH: setting })
    const res = await call('/readyz', headers)
    expect(passed(res)).toBe(passes)
    if (!passes) expect(res.status).toBe(401)
  })

  test('behavior: /healthz and /openapi.json pass without credentials even when the configuration is broken; the rest is 503', async () => {
    Object.assign(process.env, { API_KEYS: 'alice:weak' })
    expect(passed(await call('/healthz'))).toBe(true)
    expect(passed(await call('/openapi.json'))).toBe(true)
    expect(passed(await call('/openapi.json/x'))).toBe(false)
    for (const path of ['/readyz', '/metrics', '/networks/1/busyThreshold']) {
      const res = await call(path, { authorization: formatBasicAuth(KEY) })
      expect(res.status).toBe(503)
      expect(await res.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' })
    }
  })

  test('behavior: /metrics: 404 without METRICS_TOKEN; with it, only the bearer token passes, API keys do not', async () => {
    Object.assign(process.env, { API_KEYS: `${KEY.key}:${KEY.secret}` })
    delete process.env.METRICS_TOKEN
    expect((await call('/metrics', { authorization: 'Bearer metrics-token-of-unit-test' })).status).toBe(404)
    process.env.METRICS_TOKEN = 'metrics-token-of-unit-test'
    expect(passed(await call('/metrics', { authorization: 'Bearer metrics-token-of-unit-test' }))).toBe(true)
    for (const authorization of [formatBasicAuth(KEY), 'Bearer metrics-token-of-unit-tesT']) {
      const res = await call('/metrics', { authorization })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /)
    }
  })

  test('behavior: a passed request carries a CSP whose nonce is also on the request (for Next), a fresh one each time', async () => {
    Object.assign(process.env, { API_KEYS: `${KEY.key}:${KEY.secret}` })
    const a = await call('/', { authorization: formatBasicAuth(KEY) })
    const b = await call('/', { authorization: formatBasicAuth(KEY) })
    const csp = a.headers.get('content-security-policy')
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic'/)
    expect(a.headers.get('x-middleware-request-content-security-policy')).toBe(csp)
    expect(b.headers.get('content-security-policy')).not.toBe(csp)
  })
})
