import { describe, expect, test } from 'vitest'

// the handlers' side of PUBLIC_API_KEYS and PUBLIC_ACCESS: the identity the middleware signed, the quota it is rated by
const SETTING = {
  apiKeys: 'alice:alice-secret-of-the-unit-test',
  publicApiKeys: 'web:web-0123456789abcdef0123',
  publicAccess: true,
}
Object.assign(process.env, {
  API_KEYS: SETTING.apiKeys,
  PUBLIC_API_KEYS: SETTING.publicApiKeys,
  PUBLIC_ACCESS: 'true',
  PUBLIC_RATE_LIMIT: '3/3600',
  RATE_LIMIT: '4/3600',
  RATE_LIMITS: 'web=2/3600',
  REQUEST_LOG: 'false',
})
const { guarded } = await import('@/lib/http/guard')
const { IDENTITY_HEADER, keylessIdentity, signIdentity } = await import('@/lib/auth/identity')

/** One answer of a route behind guarded(), as the caller (already verified by the middleware). */
async function ask(identity: string) {
  const headers = { [IDENTITY_HEADER]: await signIdentity(identity, SETTING) }
  return guarded('busyThreshold', new Request('http://x/networks/1/busyThreshold', { headers }), async ({ key }) => new Response(key))
}

describe('guarded: the keyless tier and public keys', () => {
  test('behavior: keyless callers get PUBLIC_RATE_LIMIT per address: the 4th request of an address is a JSON 429 with honest headers', async () => {
    const a = keylessIdentity('203.0.113.7')
    for (let i = 1; i <= 3; i++) {
      const res = await ask(a)
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('3')
      expect(res.headers.get('ratelimit-policy')).toBe('3;w=3600')
      expect(res.headers.get('ratelimit-remaining')).toBe(String(3 - i))
    }
    const refused = await ask(a)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await refused.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    const retry = Number(refused.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(0)
    // the sliding window (lib/ratelimit/sliding-window.ts): one more request fits within two windows
    expect(retry).toBeLessThanOrEqual(7200)
    // another address has its own count
    expect((await ask(keylessIdentity('198.51.100.1'))).headers.get('ratelimit-remaining')).toBe('2')
  })

  test('behavior: a keyed caller keeps its own quota while keyless addresses are spent: RATE_LIMIT, or RATE_LIMITS by its name', async () => {
    for (let i = 0; i < 4; i++) await ask(keylessIdentity('192.0.2.9'))
    expect((await ask(keylessIdentity('192.0.2.9'))).status).toBe(429)
    const alice = await ask('alice')
    expect(alice.status).toBe(200)
    expect(alice.headers.get('ratelimit-limit')).toBe('4')
    const web = await ask('web')
    expect(await web.text()).toBe('web')
    expect(web.headers.get('ratelimit-limit')).toBe('2')
  })

  test('error: an identity the setting does not know is a 401: a keyless one without PUBLIC_ACCESS, a public name not configured', async () => {
    const res = await guarded(
      'busyThreshold',
      new Request('http://x/networks/1/busyThreshold', {
        headers: { [IDENTITY_HEADER]: await signIdentity(keylessIdentity('203.0.113.7'), { ...SETTING, publicAccess: false }) },
      }),
      async () => new Response('served'),
    )
    expect(res.status).toBe(401)
    expect((await ask('mallory')).status).toBe(401)
  })
})
