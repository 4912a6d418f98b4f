import { afterEach, describe, expect, test } from 'vitest'
import { NextRequest } from 'next/server'
import { formatBasicAuth } from '@/lib/auth/basic-auth'
import { resetAuthFailures } from '@/lib/auth/failure-throttle'
import { middleware } from '@/middleware'
import { stampPeersInThisProcess } from '../../support/peer'

// requests come from the TCP peer each test names, as under `next start`
const peer = stampPeersInThisProcess()

const KEY = { key: 'alice', secret: 'alice-secret-of-the-unit-test' }
const saved = { ...process.env }
afterEach(() => {
  for (const k of ['API_KEYS', 'READYZ_AUTH', 'METRICS_TOKEN', 'AUTH_FAILURE_LIMIT', 'TRUST_PROXY']) {
    if (saved[k] === undefined) delete process.env[k]
    else process.env[k] = saved[k]
  }
  resetAuthFailures()
})

/** A request from the TCP peer 192.0.2.10 unless the headers name another. */
const call = (path: string, headers: Record<string, string> = {}) =>
  middleware(new NextRequest(`http://127.0.0.1${path}`, { headers: { ...peer.from('192.0.2.10'), ...headers } }))
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

  test('error: a method no route takes (PROPFIND) is a JSON 405 with Allow, before any credential', async () => {
    Object.assign(process.env, { API_KEYS: `${KEY.key}:${KEY.secret}` })
    for (const path of ['/networks/1/suggestedGasFees', '/']) {
      const res = await middleware(new NextRequest(`http://127.0.0.1${path}`, { method: 'PROPFIND', headers: peer.from('192.0.2.10') }))
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
      expect(await res.json()).toMatchObject({ statusCode: 405, message: 'The method PROPFIND is not allowed here.' })
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

  test('behavior: API answers get the fixed policy that allows nothing, no nonce; the chain page gets a nonce', async () => {
    Object.assign(process.env, { API_KEYS: `${KEY.key}:${KEY.secret}` })
    for (const path of ['/networks/1/suggestedGasFees', '/networks/1/stream', '/v1/supportedNetworks']) {
      const res = await call(path, { authorization: formatBasicAuth(KEY) })
      expect(passed(res)).toBe(true)
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'/)
      expect(res.headers.get('x-middleware-request-content-security-policy')).toBeNull()
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
    const page = await call('/networks/1', { authorization: formatBasicAuth(KEY) })
    expect(page.headers.get('content-security-policy')).toMatch(/'nonce-/)
  })

  test('behavior: failures from many addresses past the instance ceiling cannot lock out a valid key; an address past its own limit is not even checked', async () => {
    const bob = { key: 'bob', secret: 'bob-secret-of-the-unit-test' }
    Object.assign(process.env, {
      API_KEYS: `${KEY.key}:${KEY.secret}, ${bob.key}:${bob.secret}`,
      AUTH_FAILURE_LIMIT: '2',
      METRICS_TOKEN: 'metrics-token-of-unit-test',
    })
    const wrong = formatBasicAuth({ key: KEY.key, secret: 'not-the-secret-at-all' })
    // 20 failures (the ceiling, 10 × 2), each from another address
    for (let i = 0; i < 20; i++)
      expect((await call('/networks/1/busyThreshold', { authorization: wrong, ...peer.from(`10.0.0.${i}`) })).status).toBe(401)
    // past the ceiling: a failure is a 429, but the valid key passes from an address never seen, as does the metrics token
    const failed = await call('/networks/1/busyThreshold', { authorization: wrong, ...peer.from('10.9.9.9') })
    expect(failed.status).toBe(429)
    expect(Number(failed.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(passed(await call('/networks/1/busyThreshold', { authorization: formatBasicAuth(KEY), ...peer.from('10.8.8.8') }))).toBe(true)
    expect(passed(await call('/metrics', { authorization: 'Bearer metrics-token-of-unit-test', ...peer.from('10.7.7.7') }))).toBe(true)
    // an address with 2 failures of its own is refused before its credentials are looked at: right
    // ones never verified before too (only credentials that verified before pass a throttled address)
    resetAuthFailures()
    for (let i = 0; i < 2; i++) await call('/networks/1/busyThreshold', { authorization: wrong, ...peer.from('10.1.1.1') })
    const blocked = await call('/networks/1/busyThreshold', { authorization: formatBasicAuth(bob), ...peer.from('10.1.1.1') })
    expect(blocked.status).toBe(429)
    expect(passed(await call('/networks/1/busyThreshold', { authorization: formatBasicAuth(KEY), ...peer.from('10.1.1.1') }))).toBe(true)
  })
})
