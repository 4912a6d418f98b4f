import { describe, expect, test } from 'vitest'
import { baseFeeEstimatesBody, blockPricesBody, chainsBody } from '@/lib/blocknative/bodies'
import { chainNames } from '@/lib/blocknative/names'
import type { ConfidenceReport } from '@/lib/fees'

const GWEI = 1_000_000_000n

/** A report as lib/fees makes it, with amounts chosen to show the gwei writing (wei). */
function report(overrides: Partial<ConfidenceReport> = {}): ConfidenceReport {
  const horizons = Array.from({ length: 10 }, (_, i) => ({ blocks: i + 1, p50: BigInt(i + 1) * GWEI, p99: BigInt(i + 1) * GWEI + 1n }))
  return {
    meta: {
      chainId: 1,
      blockNumber: 1000,
      blockTimestamp: 1_800_000_000,
      blockIntervalMs: 12_000,
      fetchedAt: 1_800_000_001_000,
      freshUntil: 1_800_000_013_000,
      stale: false,
    },
    nextBaseFee: 12_345_678_901n,
    prices: [
      { confidence: 99, price: 13n * GWEI, maxPriorityFeePerGas: 655_321_099n, maxFeePerGas: 14n * GWEI + 1n },
      { confidence: 70, price: 12_345_678_902n, maxPriorityFeePerGas: 1n, maxFeePerGas: 13_888_888_889n },
    ],
    baseFeeForecast: horizons,
    blob: null,
    headTransactionCount: 187,
    maxPrice: 250n * GWEI,
    ...overrides,
  }
}

const names = { system: 'ethereum', network: 'main' }
const NOW = 1_800_000_004_500

describe('blockPricesBody', () => {
  test('default: the next block, each asked level, gwei as plain JSON numbers', () => {
    const text = blockPricesBody(report(), names, { withBaseFees: false, now: NOW })
    // numbers, never strings, exponents or more than 9 decimals
    expect(text).toContain('"baseFeePerGas":12.345678901')
    expect(text).toContain('"maxPriorityFeePerGas":0.000000001')
    expect(text).not.toMatch(/\d[eE][+-]?\d/)
    expect(JSON.parse(text)).toEqual({
      system: 'ethereum',
      network: 'main',
      unit: 'gwei',
      maxPrice: 250,
      currentBlockNumber: 1000,
      msSinceLastBlock: 4500,
      blockPrices: [
        {
          blockNumber: 1001,
          estimatedTransactionCount: 187,
          baseFeePerGas: 12.345678901,
          estimatedPrices: [
            { confidence: 99, price: 13, maxPriorityFeePerGas: 0.655321099, maxFeePerGas: 14.000000001 },
            { confidence: 70, price: 12.345678902, maxPriorityFeePerGas: 1e-9, maxFeePerGas: 13.888888889 },
          ],
        },
      ],
    })
  })

  test('args: withBaseFees gives pending+1 … pending+5 from the forecast (99 = p99, 50 = p50)', () => {
    const body = JSON.parse(blockPricesBody(report(), names, { withBaseFees: true, now: NOW }))
    expect(body.estimatedBaseFees.map((o: object) => Object.keys(o)[0])).toEqual([
      'pending+1',
      'pending+2',
      'pending+3',
      'pending+4',
      'pending+5',
    ])
    // pending is head + 1 (the forecast's horizon 1), so pending+1 is horizon 2
    expect(body.estimatedBaseFees[0]['pending+1']).toEqual([
      { confidence: 99, baseFee: 2.000000001 },
      { confidence: 50, baseFee: 2 },
    ])
    expect(body.estimatedBaseFees[4]['pending+5']).toEqual([
      { confidence: 99, baseFee: 6.000000001 },
      { confidence: 50, baseFee: 6 },
    ])
  })

  test('behavior: blobBaseFeePerGas only on a chain with blobs', () => {
    const blob = { nextBlobBaseFee: 1n, forecast: Array.from({ length: 10 }, (_, i) => ({ blocks: i + 1, p50: 1n, p99: 2n })) }
    const withBlobs = JSON.parse(blockPricesBody(report({ blob }), names, { withBaseFees: false, now: NOW }))
    expect(withBlobs.blockPrices[0].blobBaseFeePerGas).toBe(1e-9)
    const without = JSON.parse(blockPricesBody(report(), names, { withBaseFees: false, now: NOW }))
    expect('blobBaseFeePerGas' in without.blockPrices[0]).toBe(false)
  })

  test('behavior: a head stamped after our clock (a drifting devnet) is 0 ms old, never negative', () => {
    const body = JSON.parse(blockPricesBody(report(), names, { withBaseFees: false, now: 1_799_999_990_000 }))
    expect(body.msSinceLastBlock).toBe(0)
  })
})

describe('baseFeeEstimatesBody', () => {
  test('default: base fee and pending+1 … +5 at 99 and 50, blob fees where the chain has them', () => {
    const blob = {
      nextBlobBaseFee: 3n,
      forecast: Array.from({ length: 10 }, (_, i) => ({ blocks: i + 1, p50: BigInt(10 * (i + 1)), p99: BigInt(100 * (i + 1)) })),
    }
    const body = JSON.parse(baseFeeEstimatesBody(report({ blob }), names, NOW))
    expect(body.baseFeePerGas).toBe(12.345678901)
    expect(body.blobBaseFeePerGas).toBe(3e-9)
    expect(body.estimatedBaseFees).toHaveLength(5)
    expect(body.estimatedBaseFees[1]['pending+2']).toEqual([
      { confidence: 99, baseFee: 3.000000001, blobBaseFee: 3e-7 },
      { confidence: 50, baseFee: 3, blobBaseFee: 3e-8 },
    ])
    const plain = JSON.parse(baseFeeEstimatesBody(report(), names, NOW))
    expect('blobBaseFeePerGas' in plain).toBe(false)
    expect(plain.estimatedBaseFees[0]['pending+1'][0]).toEqual({ confidence: 99, baseFee: 2.000000001 })
  })
})

describe('chainsBody and chainNames', () => {
  test('default: Blocknative’s names where it had them, unique made-up ones elsewhere', () => {
    const chains = [
      { chainId: 1, name: 'Ethereum', testnet: false, blobs: true },
      { chainId: 8453, name: 'Base', testnet: false, blobs: false },
      { chainId: 31337, name: 'Anvil', testnet: false, blobs: false },
      { chainId: 31338, name: 'Anvil', testnet: false, blobs: false },
      { chainId: 80002, name: 'Polygon Amoy', testnet: true, blobs: false },
      { chainId: 999_999, name: 'Some Testnet!', testnet: true, blobs: false },
    ]
    const body = chainsBody(chains, chainNames(chains))
    expect(body.map((c) => [c.chainId, c.system, c.network])).toEqual([
      [1, 'ethereum', 'main'],
      [8453, 'base', 'main'],
      [31337, 'anvil', 'main'],
      [31338, 'anvil-31338', 'main'],
      [80002, 'polygon', 'amoy'],
      [999_999, 'some-testnet', 'testnet'],
    ])
    expect(body[0]).toEqual({
      chainId: 1,
      system: 'ethereum',
      network: 'main',
      label: 'Ethereum',
      arch: 'evm',
      features: ['blockprices', 'basefee-estimates', 'blobs'],
    })
  })
})
