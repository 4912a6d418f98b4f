// GET /networks/{chainId}/baseFeeForecast end to end: `next start` against the live anvil devnet
// (the suite's service, where chain 31337 has the default policy: bounds assumed, not enforced), and
// a service of this file's own on the same node with Ethereum's enforced bounds.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type Service } from '@/scripts/devnet/service'
import { BaseFeeForecastSchema, ErrorBodySchema, SuggestedGasFeesSchema, type BaseFeeForecastBody } from '@/lib/core/contract/schemas'
import { parseGwei } from '@/lib/core/units'
import { assertContract } from '../support/contract'
import { api, basic, ctx, eventually, gwei, nodeFeeHistory, setFlakyMode, staleAfterHang } from './helpers'

const live = () => ctx().chains.live
const path = (chainId: number | string = live()) => `/networks/${chainId}/baseFeeForecast`
const blockOf = (headers: Headers) => Number(headers.get('x-block-number'))

/** next × (1 + ppm/10⁶)^steps, rounded up at each step (a bound never rounds below the rule). */
function grown(next: bigint, ppm: bigint, steps: number): bigint {
  let v = next
  for (let i = 0; i < steps; i++) v = (v * (1_000_000n + ppm) + 999_999n) / 1_000_000n
  return v
}

/** p50 ≤ p90 ≤ p99 (≤ bound when there is one) at every horizon, parsed to wei. */
function expectOrdered(body: BaseFeeForecastBody) {
  for (const h of body.horizons) {
    const [p50, p90, p99] = [h.p50, h.p90, h.p99].map(parseGwei) as [bigint, bigint, bigint]
    expect(p50 <= p90 && p90 <= p99, `k = ${h.blocks}: ${h.p50} ≤ ${h.p90} ≤ ${h.p99}`).toBe(true)
    if (h.bound !== null) expect(p99 <= parseGwei(h.bound), `k = ${h.blocks}: ${h.p99} ≤ ${h.bound}`).toBe(true)
  }
}

/** The forecast and suggestedGasFees of one block (re-read until both answers name the same block). */
async function forecastWithFees(get: (endpoint: string) => Promise<{ status: number; headers: Headers; body: unknown }>) {
  return eventually(async () => {
    const forecast = await get('baseFeeForecast')
    const fees = await get('suggestedGasFees')
    expect(forecast.status).toBe(200)
    expect(fees.status).toBe(200)
    return blockOf(forecast.headers) === blockOf(fees.headers) ? { forecast, fees } : undefined
  }, 'baseFeeForecast and suggestedGasFees of the same block')
}

describe('GET /networks/{chainId}/baseFeeForecast', () => {
  test('default: the head block, the exact next base fee, and 10 ordered horizons; k = 1 is suggestedGasFees.estimatedBaseFee of the same block', async () => {
    const { forecast, fees } = await forecastWithFees((endpoint) => api(`/networks/${live()}/${endpoint}`))
    const body = BaseFeeForecastSchema.strict().parse(forecast.body)
    expect(Object.keys(forecast.body as object)).toEqual(['blockNumber', 'estimatedBaseFee', 'horizons'])
    for (const h of body.horizons) expect(Object.keys(h)).toEqual(['blocks', 'p50', 'p90', 'p99', 'bound'])
    expect(body.blockNumber).toBe(blockOf(forecast.headers))
    expect(body.horizons.map((h) => h.blocks)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])

    const next = SuggestedGasFeesSchema.parse(fees.body).estimatedBaseFee
    expect(body.estimatedBaseFee).toBe(next)
    // and that is the node's own base fee of the next block (read straight from it)
    expect(body.estimatedBaseFee).toBe(gwei((await nodeFeeHistory(body.blockNumber, [])).next))
    const first = body.horizons[0]!
    expect([first.p50, first.p90, first.p99]).toEqual([next, next, next])
    expectOrdered(body)
    // chain 31337 is not in the policy table: its bounds are assumed, never enforced
    expect(body.horizons.map((h) => h.bound)).toEqual(Array(10).fill(null))
  })

  test('behavior: the freshness headers of the other fee endpoints; HEAD and OPTIONS', async () => {
    const res = await eventually(async () => {
      const r = await api(path())
      return r.headers.get('x-data-stale') === 'false' ? r : undefined
    }, 'a current answer')
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('x-chain-id')).toBe(String(live()))
    expect(res.headers.get('x-block-number')).toMatch(/^\d+$/)
    expect(res.headers.get('x-block-timestamp')).toMatch(/^\d+$/)
    expect(Number(res.headers.get('x-block-interval-ms'))).toBeGreaterThan(0)
    expect(res.headers.get('age')).toMatch(/^\d+$/)
    expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
    const head = await api(path(), { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers.get('x-block-number')).toMatch(/^\d+$/)
    const options = await api(path(), { method: 'OPTIONS' })
    expect(options.status).toBe(204)
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  test('behavior: while the node fails, the last window is served marked stale, the same body', async () => {
    await setFlakyMode('ok')
    try {
      await staleAfterHang(path(ctx().chains.flaky), 20 * ctx().rpcTimeoutMs)
    } finally {
      await setFlakyMode('ok')
    }
  })

  test.each<[string, () => { path: string; auth?: string | null; method?: string }, number, RegExp]>([
    ['no credentials', () => ({ path: path(), auth: null }), 401, /^Authentication required/],
    ['a wrong secret', () => ({ path: path(), auth: basic([ctx().credentials.plain[0], 'not-the-secret']) }), 401, /not valid/],
    ['an unknown chain', () => ({ path: path(ctx().chains.unlisted) }), 400, /^'6001' is not a supported chain id\.$/],
    ['a chain id that is not canonical', () => ({ path: path('01') }), 400, /chain id/i],
    ['a chain without EIP-1559', () => ({ path: path(ctx().chains.legacy) }), 400, /does not use EIP-1559/],
    ['a write method', () => ({ path: path(), method: 'POST' }), 405, /read-only|not allowed/i],
  ])('error: %s is answered as on the other fee endpoints', async (_, request, status, message) => {
    const { path: p, ...init } = request()
    const res = await api(p, init)
    expect(res.status).toBe(status)
    const body = ErrorBodySchema.parse(res.body)
    expect(body.statusCode).toBe(status)
    expect(body.message).toMatch(message)
    if (status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Basic /)
  })

  test('behavior: GET /openapi.json lists the endpoint and the stream field', async () => {
    const doc = (await api('/openapi.json', { auth: null })).body as {
      paths: Record<string, { get?: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> } }>
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> }
    }
    const ok = doc.paths['/networks/{chainId}/baseFeeForecast']?.get?.responses['200']
    expect(ok?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/BaseFeeForecast' })
    expect(doc.components.schemas.BaseFeeForecast?.required).toEqual(['blockNumber', 'estimatedBaseFee', 'horizons'])
    expect(doc.components.schemas.FeesEvent?.properties?.baseFeeForecast).toEqual({ $ref: '#/components/schemas/BaseFeeForecast' })
    expect(doc.components.schemas.FeesEvent?.required).toContain('baseFeeForecast')
  })
})

describe('on a chain that enforces EIP-1559 bounds (the same devnet, as Ethereum: CHAIN_FEE_POLICIES)', () => {
  const CRED: [string, string] = ['forecast', 'forecast-secret-of-test']
  let service: Service

  beforeAll(async () => {
    service = await startService({
      env: {
        API_KEYS: CRED.join(':'),
        RATE_LIMITS: `${CRED[0]}=0`,
        USE_PUBLIC_RPCS: 'false',
        REQUEST_LOG: 'false',
        RPC_URL_31337: ctx().nodeUrl,
        CHAIN_FEE_POLICIES: JSON.stringify({ 31337: { enforceBaseFeeBounds: true } }),
      },
    })
  }, 180_000)

  afterAll(async () => {
    await service?.stop()
  })

  async function get(endpoint: string) {
    const p = `/networks/31337/${endpoint}`
    const res = await fetch(`${service.url}${p}`, { headers: { authorization: basic(CRED) } })
    const body = (await res.json()) as unknown
    assertContract({ method: 'GET', path: p, status: res.status, headers: res.headers, body })
    return { status: res.status, headers: res.headers, body }
  }

  test("behavior: bound is the protocol's: the next base fee after k − 1 rises of 12.5%, and p50 ≤ p90 ≤ p99 ≤ bound", async () => {
    const { forecast, fees } = await forecastWithFees(get)
    const body = BaseFeeForecastSchema.strict().parse(forecast.body)
    const next = parseGwei(SuggestedGasFeesSchema.parse(fees.body).estimatedBaseFee)
    expect(parseGwei(body.estimatedBaseFee)).toBe(next)
    expect(body.horizons.map((h) => h.bound)).toEqual(body.horizons.map((h) => gwei(grown(next, 125_000n, h.blocks - 1))))
    expect(body.horizons[0]!.p99).toBe(body.estimatedBaseFee)
    expectOrdered(body)
  })
})
