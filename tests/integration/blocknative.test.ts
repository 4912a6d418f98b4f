// Blocknative's Gas Platform endpoints end to end: `next start` against the shared suite's devnets, each answer
// checked against GET /openapi.json (api()), its numbers against what the node itself reports.
import { describe, expect, test } from 'vitest'
import { BaseFeeEstimatesSchema, BlockPricesSchema, BlocknativeChainsSchema } from '@/lib/core/contract/blocknative-schemas'
import { formatGwei } from '@/lib/core/units'
import { rpc } from '@/scripts/devnet/json-rpc'
import { api, ctx, eventually } from './helpers'

type NodeBlock = { baseFeePerGas: string; transactions: string[] }

/** A block as the live devnet's node reports it, waiting for it to be mined. */
const nodeBlock = (n: number) =>
  eventually(
    async () => (await rpc<NodeBlock | null>(ctx().nodeUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])) ?? undefined,
    `block ${n}`,
  )

/** gwei as a JSON number, from wei as the node reports it. */
const gweiNumber = (wei: bigint | string) => Number(formatGwei(BigInt(wei)))

/** A 200 from `path`, current (not stale), with its parsed body and the raw text. */
async function current(path: string) {
  return eventually(async () => {
    const res = await api(path)
    return res.status === 200 && res.headers.get('x-data-stale') === 'false' ? res : undefined
  }, `a current answer from ${path}`)
}

describe('GET /gasprices/blockprices', () => {
  test('default: the next block at 99, 95, 90, 80, 70, as the node reports it', async () => {
    const live = ctx().chains.live
    const res = await current(`/gasprices/blockprices?chainid=${live}`)
    const body = BlockPricesSchema.parse(res.body)
    const head = Number(res.headers.get('x-block-number'))
    expect(body.currentBlockNumber).toBe(head)
    const [price] = body.blockPrices
    expect(price!.blockNumber).toBe(head + 1)
    // the next block's base fee, as the node mines it
    expect(price!.baseFeePerGas).toBe(gweiNumber((await nodeBlock(head + 1)).baseFeePerGas))
    // the head's transactions, as the node holds them
    expect(price!.estimatedTransactionCount).toBe((await nodeBlock(head)).transactions.length)
    expect(price!.estimatedPrices.map((p) => p.confidence)).toEqual([99, 95, 90, 80, 70])
    for (const p of price!.estimatedPrices) {
      expect(p.price).toBeGreaterThanOrEqual(price!.baseFeePerGas)
      // one full block's rise (EIP-1559's 12.5%) over the next base fee, at least
      expect(p.maxFeePerGas - p.maxPriorityFeePerGas).toBeGreaterThanOrEqual(price!.baseFeePerGas * 1.125 - 1e-9)
    }
    const asked = price!.estimatedPrices
    for (let i = 1; i < asked.length; i++) expect(asked[i]!.maxPriorityFeePerGas).toBeLessThanOrEqual(asked[i - 1]!.maxPriorityFeePerGas)
    expect('estimatedBaseFees' in body).toBe(false)
    expect(res.headers.get('x-chain-id')).toBe(String(live))
    expect(res.headers.get('x-data-stale')).toBe('false')
  })

  test('behavior: baseFeePerGas is suggestedGasFees’ estimatedBaseFee for the same head', async () => {
    const live = ctx().chains.live
    const pair = await eventually(async () => {
      const a = await current(`/gasprices/blockprices?chainid=${live}`)
      const b = await current(`/networks/${live}/suggestedGasFees`)
      return a.headers.get('x-block-number') === b.headers.get('x-block-number') ? { a, b } : undefined
    }, 'two answers for the same head')
    const bp = BlockPricesSchema.parse(pair.a.body)
    expect(bp.blockPrices[0]!.baseFeePerGas).toBe(Number(pair.b.body.estimatedBaseFee))
  })

  test('args: confidenceLevels answered in the order asked; a higher one never asks less', async () => {
    const live = ctx().chains.live
    const res = await current(`/gasprices/blockprices?chainid=${live}&confidenceLevels=10,99&confidenceLevels=50`)
    const prices = BlockPricesSchema.parse(res.body).blockPrices[0]!.estimatedPrices
    expect(prices.map((p) => p.confidence)).toEqual([10, 99, 50])
    const [c10, c99, c50] = prices
    expect(c10!.maxPriorityFeePerGas).toBeLessThanOrEqual(c50!.maxPriorityFeePerGas)
    expect(c50!.maxPriorityFeePerGas).toBeLessThanOrEqual(c99!.maxPriorityFeePerGas)
    expect(c50!.maxFeePerGas).toBeLessThanOrEqual(c99!.maxFeePerGas)
  })

  test('args: withBaseFees=true gives pending+1 … pending+5 from the base-fee forecast of the same head', async () => {
    const live = ctx().chains.live
    const { bp, forecast } = await eventually(async () => {
      const a = await current(`/gasprices/blockprices?chainid=${live}&withBaseFees=true`)
      const b = await current(`/networks/${live}/baseFeeForecast`)
      return a.headers.get('x-block-number') === b.headers.get('x-block-number') ? { bp: a.body, forecast: b.body } : undefined
    }, 'two answers for the same head')
    const fees = BlockPricesSchema.parse(bp).estimatedBaseFees!
    const horizons = forecast.horizons as { blocks: number; p50: string; p99: string }[]
    fees.forEach((entry, i) => {
      const h = horizons.find((x) => x.blocks === i + 2)!
      expect(entry[`pending+${i + 1}`]).toEqual([
        { confidence: 99, baseFee: Number(h.p99) },
        { confidence: 50, baseFee: Number(h.p50) },
      ])
    })
  })

  test('behavior: the numbers are plain decimals of at most 9 decimals, never an exponent', async () => {
    const live = ctx().chains.live
    const res = await fetch(`${ctx().api}/gasprices/blockprices?chainid=${live}&withBaseFees=true&confidenceLevels=1,99`, {
      headers: { authorization: `Basic ${Buffer.from(ctx().credentials.plain.join(':')).toString('base64')}` },
    })
    const text = await res.text()
    expect(res.status).toBe(200)
    expect(text).not.toMatch(/[0-9][eE][+-]?[0-9]/)
    expect(text).not.toMatch(/\.[0-9]{10,}/)
    expect(text).not.toMatch(/null|NaN/)
  })

  test('behavior: maxPrice is the newest block’s highest price paid, as eth_feeHistory reports it', async () => {
    const live = ctx().chains.live
    const res = await current(`/gasprices/blockprices?chainid=${live}`)
    const head = Number(res.headers.get('x-block-number'))
    const fh = await rpc<{ baseFeePerGas: string[]; reward: string[][] }>(ctx().nodeUrl, 'eth_feeHistory', [
      '0x1',
      `0x${head.toString(16)}`,
      [100],
    ])
    const expected = BigInt(fh.baseFeePerGas[0]!) + BigInt(fh.reward[0]![0]!)
    expect(BlockPricesSchema.parse(res.body).maxPrice).toBe(gweiNumber(expected))
  })

  test.each([
    ['confidenceLevels=0', 'confidenceLevels'],
    ['confidenceLevels=100', 'confidenceLevels'],
    ['confidenceLevels=95.5', 'confidenceLevels'],
    ['confidenceLevels=abc', 'confidenceLevels'],
    ['confidenceLevels=99,95,90,80,70,60', 'confidenceLevels'],
    ['confidenceLevels=99&confidenceLevels=95,90,80,70,60', 'confidenceLevels'],
    ['chainid=0', 'chainid'],
    ['chainid=-1', 'chainid'],
    ['chainid=1.5', 'chainid'],
    ['chainid=0x1', 'chainid'],
    ['chainid=abc', 'chainid'],
    ['chainId=', 'chainId'],
    ['withBaseFees=yes', 'withBaseFees'],
    ['withBaseFees=1', 'withBaseFees'],
    ['system=ethereum', 'network'],
    ['system=nowhere&network=main', 'system'],
  ])('error: %s is a 400 naming %s', async (query, parameter) => {
    const res = await api(`/gasprices/blockprices?${query}`)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(`'${parameter}'`)
  })

  test('error: an unsupported chain, and a chain without EIP-1559, get the same answer as elsewhere', async () => {
    for (const chain of [6001, ctx().chains.legacy]) {
      const ours = await api(`/gasprices/blockprices?chainid=${chain}`)
      const theirs = await api(`/networks/${chain}/suggestedGasFees`)
      expect(ours.status).toBe(400)
      expect(ours.body).toEqual(theirs.body)
    }
  })

  test('error: the write methods get 405, and no credentials a 401', async () => {
    expect((await api('/gasprices/blockprices', { method: 'POST' })).status).toBe(405)
    expect((await api('/gasprices/blockprices', { auth: null })).status).toBe(401)
  })
})

describe('GET /gasprices/basefee-estimates', () => {
  test('default: the next base fee and pending+1 … +5; blob fees exactly where blobFees answers', async () => {
    const live = ctx().chains.live
    const res = await current(`/gasprices/basefee-estimates?chainid=${live}`)
    const body = BaseFeeEstimatesSchema.parse(res.body)
    const head = Number(res.headers.get('x-block-number'))
    expect(body.currentBlockNumber).toBe(head)
    expect(body.baseFeePerGas).toBe(gweiNumber((await nodeBlock(head + 1)).baseFeePerGas))
    expect(body.estimatedBaseFees.map((o) => Object.keys(o)[0])).toEqual(['pending+1', 'pending+2', 'pending+3', 'pending+4', 'pending+5'])
    for (const [i, o] of body.estimatedBaseFees.entries()) {
      const [p99, p50] = o[`pending+${i + 1}`]!
      expect(p99!.baseFee).toBeGreaterThanOrEqual(p50!.baseFee)
    }
    const blobs = await api(`/networks/${live}/blobFees`)
    expect('blobBaseFeePerGas' in body).toBe(blobs.status === 200)
    expect(body.estimatedBaseFees[0]!['pending+1']![0]!.blobBaseFee !== undefined).toBe(blobs.status === 200)
  })

  test('error: a bad chainid is a 400 naming it', async () => {
    const res = await api('/gasprices/basefee-estimates?chainid=one')
    expect(res.status).toBe(400)
    expect(res.body.message).toContain("'chainid'")
  })
})

describe('GET /chains', () => {
  test('default: every served chain, with names that select it in blockprices', async () => {
    const res = await api('/chains')
    expect(res.status).toBe(200)
    const chains = BlocknativeChainsSchema.parse(res.body)
    const served = (await api('/v1/supportedChainNames')).body as Record<string, string>
    expect(chains.map((c) => String(c.chainId)).sort()).toEqual(Object.keys(served).sort())
    expect(new Set(chains.map((c) => `${c.system}/${c.network}`)).size).toBe(chains.length)
    const live = chains.find((c) => c.chainId === ctx().chains.live)!
    const byName = await current(`/gasprices/blockprices?system=${live.system}&network=${live.network}`)
    expect(byName.headers.get('x-chain-id')).toBe(String(live.chainId))
  })
})
