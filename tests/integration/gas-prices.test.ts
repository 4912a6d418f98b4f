// GET /networks/{chainId}/gasPrices end to end: `next start`, real HTTP and auth, on the EIP-1559 devnet
// (next base fee + each level's tip, from the same block as suggestedGasFees) and on the suite's
// berlin anvil (no EIP-1559: the legacy price rule on the node's own transactions).
import { beforeAll, describe, expect, test } from 'vitest'
import { ErrorBodySchema, GasPricesSchema, SuggestedGasFeesSchema } from '@/lib/core/contract/schemas'
import { formatGwei, parseGwei } from '@/lib/core/units'
import { rpc } from '@/scripts/devnet/json-rpc'
import { api, basic, ctx, eventually, setFlakyMode, staleAfterHang } from './helpers'
import { legacyBlocks, seedLegacyBlocks, SEEDED_PRICES } from './legacy-chain'

const SEEDED = 30

describe('an EIP-1559 chain', () => {
  test('default: each price is the estimated base fee plus the level tip of suggestedGasFees for the same block', async () => {
    const { chains } = ctx()
    const { prices, fees } = await eventually(async () => {
      const prices = await api(`/networks/${chains.live}/gasPrices`)
      const fees = await api(`/networks/${chains.live}/suggestedGasFees`)
      return prices.headers.get('x-block-number') === fees.headers.get('x-block-number') ? { prices, fees } : undefined
    }, 'gasPrices and suggestedGasFees for the same block')
    expect(prices.status).toBe(200)
    const p = GasPricesSchema.strict().parse(prices.body)
    const f = SuggestedGasFeesSchema.parse(fees.body)
    const base = parseGwei(f.estimatedBaseFee)
    expect(p).toEqual({
      SafeGasPrice: formatGwei(base + parseGwei(f.low.suggestedMaxPriorityFeePerGas)),
      ProposeGasPrice: formatGwei(base + parseGwei(f.medium.suggestedMaxPriorityFeePerGas)),
      FastGasPrice: formatGwei(base + parseGwei(f.high.suggestedMaxPriorityFeePerGas)),
    })
    expect(prices.headers.get('x-chain-id')).toBe(String(chains.live))
    expect(prices.headers.get('content-type')).toMatch(/^application\/json/)
  })
})

describe('a chain without EIP-1559 (anvil --hardfork berlin)', () => {
  let head = 0
  beforeAll(async () => {
    const url = ctx().legacyNodeUrl
    await seedLegacyBlocks(url, SEEDED)
    head = Number(await rpc<string>(url, 'eth_blockNumber'))
  })

  // the service's first read of a legacy chain asks every node: a budget for a loaded machine (docs/benchmarks.md)
  test('default: 200 with the prices of the node’s own blocks, for its head block', { timeout: 180_000 }, async () => {
    const c = ctx()
    // the node's own view, read directly: no block carries a base fee; every seeded block's
    // transactions are legacy (type 0) and its cheapest price is the same
    const blocks = await legacyBlocks(c.legacyNodeUrl, head - SEEDED + 1, head)
    const cheapest = new Set<bigint>()
    for (const b of blocks) {
      expect(b.baseFeePerGas).toBeUndefined()
      expect(b.transactions.map((t) => Number(t.type))).toEqual(SEEDED_PRICES.map(() => 0))
      cheapest.add(b.transactions.map((t) => BigInt(t.gasPrice)).reduce((m, v) => (v < m ? v : m)))
    }
    expect(cheapest.size).toBe(1)
    const [price] = [...cheapest]

    const res = await eventually(async () => {
      const r = await api(`/networks/${c.chains.legacy}/gasPrices`)
      return r.status === 200 && r.headers.get('x-block-number') === String(head) ? r : undefined
    }, `gasPrices for block ${head}`)
    // blocks with room: every level pays the cheapest price that got in (not the median or the top)
    const body = GasPricesSchema.strict().parse(res.body)
    expect(body).toEqual({ SafeGasPrice: formatGwei(price!), ProposeGasPrice: formatGwei(price!), FastGasPrice: formatGwei(price!) })
    expect(res.headers.get('x-chain-id')).toBe(String(c.chains.legacy))
    expect(res.headers.get('x-data-stale')).toBe('false')
    expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
    expect(res.headers.get('age')).toMatch(/^\d+$/)
    expect(Number(res.headers.get('x-block-interval-ms'))).toBeGreaterThan(0)
  })

  test.each(['suggestedGasFees', 'busyThreshold', 'baseFeePercentile', 'baseFeeHistory', 'baseFeeForecast', 'accuracy', 'stream'])(
    'error: %s keeps its 400 there',
    async (endpoint) => {
      const res = await api(`/networks/${ctx().chains.legacy}/${endpoint}`)
      expect(res.status).toBe(400)
      expect(ErrorBodySchema.parse(res.body).message).toMatch(/does not use EIP-1559/)
    },
  )
})

describe('the same auth, errors, headers and rate limits as the other endpoints', () => {
  test('error: 401 without credentials or with a wrong secret, with WWW-Authenticate', async () => {
    const c = ctx()
    for (const auth of [null, basic([c.credentials.plain[0], 'not-the-secret'])]) {
      const res = await api(`/networks/${c.chains.live}/gasPrices`, { auth })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /)
      ErrorBodySchema.parse(res.body)
    }
  })

  test('behavior: the key’s quota headers, counted like any request', async () => {
    const c = ctx()
    const auth = basic(c.credentials.hashed)
    const first = await api(`/networks/${c.chains.live}/gasPrices`, { auth })
    const second = await api(`/networks/${c.chains.live}/gasPrices`, { auth })
    expect(first.headers.get('ratelimit-policy')).toBe('1200;w=60')
    // both requests are in the current window whatever the previous one held (its weight decays
    // between them under the sliding window, so the two answers need not differ by one)
    expect(Number(second.headers.get('ratelimit-remaining'))).toBeLessThanOrEqual(1200 - 2)
  })

  test.each([
    ['01', 400, /not a valid chain id/],
    ['6001', 400, /not a supported chain id/],
    ['31340', 502, /malformed|not JSON/],
    ['31342', 503, /retry shortly/],
  ])('error: chain %s gets %i', async (chain, status, message) => {
    const res = await api(`/networks/${chain}/gasPrices`)
    expect(res.status).toBe(status)
    expect(ErrorBodySchema.parse(res.body).message).toMatch(message)
    expect(JSON.stringify(res.body)).not.toContain('127.0.0.1')
  })

  test('behavior: writes get 405 with Allow; OPTIONS 204', async () => {
    const c = ctx()
    expect((await api(`/networks/${c.chains.live}/gasPrices`, { method: 'POST' })).status).toBe(405)
    const opts = await api(`/networks/${c.chains.live}/gasPrices`, { method: 'OPTIONS' })
    expect(opts.status).toBe(204)
    expect(opts.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  test('behavior: a failing node: the last prices marked stale (same block, same body), then current again', async () => {
    const { chains, rpcTimeoutMs } = ctx()
    const path = `/networks/${chains.flaky}/gasPrices`
    await setFlakyMode('ok')
    try {
      await staleAfterHang(path, 20 * rpcTimeoutMs)
    } finally {
      await setFlakyMode('ok')
    }
    await eventually(async () => {
      const res = await api(path)
      return res.status === 200 && res.headers.get('x-data-stale') === 'false' ? true : undefined
    }, 'current data after the node recovers')
  })
})
