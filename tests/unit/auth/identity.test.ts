import { describe, expect, test, vi } from 'vitest'
import { IDENTITY_HEADER, isKeyless, keylessIdentity, logName, signIdentity, verifyIdentity } from '@/lib/auth/identity'

const SETTING =
  'alice:secret-one-of-alice, bob:sha256:' + 'a'.repeat(64) + ', a.b:s1-of-dotted-key, ключ:s2-of-cyrillic-key, x:y:s3-of-x-with-colon'

describe('identity forwarded by the middleware', () => {
  test('default: a signed key name verifies, under the same API_KEYS setting only', async () => {
    const signed = await signIdentity('alice', SETTING)
    expect(await verifyIdentity(signed, SETTING)).toBe('alice')
    expect(await verifyIdentity(signed, 'alice:another-secret')).toBeNull()
  })

  test.each([
    ['absent', null],
    ['a bare key name', 'alice'],
    ['a made-up signature', `alice.${'0'.repeat(64)}`],
    ['a signature for another key', 'SWAP'],
    ['a malformed escape', `%E0%A4%A.${'0'.repeat(64)}`],
  ])('error: %s is refused', async (_, value) => {
    const header = value === 'SWAP' ? `bob.${(await signIdentity('alice', SETTING)).split('.')[1]}` : value
    expect(await verifyIdentity(header, SETTING)).toBeNull()
  })

  test('behavior: key names with dots and non-ASCII survive; only configured keys verify; nothing without API_KEYS', async () => {
    for (const key of ['a.b', 'ключ', 'x']) expect(await verifyIdentity(await signIdentity(key, SETTING), SETTING)).toBe(key)
    // a name signed with the right material but not configured (a minted quota) is refused
    expect(await verifyIdentity(await signIdentity('mallory', SETTING), SETTING)).toBeNull()
    expect(await verifyIdentity(await signIdentity('alice', ''), '')).toBeNull()
    expect(IDENTITY_HEADER).toBe('x-gas-api-identity')
  })
})

describe('identity: signed and verified once per key name and setting', () => {
  test('behavior: the same header every time; a verified header stays verified, a forged one refused after it, and a key taken out of API_KEYS no longer verifies', async () => {
    const first = await signIdentity('alice', SETTING)
    expect(await signIdentity('alice', SETTING)).toBe(first)
    expect(await verifyIdentity(first, SETTING)).toBe('alice')
    expect(await verifyIdentity(first, SETTING)).toBe('alice')
    // one hex digit changed: never the remembered answer
    const forged = first.slice(0, -1) + (first.endsWith('0') ? '1' : '0')
    expect(await verifyIdentity(forged, SETTING)).toBeNull()
    // a new setting forgets both: alice's old header no longer verifies, and is signed anew
    const without = SETTING.replace('alice:secret-one-of-alice, ', '')
    expect(await verifyIdentity(first, without)).toBeNull()
    expect(await verifyIdentity(await signIdentity('alice', without), without)).toBeNull()
    expect(await verifyIdentity(first, SETTING)).toBe('alice')
  })
})

describe('handlers fail closed', () => {
  // the first import of the route modules transforms most of lib/: a budget for that, not for the check
  test(
    "error: a request that reaches a handler without the middleware's identity is 401, before any work",
    { timeout: 60_000 },
    async () => {
      process.env.API_KEYS = SETTING
      process.env.METRICS_TOKEN = 'metrics-token-of-the-unit-test'
      const { apiRoute } = await import('@/lib/http/routes')
      const { metricsResponse } = await import('@/lib/http/metrics')
      const { GET } = apiRoute('busyThreshold')
      const context = { params: Promise.resolve({ chainId: '1' }) }
      const cases: Record<string, string>[] = [
        {},
        { [IDENTITY_HEADER]: `alice.${'f'.repeat(64)}` },
        { authorization: 'Basic YWxpY2U6c2VjcmV0LW9uZQ==' },
        { authorization: 'Bearer not-the-metrics-token' },
      ]
      for (const headers of cases) {
        const res = await GET(new Request('http://x/networks/1/busyThreshold', { headers }), context)
        expect(res.status).toBe(401)
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic /)
        expect(res.headers.get('ratelimit-limit')).toBeNull()
        // API keys, verified identities included, do not open /metrics: only its bearer token does
        expect((await metricsResponse(new Request('http://x/metrics', { headers }))).status).toBe(401)
      }
    },
  )
})

describe('identity: public keys and the keyless tier', () => {
  const WITH_PUBLIC = {
    apiKeys: SETTING,
    publicApiKeys: 'web:web-0123456789abcdef0123, 0123456789abcdef0123456789abcdef',
    publicAccess: true,
  }

  test('behavior: a PUBLIC_API_KEYS name (given or derived) and a keyless address verify; only under the same setting', async () => {
    const { defaultPublicKeyName } = await import('@/lib/auth/public-keys')
    const derived = await defaultPublicKeyName('0123456789abcdef0123456789abcdef')
    for (const caller of ['web', derived, keylessIdentity('203.0.113.7'), keylessIdentity('2001:db8::1'), 'alice'])
      expect(await verifyIdentity(await signIdentity(caller, WITH_PUBLIC), WITH_PUBLIC)).toBe(caller)
    const web = await signIdentity('web', WITH_PUBLIC)
    expect(await verifyIdentity(web, { ...WITH_PUBLIC, publicApiKeys: 'web:another-key-0123456789' })).toBeNull()
    // the keyless tier exists only while PUBLIC_ACCESS is on
    const off = { ...WITH_PUBLIC, publicAccess: false }
    expect(await verifyIdentity(await signIdentity(keylessIdentity('203.0.113.7'), off), off)).toBeNull()
    expect(await verifyIdentity(await signIdentity('web-0123456789abcdef0123', WITH_PUBLIC), WITH_PUBLIC)).toBeNull()
  })

  test('behavior: with API_KEYS empty, public keys and the keyless tier still verify', async () => {
    const only = { apiKeys: '', publicApiKeys: 'web:web-0123456789abcdef0123', publicAccess: true }
    expect(await verifyIdentity(await signIdentity('web', only), only)).toBe('web')
    expect(await verifyIdentity(await signIdentity(keylessIdentity('::1'), only), only)).toBe(keylessIdentity('::1'))
    const keyless = { apiKeys: '', publicAccess: true }
    expect(await verifyIdentity(await signIdentity(keylessIdentity('::1'), keyless), keyless)).toBe(keylessIdentity('::1'))
    expect(await verifyIdentity(await signIdentity('web', keyless), keyless)).toBeNull()
  })

  test('behavior: logs name the keyless tier `public`, never its address; a key by its name', () => {
    expect(logName(keylessIdentity('203.0.113.7'))).toBe('public')
    expect(isKeyless(keylessIdentity('203.0.113.7'))).toBe(true)
    expect(logName('web')).toBe('web')
    expect(isKeyless('public-0123456789ab')).toBe(false)
  })
})

describe("identity: one caller's requests arriving together", () => {
  test('behavior: ten concurrent signs of one caller make one HMAC, ten concurrent checks of its header one more; a forged header alongside is refused', async () => {
    // a setting new to the process: nothing signed or verified under it yet
    const setting = `${SETTING}, erin:one-of-erin-16chars`
    const spy = vi.spyOn(crypto.subtle, 'sign')
    try {
      const signed = await Promise.all(Array.from({ length: 10 }, () => signIdentity('erin', setting)))
      expect(new Set(signed).size).toBe(1)
      expect(spy).toHaveBeenCalledTimes(1)
      const forged = signed[0]!.slice(0, -1) + (signed[0]!.endsWith('0') ? '1' : '0')
      const checks = await Promise.all([
        ...Array.from({ length: 10 }, () => verifyIdentity(signed[0]!, setting)),
        verifyIdentity(forged, setting),
      ])
      expect(checks).toEqual([...Array.from({ length: 10 }, () => 'erin'), null])
      expect(spy).toHaveBeenCalledTimes(3)
    } finally {
      spy.mockRestore()
    }
  })
})
