import { describe, expect, test } from 'vitest'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { confidenceHorizon, confidencePrices, DEFAULT_CONFIDENCE_LEVELS } from '@/lib/core/fee-math/confidence'
import { demandProxyAt, estimateLevels, headroomFloor, levelForecastModel, REWARD_PERCENTILES } from '@/lib/core/fee-math/estimator'
import { toFeeData } from '@/lib/core/fee-math/fee-data'
import { sortAscending } from '@/lib/core/fee-math/statistics'
import { mainnet100BlockWindow, makeWindow } from '../../../support/windows'

const GWEI = 1_000_000_000n
const ethereum = chainFeePolicy(1)

describe('confidencePrices', () => {
  test('default: the levels 99, 95, 90, 80, 70 in that order', () => {
    const prices = confidencePrices(toFeeData(mainnet100BlockWindow()), ethereum)
    expect(prices.map((p) => p.confidence)).toEqual([...DEFAULT_CONFIDENCE_LEVELS])
  })

  test('behavior: a higher confidence never asks less, whatever order or set is asked', () => {
    const data = toFeeData(mainnet100BlockWindow())
    const all = confidencePrices(
      data,
      ethereum,
      Array.from({ length: 99 }, (_, i) => i + 1),
    )
    for (let i = 1; i < all.length; i++) {
      expect(all[i]!.maxPriorityFeePerGas >= all[i - 1]!.maxPriorityFeePerGas).toBe(true)
      expect(all[i]!.maxFeePerGas >= all[i - 1]!.maxFeePerGas).toBe(true)
      expect(all[i]!.price >= all[i - 1]!.price).toBe(true)
    }
    // one level's answer does not depend on the others asked with it
    expect(confidencePrices(data, ethereum, [70])).toEqual([all[69]])
    expect(confidencePrices(data, ethereum, [95, 10, 95])).toEqual([all[94], all[9], all[94]])
  })

  test('behavior: the tip is the c-quantile of what the recent blocks demanded of a newcomer', () => {
    // 50 blocks with room whose cheapest real tip is 1, 2, … 50 gwei, in shuffled order
    const tips = Array.from({ length: 50 }, (_, i) => BigInt(((i * 37) % 50) + 1) * GWEI)
    const window = makeWindow({
      baseFees: tips.map(() => 10n * GWEI),
      next: 10n * GWEI,
      rewards: tips.map((t) => REWARD_PERCENTILES.map((p) => t + BigInt(p) * GWEI)),
      intervalMs: 12_000,
    })
    const data = toFeeData(window)
    const demanded = sortAscending(tips.map((_, i) => demandProxyAt(data, i)))
    expect(demanded).toEqual(sortAscending(tips))
    const [p70, p90] = confidencePrices(data, ethereum, [70, 90])
    // nearest rank over the 50 blocks: the 35th and 45th cheapest
    expect(p70!.maxPriorityFeePerGas).toBe(35n * GWEI)
    expect(p90!.maxPriorityFeePerGas).toBe(45n * GWEI)
    // a legacy price is the next base fee plus the tip
    expect(p70!.price).toBe(10n * GWEI + 35n * GWEI)
  })

  test('behavior: every max fee leaves at least one full block’s rise over the next base fee', () => {
    const data = toFeeData(mainnet100BlockWindow())
    const floor = headroomFloor(levelForecastModel(data, ethereum))
    // EIP-1559: a full block raises the base fee by 1/8 (rounded up here)
    expect(floor).toBe((data.nextBaseFee * 9n + 7n) / 8n)
    for (const p of confidencePrices(data, ethereum, [1, 50, 99])) expect(p.maxFeePerGas - p.maxPriorityFeePerGas >= floor).toBe(true)
  })

  test('behavior: the chain floor holds (an OP-stack chain never tips under 0.001 gwei)', () => {
    const window = makeWindow({ baseFees: Array(60).fill(1_000n), next: 1_000n })
    const op = chainFeePolicy(10)
    for (const p of confidencePrices(toFeeData(window), op, [1, 99])) expect(p.maxPriorityFeePerGas).toBe(op.minSuggestedPriorityFeeWei)
  })

  test('behavior: the same model as the levels: high (99% within 2 blocks) never tips under 99% in the next block', () => {
    const data = toFeeData(mainnet100BlockWindow())
    const [c99] = confidencePrices(data, ethereum, [99])
    expect(c99!.maxPriorityFeePerGas >= estimateLevels(data, ethereum).high.maxPriorityFeePerGas).toBe(true)
  })

  test('behavior: the max fee covers the answer’s possible age and one block', () => {
    expect(confidenceHorizon(12_000)).toBe(4)
    expect(confidenceHorizon(250)).toBe(13)
  })

  test('error: a confidence outside 1…99', () => {
    const data = toFeeData(mainnet100BlockWindow())
    for (const c of [0, 100, 50.5]) expect(() => confidencePrices(data, ethereum, [c])).toThrow(RangeError)
  })
})
