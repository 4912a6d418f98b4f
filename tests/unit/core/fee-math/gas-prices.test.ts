import { describe, expect, test } from 'vitest'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { NoPriceDataError } from '@/lib/core/contract/errors'
import { buildFeeReport, buildLegacyGasPrices } from '@/lib/core/contract/report'
import { GasPricesSchema } from '@/lib/core/contract/schemas'
import type { FeeWindow } from '@/lib/core/types'
import { parseGwei } from '@/lib/core/units'
import { flatRewards, mainnet100BlockWindow, makeWindow } from '../../../support/windows'

const GWEI = 1_000_000_000n

/** A window of a chain without EIP-1559: base fees 0, rewards the gas prices (wei), one row per block. */
function legacyWindow(rows: { ratio: number; prices: bigint[] }[]): FeeWindow {
  const w = makeWindow({
    baseFees: rows.map(() => 0n),
    next: 0n,
    ratios: rows.map((r) => r.ratio),
    rewards: rows.map((r) => r.prices),
    intervalMs: 12_000,
  })
  return { ...w, chainId: 31339, legacy: true }
}
const room = (price: bigint) => ({ ratio: 0.5, prices: flatRewards(price) })
const empty = { ratio: 0, prices: flatRewards(0n) }
const legacy = (rows: { ratio: number; prices: bigint[] }[]) => buildLegacyGasPrices(legacyWindow(rows), chainFeePolicy(31339))

describe('gasPrices on an EIP-1559 chain', () => {
  test('default: each level is the next base fee plus its suggested priority fee (real mainnet window)', () => {
    const report = buildFeeReport(mainnet100BlockWindow())
    const s = report.suggestedGasFees
    const base = parseGwei(s.estimatedBaseFee)
    // computed from the suggestedGasFees body, in wei
    expect(GasPricesSchema.parse(report.gasPrices)).toEqual({
      SafeGasPrice: gwei(base + parseGwei(s.low.suggestedMaxPriorityFeePerGas)),
      ProposeGasPrice: gwei(base + parseGwei(s.medium.suggestedMaxPriorityFeePerGas)),
      FastGasPrice: gwei(base + parseGwei(s.high.suggestedMaxPriorityFeePerGas)),
    })
  })

  test('args: literal window: a 30 gwei next base fee and 2 gwei tips everywhere give 32 gwei at every level', () => {
    const w = makeWindow({ baseFees: Array(60).fill(30n * GWEI), next: 30n * GWEI, rewards: Array(60).fill(flatRewards(2n * GWEI)) })
    expect(buildFeeReport(w).gasPrices).toEqual({ SafeGasPrice: '32', ProposeGasPrice: '32', FastGasPrice: '32' })
  })
})

describe('gasPrices on a chain without EIP-1559', () => {
  test('default: blocks with room whose cheapest price is 1.5 gwei give 1.5 gwei at every level', () => {
    const rows = Array.from({ length: 60 }, () => ({
      ratio: 0.4,
      prices: [1_500_000_000n, 1_500_000_000n, 2n * GWEI, 2n * GWEI, 5n * GWEI, 9n * GWEI],
    }))
    expect(legacy(rows)).toEqual({ SafeGasPrice: '1.5', ProposeGasPrice: '1.5', FastGasPrice: '1.5' })
  })

  test('behavior: the levels pay their quantile of the cheapest price over runs of their wait (computed by hand)', () => {
    // 100 priced blocks at 1 gwei, with a streak of 8 at 3 gwei and, apart from it, a streak of 4 at
    // 4 gwei, both among the last 50; an empty block after every priced one (left out).
    // low (runs of 6 over the last 50 priced blocks, 45 runs, rank ceil(0.9·45) = 41): 3 runs of
    //   3 gwei, 42 of 1 → 1 gwei
    // medium (runs of 3 over the last 50, 48 runs, rank 46): 2 runs of 4, 6 of 3, 40 of 1 → 3 gwei
    // high (runs of 2 over all 100, 99 runs, rank min(ceil(0.99·99), 99 − 2) = 97): 3 runs of 4,
    //   7 of 3, 89 of 1 → 4 gwei
    const prices = Array.from({ length: 100 }, () => 1n * GWEI)
    for (let i = 60; i < 68; i++) prices[i] = 3n * GWEI
    for (let i = 80; i < 84; i++) prices[i] = 4n * GWEI
    const rows = prices.flatMap((p) => [room(p), empty])
    expect(legacy(rows)).toEqual({ SafeGasPrice: '1', ProposeGasPrice: '3', FastGasPrice: '4' })
  })

  test('behavior: empty blocks are left out, not taken as a price of 0', () => {
    const rows = Array.from({ length: 40 }, () => [room(2n * GWEI), empty, empty]).flat()
    expect(legacy(rows)).toEqual({ SafeGasPrice: '2', ProposeGasPrice: '2', FastGasPrice: '2' })
  })

  test('behavior: a full block demands its 10th-percentile price, a block with room its cheapest real one', () => {
    const full = { ratio: 0.99, prices: [1n * GWEI, 1n * GWEI, 1n * GWEI, 3n * GWEI, 5n * GWEI, 9n * GWEI] }
    expect(legacy(Array(60).fill(full))).toEqual({ SafeGasPrice: '3', ProposeGasPrice: '3', FastGasPrice: '3' })
    const withRoom = { ...full, ratio: 0.5 }
    expect(legacy(Array(60).fill(withRoom))).toEqual({ SafeGasPrice: '1', ProposeGasPrice: '1', FastGasPrice: '1' })
  })

  test('behavior: one burst does not set the price: two blocks at 300 gwei in a calm 1 gwei market', () => {
    const rows = Array.from({ length: 100 }, (_, i) => room(i === 90 || i === 91 ? 300n * GWEI : 1n * GWEI))
    expect(legacy(rows)).toEqual({ SafeGasPrice: '1', ProposeGasPrice: '1', FastGasPrice: '1' })
  })

  test('behavior: prices of 2 wei or less are not prices (a system transaction); only such blocks count as unpriced', () => {
    const rows = [...Array.from({ length: 30 }, () => room(7n * GWEI)), ...Array.from({ length: 30 }, () => room(2n))]
    expect(legacy(rows)).toEqual({ SafeGasPrice: '7', ProposeGasPrice: '7', FastGasPrice: '7' })
  })

  test('behavior: low ≤ medium ≤ high on irregular prices', () => {
    let seed = 7
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647
    const rows = Array.from({ length: 300 }, () => (rnd() < 0.2 ? empty : room(BigInt(Math.floor(rnd() * 50 * 1e9) + 1e9))))
    const p = legacy(rows)
    expect(parseGwei(p.SafeGasPrice) <= parseGwei(p.ProposeGasPrice)).toBe(true)
    expect(parseGwei(p.ProposeGasPrice) <= parseGwei(p.FastGasPrice)).toBe(true)
  })

  test('error: a window without any priced transaction has no gas price (NoPriceDataError)', () => {
    expect(() => legacy(Array(20).fill(empty))).toThrow(NoPriceDataError)
    expect(() => legacy(Array(20).fill(empty))).toThrow(/last 20 blocks hold no priced transaction/)
  })
})

function gwei(wei: bigint): string {
  const whole = wei / GWEI
  const frac = (wei % GWEI).toString().padStart(9, '0').replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : String(whole)
}
