import { request as httpRequest } from 'node:http'
import { describe, expect, test } from 'vitest'
import { ErrorBodySchema } from '@/lib/core/contract/schemas'
import { api, basic, ctx } from './helpers'

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

function expectError(res: Awaited<ReturnType<typeof api>>, status: number, message?: RegExp) {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  const body = ErrorBodySchema.strict().parse(res.body)
  expect(body.statusCode).toBe(status)
  expect(body.error).toBe(REASONS[status])
  if (message) expect(body.message).toMatch(message)
  const c = ctx()
  for (const leak of ['127.0.0.1', c.credentials.plain[1], c.credentials.hashed[1], 'node_modules', '.ts:'])
    expect(JSON.stringify(body)).not.toContain(leak)
}

describe('400', () => {
  test.each(['0', '-1', '01', '1.0', '0x1', '1e3', 'abc', '9007199254740993'])(
    'error: chain id "%s" is not a positive decimal integer',
    async (id) => {
      expectError(await api(`/networks/${encodeURIComponent(id)}/suggestedGasFees`), 400, /not a valid chain id/)
    },
  )

  test('error: an unsupported chain', async () => {
    expectError(await api(`/networks/${ctx().chains.unlisted}/busyThreshold`), 400, /^'6001' is not a supported chain id\.$/)
  })

  test('error: a chain without EIP-1559 (anvil on berlin) gets a clear 400, not invented numbers', async () => {
    expectError(await api(`/networks/${ctx().chains.legacy}/suggestedGasFees`), 400, /does not use EIP-1559/)
  })
})

describe('401', () => {
  const path = () => `/networks/${ctx().chains.live}/baseFeePercentile`
  test.each([
    ['missing', null, /Authentication required/],
    ['another scheme', 'Bearer abc', /not valid HTTP Basic/],
    ['invalid base64', 'Basic %%%%', /not valid HTTP Basic/],
    ['no colon', `Basic ${Buffer.from('itest').toString('base64')}`, /not valid HTTP Basic/],
    ['an empty key', `Basic ${Buffer.from(':plain-secret-of-itest').toString('base64')}`, /not valid HTTP Basic/],
    ['a wrong secret', 'WRONG', /not valid\./],
    ['an unknown key', `Basic ${Buffer.from('nobody:plain-secret-of-itest').toString('base64')}`, /not valid\./],
    ["a hashed key's digest sent as the secret", 'DIGEST', /not valid\./],
  ])('error: %s', async (_, header, message) => {
    const c = ctx()
    const auth =
      header === 'WRONG'
        ? basic([c.credentials.plain[0], 'nope'])
        : header === 'DIGEST'
          ? basic([c.credentials.hashed[0], 'sha256'])
          : header
    const res = await api(path(), { auth })
    expectError(res, 401, message)
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="gas-api", charset="UTF-8"')
  })

  test('behavior: the pages sit behind the same auth', async () => {
    const res = await api('/', { auth: null })
    expectError(res, 401)
    expect((await api('/', {})).status).toBe(200)
  })

  test('behavior: static assets do not', async () => {
    const icon = await api('/assets/icon.svg', { auth: null })
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toMatch(/svg/)
    const page = await fetch(`${ctx().api}/`, { headers: { authorization: basic(ctx().credentials.plain) } })
    const css = /href="(\/_next\/static\/[^"]+\.css)"/.exec(await page.text())?.[1]
    expect(css).toBeDefined()
    expect((await api(css!, { auth: null })).status).toBe(200)
  })
})

describe('accepted credentials', () => {
  test.each(['plain', 'hashed', 'colon'] as const)('args: %s', async (kind) => {
    const res = await api(`/networks/${ctx().chains.live}/baseFeePercentile`, { auth: basic(ctx().credentials[kind]) })
    expect(res.status).toBe(200)
  })

  test('args: lowercase scheme and extra spaces', async () => {
    const [k, s] = ctx().credentials.plain
    const res = await api(`/networks/${ctx().chains.live}/baseFeePercentile`, {
      auth: `basic   ${Buffer.from(`${k}:${s}`).toString('base64')}`,
    })
    expect(res.status).toBe(200)
  })
})

describe('the identity the middleware forwards', () => {
  test('behavior: a client-supplied identity header is replaced by the verified one, never trusted', async () => {
    const { api: base, chains, credentials } = ctx()
    // 'colon' authenticates; the made-up header claims the unlimited 'itest' key
    const res = await fetch(`${base}/networks/${chains.live}/baseFeePercentile`, {
      headers: { authorization: basic(credentials.colon), 'x-gas-api-identity': `itest.${'0'.repeat(64)}` },
    })
    expect(res.status).toBe(200)
    // the default quota of 'colon', not the unlimited one of 'itest'
    expect(res.headers.get('ratelimit-limit')).toBe('1200')
  })

  test('error: without credentials a made-up identity header gets 401 at the middleware', async () => {
    const res = await fetch(`${ctx().api}/networks/${ctx().chains.live}/baseFeePercentile`, {
      headers: { 'x-gas-api-identity': `itest.${'0'.repeat(64)}` },
    })
    expect(res.status).toBe(401)
  })
})

describe('404 and 405', () => {
  test('error: an unknown endpoint under a chain is a JSON 404', async () => {
    expectError(await api(`/networks/${ctx().chains.live}/gasPrice`), 404, /suggestedGasFees/)
  })

  test.each(['POST', 'PUT', 'PATCH', 'DELETE'])('error: %s is 405 with Allow', async (method) => {
    const res = await api(`/networks/${ctx().chains.live}/suggestedGasFees`, { method })
    expectError(res, 405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  test.each(['/healthz', '/readyz', '/openapi.json'])(
    'error: the write methods on the service paths (%s) are the JSON 405 with one Allow; OPTIONS lists them',
    async (path) => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await api(path, { method })
        expectError(res, 405)
        expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
      }
      const options = await api(path, { method: 'OPTIONS' })
      expect(options.status).toBe(204)
      expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    },
  )

  test.each(['/v1/suggestedgasfees', '/v1/suggestedGasFees/extra', '/gasprices/nope'])(
    'error: an unknown path under an API prefix is a JSON 404, not the HTML page: %s',
    async (path) => {
      expectError(await api(path), 404, /No such endpoint/)
    },
  )

  /** A request as a raw client sends it: methods and request targets that fetch cannot send. */
  const raw = (method: string, target: string, extra: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Headers; body: unknown }>((resolve, reject) => {
      const { hostname, port } = new URL(ctx().api)
      const headers = { authorization: basic(ctx().credentials.plain), ...extra }
      const req = httpRequest({ hostname, port, method, path: target, headers })
      req.on('response', (r) => {
        let text = ''
        r.on('data', (d) => (text += String(d)))
        r.on('end', () => {
          const headers = new Headers()
          for (const [k, v] of Object.entries(r.headers)) if (typeof v === 'string') headers.set(k, v)
          resolve({ status: r.statusCode ?? 0, headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) })
        })
      })
      req.on('error', reject)
      req.end()
    })

  test('error: TRACE, which no fetch Request can carry, is a JSON 405 with Allow, not a bare 500', async () => {
    const res = await raw('TRACE', `/networks/${ctx().chains.live}/suggestedGasFees`)
    expectError(res as Awaited<ReturnType<typeof api>>, 405, /The method TRACE is not allowed here/)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  test('error: an Expect other than 100-continue is a JSON 417 (Node alone answers a bare one)', async () => {
    const res = await raw('GET', `/networks/${ctx().chains.live}/busyThreshold`, { expect: 'foo' })
    expect(res.status).toBe(417)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(ErrorBodySchema.strict().parse(res.body)).toMatchObject({ statusCode: 417, error: 'Expectation Failed' })
  })

  test("error: a '__proto__' query parameter, which Next would drop unseen, is a JSON 400 (a multi-chain call would answer every chain)", async () => {
    for (const target of ['/v1/suggestedGasFees?__proto__=1', `/v1/suggestedGasFees?chainIds=${ctx().chains.live}&%5F%5Fproto%5F%5F=x`]) {
      expectError((await raw('GET', target)) as Awaited<ReturnType<typeof api>>, 400, /'__proto__'/)
    }
  })

  test('behavior: request targets that are no path: an absolute URL (a proxy’s) is its path; `*` is 204 to OPTIONS, else a JSON 400', async () => {
    // an absolute-form target answers as its path, wherever its host points (Next would redirect to it)
    const absolute = await raw('GET', `http://evil.example/networks/${ctx().chains.live}/busyThreshold`)
    expect(absolute.status).toBe(200)
    expect(absolute.body).toMatchObject({ busyThreshold: expect.stringMatching(/^\d+(\.\d+)?$/) })
    const star = await raw('OPTIONS', '*')
    expect(star.status).toBe(204)
    expect(star.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expectError((await raw('GET', '*')) as Awaited<ReturnType<typeof api>>, 400, /not a path/)
  })
})

describe('502 and 503', () => {
  test('error: an upstream that answers garbage gives 502', async () => {
    expectError(await api(`/networks/${ctx().chains.garbage}/suggestedGasFees`), 502, /not JSON/)
  })

  test('error: an upstream that never answers gives 503 with Retry-After (the service gives up; it does not hang)', async () => {
    // the node never answers, so any answer at all comes from the service's own deadline
    const res = await api(`/networks/${ctx().chains.hang}/busyThreshold`)
    expectError(res, 503, /did not answer/)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  })

  test('error: an upstream that is down gives 503 with Retry-After', async () => {
    const res = await api(`/networks/${ctx().chains.down}/baseFeeHistory`)
    expectError(res, 503, /could not be reached/)
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
  })
})
