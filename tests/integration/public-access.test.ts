import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startCountingProxy, type CountingProxy } from '@/scripts/devnet/counting-proxy'
import { startService, type Service } from '@/scripts/devnet/service'
import { basic, ctx, eventually } from './helpers'

// A service of its own with PUBLIC_API_KEYS (one named key, one Blocknative-style UUID), the keyless tier
// (5 requests an hour per address, behind a trusted proxy so the test picks the address) and CORS for one origin,
// against the live devnet of chain 31337.
const WEB = 'web-key-of-the-integration-0123'
const BN = '3b9c1d7e-5a24-4f0e-9c61-2d8f7a6b5e40'
const KEYED: [string, string] = ['pa', 'pa-secret-of-the-public-access-test']
const DAPP = 'https://dapp.example'
const KEYLESS_LIMIT = 5
const METRICS_TOKEN = 'public-access-metrics-token-0123'

let svc: Service
let proxy: CountingProxy
let logFile: string
const chain = () => ctx().chains.live

beforeAll(async () => {
  logFile = join(mkdtempSync(join(tmpdir(), 'gas-api-public-')), 'server.log')
  proxy = await startCountingProxy(ctx().nodeUrl)
  svc = await startService({
    logFile,
    env: {
      API_KEYS: KEYED.join(':'),
      PUBLIC_API_KEYS: `web:${WEB}, ${BN}`,
      PUBLIC_ACCESS: 'true',
      PUBLIC_RATE_LIMIT: `${KEYLESS_LIMIT}/3600`,
      CORS_ORIGINS: DAPP,
      TRUST_PROXY: 'true',
      AUTH_FAILURE_LIMIT: '0',
      METRICS_TOKEN,
      USE_PUBLIC_RPCS: 'false',
      [`RPC_URL_${ctx().chains.live}`]: proxy.url,
    },
  })
}, 120_000)
afterAll(async () => {
  await svc?.stop()
  await proxy?.close()
})

/** GET (or another method) on the service with the given headers; the body parsed when it is JSON. */
async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(`${svc.url}${path}`, { headers, method })
  const text = await res.text()
  let body: Record<string, unknown> = {}
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    // not JSON (a page, or nothing)
  }
  return { status: res.status, headers: res.headers, body, text }
}
const allHeaders = (h: Headers) => JSON.stringify([...h])

describe('PUBLIC_API_KEYS', () => {
  test('behavior: raw Authorization, X-Api-Key and the /v3/<key>/ path each get the same answer as Basic credentials', async () => {
    const path = `/networks/${chain()}/busyThreshold`
    const forms: { path: string; headers: Record<string, string> }[] = [
      { path, headers: { authorization: basic(KEYED) } },
      { path, headers: { authorization: BN } },
      { path, headers: { 'x-api-key': WEB } },
      { path: `/v3/${WEB}${path}`, headers: {} },
    ]
    for (const form of forms) {
      const res = await get(form.path, form.headers)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ busyThreshold: expect.stringMatching(/^\d+(\.\d+)?$/) })
      expect(Number(res.headers.get('x-block-number'))).toBeGreaterThan(0)
      expect(res.headers.get('ratelimit-limit')).toBe('1200')
      expect(allHeaders(res.headers)).not.toContain(WEB)
    }
  })

  test('behavior: the /v3/ path answers as the plain path on every kind of endpoint: a query, the catalogue, the stream', async () => {
    const replacement = await get(`/v3/${WEB}/networks/${chain()}/replacementFees?maxFeePerGas=3&maxPriorityFeePerGas=1`)
    expect(replacement.status).toBe(200)
    expect(replacement.body).toHaveProperty('medium')
    const missingQuery = await get(`/v3/${WEB}/networks/${chain()}/replacementFees`)
    expect(missingQuery.status).toBe(400)
    expect((await get(`/v3/${WEB}/v1/supportedNetworks`)).status).toBe(200)
    const abort = new AbortController()
    const stream = await fetch(`${svc.url}/v3/${WEB}/networks/${chain()}/stream`, { signal: abort.signal })
    expect(stream.status).toBe(200)
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = stream.body!.getReader()
    let text = ''
    while (!text.includes('event: fees')) text += new TextDecoder().decode((await reader.read()).value)
    abort.abort()
  })

  test('error: a secret is never read from the URL, and an unknown key is no credential', async () => {
    const path = `/networks/${chain()}/busyThreshold`
    for (const p of [`/v3/${KEYED[0]}${path}`, `/v3/${KEYED[1]}${path}`, `/v3/not-a-configured-key-0123${path}`]) {
      const res = await get(p)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /)
    }
    expect((await get(path, { 'x-api-key': 'not-a-configured-key-0123' })).status).toBe(401)
    expect((await get(path, { authorization: 'not-a-configured-key-0123' })).status).toBe(401)
    // Infura's form with the secret: the key in the path and its secret by Basic
    expect((await get(`/v3/${KEYED[0]}${path}`, { authorization: basic(KEYED) })).status).toBe(200)
  })

  test("behavior: a key in the path never reaches the server's log, answers or errors; the log names the key", async () => {
    const logBefore = readFileSync(logFile, 'utf8').length
    const answers = [
      await get(`/v3/${WEB}/networks/abc/suggestedGasFees`),
      await get(`/v3/${WEB}/networks/6001/suggestedGasFees`),
      await get(`/v3/${WEB}/networks/${chain()}/noSuchEndpoint`),
      await get(`/v3/${WEB}/networks/${chain()}/transactionCost?gas=x`),
      await get(`/v3/${WEB}/networks/%E0%A4%A/busyThreshold`),
      await get(`/v3/${WEB}/metrics`),
      await get(`/v3/${WEB}/networks/${chain()}/suggestedGasFees`),
    ]
    expect(answers.map((a) => a.status)).toEqual([400, 400, 404, 400, 400, 404, 200])
    for (const a of answers) {
      expect(a.text).not.toContain(WEB)
      expect(allHeaders(a.headers)).not.toContain(WEB)
    }
    const log = await eventually(async () => {
      const text = readFileSync(logFile, 'utf8').slice(logBefore)
      // the last request's line (a 200), not only the earlier 400s of the same route and key
      const lines = text.split('\n').filter((l) => l.includes('"route":"suggestedGasFees"') && l.includes('"key":"web"'))
      return lines.some((l) => l.includes('"status":200')) ? text : undefined
    }, 'the request lines of the /v3/ requests')
    expect(log).toContain('"key":"web"')
    // the whole log, every test's requests so far
    const whole = readFileSync(logFile, 'utf8')
    expect(whole).not.toContain(WEB)
    expect(whole).not.toContain(BN)
    expect(whole).not.toContain('/v3/')
  })
})

describe('PUBLIC_ACCESS', () => {
  test('behavior: keyless callers share PUBLIC_RATE_LIMIT per address: honest headers, a JSON 429 past it; another address and keyed callers keep their own', async () => {
    const path = `/networks/${chain()}/busyThreshold`
    const from = (address: string) => ({ 'x-forwarded-for': address })
    for (let i = 1; i <= KEYLESS_LIMIT; i++) {
      const res = await get(path, from('203.0.113.7'))
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe(String(KEYLESS_LIMIT))
      expect(res.headers.get('ratelimit-remaining')).toBe(String(KEYLESS_LIMIT - i))
    }
    const refused = await get(path, from('203.0.113.7'))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/)
    expect(refused.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    expect((await get(path, from('198.51.100.1'))).status).toBe(200)
    // keyed callers from the spent address: their own quotas
    for (const headers of [{ authorization: basic(KEYED) }, { 'x-api-key': WEB }] as Record<string, string>[]) {
      const res = await get(path, { ...from('203.0.113.7'), ...headers })
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('1200')
    }
    // the log names the keyless tier `public`, never the address
    const log = await eventually(async () => {
      const text = readFileSync(logFile, 'utf8')
      return text.includes('"key":"public"') && text.includes('"status":429') ? text : undefined
    }, 'the keyless request lines')
    expect(log).not.toContain('203.0.113.7')
  })

  test('behavior: keyless callers from many addresses cost the node what keyed ones do: about one read per block', async () => {
    const path = `/networks/${chain()}/suggestedGasFees`
    const blockOf = (r: { headers: Headers }) => Number(r.headers.get('x-block-number'))
    const first = await get(path, { 'x-forwarded-for': '10.99.0.1' })
    proxy.reset()
    const deadline = Date.now() + 60_000
    let blocks = 0
    let requests = 0
    // batches of 20 concurrent keyless requests, each from an address of its own, until the answers moved on by 4 blocks
    for (let batch = 0; blocks < 4; batch++) {
      expect(Date.now(), 'the devnet stopped producing blocks').toBeLessThan(deadline)
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => get(path, { 'x-forwarded-for': `10.${batch % 250}.${i}.1` })))
      for (const a of answers) expect(a.status).toBe(200)
      requests += answers.length
      blocks = Math.max(...answers.map(blockOf)) - blockOf(first)
    }
    const reads = proxy.counts().eth_feeHistory ?? 0
    console.log(`keyless: ${requests} requests from ${requests} addresses over ${blocks} blocks: ${reads} eth_feeHistory reads`)
    expect(reads).toBeGreaterThanOrEqual(1)
    expect(reads).toBeLessThanOrEqual(2 * blocks + 2)
  })

  test('behavior: the chain pages load without a login', async () => {
    for (const path of ['/', `/networks/${chain()}`]) {
      const res = await get(path, { 'x-forwarded-for': '192.0.2.50' })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(res.headers.get('www-authenticate')).toBeNull()
    }
  })

  test('error: wrong credentials are a 401, never keyless; /metrics stays behind its token', async () => {
    const path = `/networks/${chain()}/busyThreshold`
    expect((await get(path, { authorization: basic([KEYED[0], 'not-the-secret-0123456789']) })).status).toBe(401)
    expect((await get(path, { authorization: 'Basic !!!' })).status).toBe(401)
    expect((await get('/metrics')).status).toBe(401)
    expect((await get('/metrics', { 'x-api-key': WEB })).status).toBe(401)
    expect((await get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200)
  })
})

describe('CORS_ORIGINS', () => {
  test("behavior: a listed origin reads answers and errors (the handlers' and the middleware's), with the service's headers exposed", async () => {
    const origin = { origin: DAPP }
    const answers = [
      await get(`/networks/${chain()}/suggestedGasFees`, { ...origin, 'x-api-key': WEB }),
      await get(`/networks/abc/suggestedGasFees`, { ...origin, 'x-api-key': WEB }),
      await get(`/networks/${chain()}/suggestedGasFees`, { ...origin, 'x-api-key': 'not-a-configured-key-0123' }),
      await get(`/networks/${chain()}/suggestedGasFees`, { ...origin, 'x-forwarded-for': '203.0.113.99' }),
      await get(`/v3/${WEB}/networks/${chain()}/suggestedGasFees`, origin),
    ]
    expect(answers.map((a) => a.status)).toEqual([200, 400, 401, 200, 200])
    for (const a of answers) {
      expect(a.headers.get('access-control-allow-origin')).toBe(DAPP)
      expect(a.headers.get('vary')).toMatch(/\bOrigin\b/)
      expect(a.headers.get('access-control-expose-headers')).toMatch(/X-Block-Number.*RateLimit-Remaining.*Retry-After/)
      expect(a.headers.get('access-control-allow-credentials')).toBeNull()
    }
  })

  test('error: an origin not listed gets no allow header, on answers and on preflights', async () => {
    const res = await get(`/networks/${chain()}/suggestedGasFees`, { origin: 'https://evil.example', 'x-api-key': WEB })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await get(
      `/networks/${chain()}/suggestedGasFees`,
      { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      'OPTIONS',
    )
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull()
  })

  test('behavior: a preflight is answered 204 without credentials, allowing GET and the credential headers', async () => {
    for (const path of [`/networks/${chain()}/stream`, `/v3/${WEB}/networks/${chain()}/suggestedGasFees`]) {
      const res = await get(
        path,
        { origin: DAPP, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, x-api-key' },
        'OPTIONS',
      )
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe(DAPP)
      expect(res.headers.get('access-control-allow-methods')).toMatch(/\bGET\b/)
      expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization.*X-Api-Key.*Last-Event-ID/)
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0)
    }
  })
})
