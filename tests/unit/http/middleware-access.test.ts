import { afterEach, describe, expect, test } from 'vitest'
import { NextRequest } from 'next/server'
import { formatBasicAuth } from '@/lib/auth/basic-auth'
import { resetAuthFailures } from '@/lib/auth/failure-throttle'
import { IDENTITY_HEADER, verifyIdentity } from '@/lib/auth/identity'
import { middleware } from '@/middleware'
import { stampPeersInThisProcess } from '../../support/peer'

// requests come from the TCP peer each test names, as under `next start`
const peer = stampPeersInThisProcess()

// PUBLIC_API_KEYS, PUBLIC_ACCESS and CORS_ORIGINS at the gate (lib/auth/access.ts, lib/http/cors.ts)
const ALICE = { key: 'alice', secret: 'alice-secret-of-the-unit-test' }
const WEB = 'web-0123456789abcdef0123'
const BN = '3b9c1d7e-5a24-4f0e-9c61-2d8f7a6b5e40'
const BASE = { API_KEYS: `${ALICE.key}:${ALICE.secret}`, PUBLIC_API_KEYS: `web:${WEB}, ${BN}` }
const VARS = [
  'API_KEYS',
  'PUBLIC_API_KEYS',
  'PUBLIC_ACCESS',
  'CORS_ORIGINS',
  'AUTH_FAILURE_LIMIT',
  'METRICS_TOKEN',
  'READYZ_AUTH',
  'TRUST_PROXY',
]
const saved = { ...process.env }
afterEach(() => {
  for (const k of VARS) {
    if (saved[k] === undefined) delete process.env[k]
    else process.env[k] = saved[k]
  }
  resetAuthFailures()
})
const configure = (vars: Record<string, string>) => {
  for (const k of VARS) delete process.env[k]
  Object.assign(process.env, vars)
}

/** A request from the TCP peer 192.0.2.10 unless the headers name another. */
const call = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  middleware(new NextRequest(`http://127.0.0.1${path}`, { headers: { ...peer.from('192.0.2.10'), ...headers }, method }))
/** The request goes on to its route (NextResponse.next()), never rewritten. */
const passed = (res: Response) => res.headers.get('x-middleware-next') === '1' && res.headers.get('x-middleware-rewrite') === null
/** The caller the handlers will see, verified as they verify it. */
const caller = (res: Response) =>
  verifyIdentity(res.headers.get(`x-middleware-request-${IDENTITY_HEADER}`), {
    apiKeys: process.env.API_KEYS ?? '',
    publicApiKeys: process.env.PUBLIC_API_KEYS ?? '',
    publicAccess: process.env.PUBLIC_ACCESS === 'true',
  })
const allHeaders = (res: Response) => JSON.stringify([...res.headers])

describe('PUBLIC_API_KEYS', () => {
  test.each([
    ['raw Authorization (Blocknative)', '/gasprices/blockprices?chainid=1', { authorization: BN }, BN],
    ['X-Api-Key', '/networks/1/suggestedGasFees', { 'x-api-key': WEB }, 'web'],
    ['raw Authorization and X-Api-Key holding the same key', '/chains', { authorization: WEB, 'x-api-key': WEB }, 'web'],
  ])('default: a public key as %s passes as its name', async (_, path, headers, key) => {
    configure(BASE)
    const res = await call(path, headers)
    expect(passed(res)).toBe(true)
    expect(await caller(res)).toEqual(key === BN ? expect.stringMatching(/^public-[0-9a-f]{12}$/) : key)
  })

  test.each([
    '/v3/KEY/networks/1/suggestedGasFees',
    '/v3/KEY/networks/1/stream',
    '/v3/KEY/networks/1/replacementFees?maxFeePerGas=2&maxPriorityFeePerGas=1',
    '/v3/KEY/v1/supportedNetworks',
    '/v3/KEY/gasprices/blockprices?chainid=1',
    '/v3/KEY/chains',
  ])("behavior: Infura's path %s passes as the key's name, to app/v3's route (no rewrite), the key in no header", async (path) => {
    configure(BASE)
    const res = await call(path.replace('KEY', WEB))
    expect(passed(res)).toBe(true)
    expect(await caller(res)).toBe('web')
    expect(allHeaders(res)).not.toContain(WEB)
  })

  test('error: an identity header sent by the client is never taken: the gate replaces it with the caller it verified', async () => {
    configure({ ...BASE, PUBLIC_ACCESS: 'true' })
    // one the gate itself signed for a keyed caller, replayed without the key
    const signed = (await call(`/v3/${WEB}/networks/1/busyThreshold`)).headers.get(`x-middleware-request-${IDENTITY_HEADER}`)!
    expect(await verifyIdentity(signed, { apiKeys: BASE.API_KEYS, publicApiKeys: BASE.PUBLIC_API_KEYS, publicAccess: true })).toBe('web')
    const replayed = await call('/networks/1/busyThreshold', { ...peer.from('203.0.113.7'), [IDENTITY_HEADER]: signed })
    expect(await caller(replayed)).toBe('public:203.0.113.7')
    const forged = await call('/networks/1/busyThreshold', { ...peer.from('203.0.113.7'), [IDENTITY_HEADER]: `web.${'0'.repeat(64)}` })
    expect(await caller(forged)).toBe('public:203.0.113.7')
    // without the keyless tier, a replayed identity is no credential at all
    configure(BASE)
    const signedAgain = (await call(`/v3/${WEB}/networks/1/busyThreshold`)).headers.get(`x-middleware-request-${IDENTITY_HEADER}`)!
    expect((await call('/networks/1/busyThreshold', { [IDENTITY_HEADER]: signedAgain })).status).toBe(401)
  })

  test('error: a public key opens the read paths and the chain pages only', async () => {
    configure({ ...BASE, READYZ_AUTH: 'basic' })
    expect((await call('/readyz', { authorization: WEB })).status).toBe(401)
    expect(passed(await call('/networks/1', { 'x-api-key': WEB }))).toBe(true)
  })

  test('behavior: an API_KEYS key in the path needs its secret by Basic auth, and must be that key', async () => {
    configure(BASE)
    // a secret is never read from a URL: the key name alone is no credential
    for (const path of ['/v3/alice/networks/1/busyThreshold', `/v3/${ALICE.secret}/networks/1/busyThreshold`]) {
      const res = await call(path)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /)
    }
    const withSecret = await call('/v3/alice/networks/1/busyThreshold', { authorization: formatBasicAuth(ALICE) })
    expect(passed(withSecret)).toBe(true)
    expect(await caller(withSecret)).toBe('alice')
    // alice's credentials under another key's path, or with another public key beside them
    expect((await call(`/v3/${WEB}/networks/1/busyThreshold`, { authorization: formatBasicAuth(ALICE) })).status).toBe(401)
    expect((await call('/v3/bob/networks/1/busyThreshold', { authorization: formatBasicAuth(ALICE) })).status).toBe(401)
  })

  test.each([
    ['an unknown raw key', '/networks/1/busyThreshold', { authorization: 'not-a-configured-key-0123' }],
    ['an unknown X-Api-Key', '/networks/1/busyThreshold', { 'x-api-key': 'not-a-configured-key-0123' }],
    ['an unknown key in the path', '/v3/not-a-configured-key-0123/networks/1/busyThreshold', {}],
    ['a key one character short', '/networks/1/busyThreshold', { 'x-api-key': WEB.slice(0, -1) }],
    ['two different keys', '/networks/1/busyThreshold', { authorization: WEB, 'x-api-key': BN }],
    ['a known key in the path, another in X-Api-Key', `/v3/${WEB}/networks/1/busyThreshold`, { 'x-api-key': BN }],
    ['a Bearer token', '/networks/1/busyThreshold', { authorization: `Bearer ${WEB}` }],
  ])('error: %s is a 401 counted by the failure throttle (then 429), with PUBLIC_ACCESS on too', async (_, path, headers) => {
    configure({ ...BASE, PUBLIC_ACCESS: 'true', AUTH_FAILURE_LIMIT: '2' })
    expect(passed(await call('/networks/1/busyThreshold', { 'x-api-key': WEB }))).toBe(true)
    for (let i = 0; i < 2; i++) {
      const res = await call(path, headers)
      expect(res.status).toBe(401)
      expect(await res.text()).not.toMatch(/not-a-configured|web-0123|3b9c/)
    }
    const throttled = await call(path, headers)
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
    // a key that verified before still passes from that address; a keyless caller is not a guess
    expect(passed(await call('/networks/1/busyThreshold', { 'x-api-key': WEB }))).toBe(true)
    expect(passed(await call('/networks/1/busyThreshold'))).toBe(true)
  })

  test('error: /v3/<key>/ leads to the read endpoints only: 404, without the key, after the key is checked', async () => {
    configure({ ...BASE, METRICS_TOKEN: 'metrics-token-of-unit-test' })
    for (const rest of ['', '/', '/metrics', '/readyz', '/networks/1', '/elsewhere']) {
      const res = await call(`/v3/${WEB}${rest}`)
      expect(res.status).toBe(404)
      expect(await res.text()).not.toContain(WEB)
      expect((await call(`/v3/not-a-configured-key-0123${rest}`)).status).toBe(401)
    }
  })

  test('default: without PUBLIC_API_KEYS nothing changes: a raw Authorization is malformed Basic, X-Api-Key no credential', async () => {
    configure({ API_KEYS: BASE.API_KEYS })
    const raw = await call('/networks/1/busyThreshold', { authorization: WEB })
    expect(raw.status).toBe(401)
    expect(((await raw.json()) as { message: string }).message).toBe('The Authorization header is not valid HTTP Basic credentials.')
    expect((await call('/networks/1/busyThreshold', { 'x-api-key': WEB })).status).toBe(401)
    expect((await call(`/v3/${WEB}/networks/1/busyThreshold`)).status).toBe(401)
    expect((await call('/networks/1/busyThreshold')).status).toBe(401)
    expect(passed(await call('/networks/1/busyThreshold', { authorization: formatBasicAuth(ALICE) }))).toBe(true)
  })

  test('behavior: public keys alone (API_KEYS empty) serve, and their identity verifies', async () => {
    configure({ PUBLIC_API_KEYS: BASE.PUBLIC_API_KEYS })
    const res = await call(`/v3/${WEB}/networks/1/busyThreshold`)
    expect(await caller(res)).toBe('web')
    expect((await call('/networks/1/busyThreshold', { authorization: formatBasicAuth(ALICE) })).status).toBe(401)
  })
})

describe('PUBLIC_ACCESS', () => {
  const KEYLESS_PATHS = [
    '/',
    '/networks/1',
    '/networks/1/suggestedGasFees',
    '/networks/1/stream',
    '/v1/supportedNetworks',
    '/gasprices/blockprices',
    '/gasprices/basefee-estimates',
    '/chains',
  ]

  test.each(KEYLESS_PATHS)(
    'behavior: %s without credentials: 401 by default, the keyless tier (public:<address>) with PUBLIC_ACCESS',
    async (path) => {
      configure(BASE)
      expect((await call(path, { ...peer.from('203.0.113.7') })).status).toBe(401)
      configure({ ...BASE, PUBLIC_ACCESS: 'true', TRUST_PROXY: 'true' })
      // behind one trusted proxy (the peer, 10.0.0.1): the entry it appended, not the one the client wrote
      const res = await call(path, { 'x-forwarded-for': '198.51.100.1, 203.0.113.7', ...peer.from('10.0.0.1') })
      expect(passed(res)).toBe(true)
      expect(await caller(res)).toBe('public:203.0.113.7')
    },
  )

  test('behavior: the keyless tier works with no key configured at all', async () => {
    configure({ PUBLIC_ACCESS: 'true' })
    const res = await call('/networks/1/busyThreshold', { ...peer.from('203.0.113.7') })
    expect(await caller(res)).toBe('public:203.0.113.7')
  })

  test('error: wrong credentials are a 401, never served as keyless', async () => {
    configure({ ...BASE, PUBLIC_ACCESS: 'true' })
    for (const headers of [
      { authorization: formatBasicAuth({ key: 'alice', secret: 'not-the-secret-of-alice' }) },
      { authorization: formatBasicAuth({ key: 'mallory', secret: 'mallory-secret-0123456' }) },
      { authorization: 'Basic !!!' },
      { authorization: 'not-a-configured-key-0123' },
      { 'x-api-key': 'not-a-configured-key-0123' },
    ] as Record<string, string>[]) {
      const res = await call('/networks/1/suggestedGasFees', headers)
      expect(res.status).toBe(401)
      expect(res.headers.get(`x-middleware-request-${IDENTITY_HEADER}`)).toBeNull()
    }
  })

  test('behavior: a keyed caller passes as its key, not as the keyless tier', async () => {
    configure({ ...BASE, PUBLIC_ACCESS: 'true' })
    expect(await caller(await call('/networks/1/busyThreshold', { authorization: formatBasicAuth(ALICE) }))).toBe('alice')
    expect(await caller(await call('/networks/1/busyThreshold', { 'x-api-key': WEB }))).toBe('web')
  })

  test('error: /metrics stays behind its token, /readyz (READYZ_AUTH=basic) and other paths behind a key', async () => {
    configure({ ...BASE, PUBLIC_ACCESS: 'true', METRICS_TOKEN: 'metrics-token-of-unit-test', READYZ_AUTH: 'basic' })
    for (const path of ['/metrics', '/readyz', '/elsewhere', '/v3/x/networks/1/busyThreshold']) expect((await call(path)).status).toBe(401)
    expect((await call('/metrics', { 'x-api-key': WEB })).status).toBe(401)
    expect(passed(await call('/metrics', { authorization: 'Bearer metrics-token-of-unit-test' }))).toBe(true)
  })
})

describe('CORS_ORIGINS', () => {
  const DAPP = 'https://dapp.example'

  test('default: CORS off: no CORS header, and a preflight needs credentials like any request', async () => {
    configure(BASE)
    const res = await call('/networks/1/busyThreshold', { origin: DAPP, 'x-api-key': WEB })
    expect(passed(res)).toBe(true)
    expect(allHeaders(res)).not.toMatch(/access-control-|"vary","Origin"/i)
    expect((await call('/networks/1/busyThreshold', { origin: DAPP, 'access-control-request-method': 'GET' }, 'OPTIONS')).status).toBe(401)
  })

  test('behavior: a listed origin may read every API answer, the middleware refusals (401, 429, 400, 404) included', async () => {
    configure({ ...BASE, CORS_ORIGINS: `${DAPP}, http://localhost:5173`, AUTH_FAILURE_LIMIT: '1' })
    const answers = [
      await call('/networks/1/busyThreshold', { origin: DAPP, 'x-api-key': WEB }),
      await call(`/v3/${WEB}/networks/1/busyThreshold`, { origin: DAPP }),
      await call('/networks/1/busyThreshold', { origin: DAPP }),
      await call('/networks/1/%E0%A4%A', { origin: DAPP, 'x-api-key': WEB }),
      await call(`/v3/${WEB}/metrics`, { origin: DAPP }),
      await call('/networks/1/busyThreshold', { origin: DAPP, 'x-api-key': 'not-a-configured-key-0123' }),
      await call('/networks/1/busyThreshold', { origin: DAPP, 'x-api-key': 'not-a-configured-key-0123' }),
    ]
    expect(answers.map((r) => (passed(r) ? 'pass' : r.status))).toEqual(['pass', 'pass', 401, 400, 404, 401, 429])
    for (const res of answers) {
      expect(res.headers.get('access-control-allow-origin')).toBe(DAPP)
      expect(res.headers.get('vary')).toBe('Origin')
      expect(res.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Remaining.*Retry-After/)
      expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    }
  })

  test('error: an origin not listed gets no allow header, on answers and preflights', async () => {
    configure({ ...BASE, CORS_ORIGINS: DAPP })
    const res = await call('/networks/1/busyThreshold', { origin: 'https://evil.example', 'x-api-key': WEB })
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('vary')).toBe('Origin')
    const preflight = await call(
      '/networks/1/busyThreshold',
      { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      'OPTIONS',
    )
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull()
  })

  test('behavior: a preflight is answered 204 before any credential, on every API path, /v3/ paths included', async () => {
    configure({ ...BASE, CORS_ORIGINS: DAPP })
    for (const path of [
      '/networks/1/stream',
      `/v3/${WEB}/networks/1/busyThreshold`,
      '/gasprices/blockprices',
      '/chains',
      '/v1/supportedNetworks',
    ]) {
      const res = await call(
        path,
        { origin: DAPP, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
        'OPTIONS',
      )
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe(DAPP)
      expect(res.headers.get('access-control-allow-methods')).toContain('GET')
      expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization.*X-Api-Key.*Last-Event-ID/)
    }
    // an OPTIONS that is no preflight needs credentials, as before
    expect((await call('/networks/1/busyThreshold', { origin: DAPP }, 'OPTIONS')).status).toBe(401)
  })

  test('behavior: `*` with the keyless tier: any page reads the answers, never with Allow-Credentials; the pages get no CORS header', async () => {
    configure({ ...BASE, CORS_ORIGINS: '*', PUBLIC_ACCESS: 'true' })
    const res = await call('/gasprices/blockprices', { origin: 'https://anyone.example' })
    expect(passed(res)).toBe(true)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    const page = await call('/networks/1', { origin: 'https://anyone.example' })
    expect(page.headers.get('access-control-allow-origin')).toBeNull()
  })
})
