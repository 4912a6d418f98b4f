import { describe, expect, test } from 'vitest'
import {
  LEVEL_SETTINGS,
  REWARD_PERCENTILES,
  TIP_BLOCKS,
  baseFeeStats,
  baseFeeTrend,
  estimateLevels,
  maxBaseFeeRisePpm,
  priorityFeeRanges,
  priorityFeeTrend,
} from '@/lib/fees/estimator'
import { toFeeData } from '@/lib/fees/report'
import { createRandom } from '@/lib/devnet/traffic-model'
import { readCsv } from '../../support/shared-data'
import { flatRewards, mainnet100BlockWindow, makeWindow } from '../../support/windows'

const GWEI = 1_000_000_000n
const column = (p: number) => REWARD_PERCENTILES.indexOf(p as (typeof REWARD_PERCENTILES)[number])

function expectOrdering(levels: ReturnType<typeof estimateLevels>, nextBaseFee: bigint) {
  const { low, medium, high } = levels
  expect(low.maxPriorityFeePerGas <= medium.maxPriorityFeePerGas).toBe(true)
  expect(medium.maxPriorityFeePerGas <= high.maxPriorityFeePerGas).toBe(true)
  expect(low.maxFeePerGas <= medium.maxFeePerGas).toBe(true)
  expect(medium.maxFeePerGas <= high.maxFeePerGas).toBe(true)
  for (const l of [medium, high]) expect(l.maxFeePerGas >= nextBaseFee + l.maxPriorityFeePerGas).toBe(true)
  for (const l of [low, medium, high]) expect(l.minWaitTimeMs).toBeLessThanOrEqual(l.maxWaitTimeMs)
  expect(high.maxWaitTimeMs).toBeLessThanOrEqual(medium.maxWaitTimeMs)
  expect(medium.maxWaitTimeMs).toBeLessThanOrEqual(low.maxWaitTimeMs)
  expect(high.minWaitTimeMs).toBeLessThanOrEqual(medium.minWaitTimeMs)
  expect(medium.minWaitTimeMs).toBeLessThanOrEqual(low.minWaitTimeMs)
}

describe('estimateLevels', () => {
  test('default: tips follow the levels\' percentiles, max fees the next base fee plus headroom', () => {
    // p0, p10, p30, p50, p60, p100 of every block
    const row = [0n, 1n, 2n, 3n, 4n, 9n].map((g) => g * GWEI)
    const data = toFeeData(makeWindow({ baseFees: Array(30).fill(10n * GWEI), next: 10n * GWEI, rewards: Array(30).fill(row) }))
    const levels = estimateLevels(data)
    expect(levels.low.maxPriorityFeePerGas).toBe(1n * GWEI)
    expect(levels.medium.maxPriorityFeePerGas).toBe(2n * GWEI)
    expect(levels.high.maxPriorityFeePerGas).toBe(4n * GWEI)
    // low: next base fee exactly; medium: two 12.5% rises; high: four
    expect(levels.low.maxFeePerGas).toBe(11n * GWEI)
    expect(levels.medium.maxFeePerGas).toBe(12_656_250_000n + 2n * GWEI)
    expect(levels.high.maxFeePerGas).toBe(16_018_066_407n + 4n * GWEI)
    expectOrdering(levels, data.nextBaseFee)
  })

  test('behavior: wait times come from the measured block interval', () => {
    const base = { baseFees: [GWEI, GWEI], next: GWEI, rewards: [flatRewards(1n), flatRewards(1n)] }
    const fast = estimateLevels(toFeeData(makeWindow({ ...base, intervalMs: 2_000 })))
    const slow = estimateLevels(toFeeData(makeWindow({ ...base, intervalMs: 12_000 })))
    for (const level of ['low', 'medium', 'high'] as const) {
      expect(fast[level].maxWaitTimeMs).toBe(2_000 * LEVEL_SETTINGS[level].maxWaitBlocks)
      expect(slow[level].maxWaitTimeMs).toBe(12_000 * LEVEL_SETTINGS[level].maxWaitBlocks)
      expect(fast[level].minWaitTimeMs).toBe(2_000 * LEVEL_SETTINGS[level].minWaitBlocks)
    }
  })

  test('behavior: no fixed gwei floor — an L2 with a 7-wei base fee and 1,000-wei tips gets tiny fees', () => {
    const data = toFeeData(makeWindow({ baseFees: Array(50).fill(7n), next: 7n, rewards: Array(50).fill(flatRewards(1_000n)), intervalMs: 2_000 }))
    const levels = estimateLevels(data)
    expect(levels.high.maxFeePerGas).toBeLessThan(2_000n)
    expect(levels.medium.maxPriorityFeePerGas).toBe(1_000n)
  })

  test('behavior: the tip looks at the last 20 non-empty blocks only', () => {
    const old = Array(30).fill(flatRewards(100n * GWEI))
    const recent = Array(TIP_BLOCKS).fill(flatRewards(2n * GWEI))
    const empty = Array(5).fill(flatRewards(0n))
    const n = old.length + recent.length + empty.length
    const data = toFeeData(makeWindow({
      baseFees: Array(n).fill(GWEI),
      next: GWEI,
      rewards: [...old, ...recent, ...empty],
      ratios: [...old.map(() => 0.9), ...recent.map(() => 0.5), ...empty.map(() => 0)],
    }))
    expect(estimateLevels(data).medium.maxPriorityFeePerGas).toBe(2n * GWEI)
  })

  test('behavior: an idle chain (no transactions in the window) suggests a zero tip, not an invented one', () => {
    const data = toFeeData(makeWindow({ baseFees: Array(10).fill(GWEI), next: GWEI, ratios: Array(10).fill(0) }))
    const levels = estimateLevels(data)
    expect(levels.high.maxPriorityFeePerGas).toBe(0n)
    expect(levels.low.maxFeePerGas).toBe(GWEI)
  })

  test('behavior: a window with bigger observed rises gets more headroom', () => {
    // base fee doubled once in the window: headroom per step becomes 100%
    const data = toFeeData(makeWindow({ baseFees: [GWEI, 2n * GWEI], next: 2n * GWEI, rewards: [flatRewards(0n), flatRewards(0n)] }))
    expect(maxBaseFeeRisePpm(data.baseFees, data.nextBaseFee)).toBe(1_000_000n)
    expect(estimateLevels(data).medium.maxFeePerGas).toBe(8n * GWEI)
  })

  test('behavior: ordering holds on 200 random windows', () => {
    const rand = createRandom(7)
    for (let k = 0; k < 200; k++) {
      const n = 1 + Math.floor(rand() * 60)
      const baseFees = Array.from({ length: n }, () => BigInt(Math.floor(rand() * 1e11)))
      const rewards = Array.from({ length: n }, () =>
        REWARD_PERCENTILES.map(() => BigInt(Math.floor(rand() * 5e9))).sort((a, b) => (a < b ? -1 : 1)))
      const ratios = Array.from({ length: n }, () => (rand() < 0.2 ? 0 : rand()))
      const next = BigInt(Math.floor(rand() * 1e11))
      const data = toFeeData(makeWindow({ baseFees, next, rewards, ratios, intervalMs: 250 + Math.floor(rand() * 15_000) }))
      expectOrdering(estimateLevels(data), next)
      const stats = baseFeeStats(data)
      expect(stats.congestion).toBeGreaterThanOrEqual(0)
      expect(stats.congestion).toBeLessThanOrEqual(1)
      // congestion above 0.9 means the next base fee is above the busy threshold
      if (stats.congestion > 0.9) expect(next > stats.p90).toBe(true)
    }
  })
})

describe('real window: mainnet blocks 15,627,832–15,627,931 with every transaction', () => {
  const window = mainnet100BlockWindow()
  const data = toFeeData(window)
  const levels = estimateLevels(data)

  test('behavior: ordering rules hold', () => {
    expect(data.baseFees).toHaveLength(100)
    expectOrdering(levels, data.nextBaseFee)
  })

  test('behavior: medium tip is the median of the last 20 non-empty blocks\' 30th-percentile tips', () => {
    const recent = data.rewards.filter((_, i) => data.gasUsedRatio[i] > 0).slice(-20).map((r) => r[column(30)])
    const sorted = [...recent].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    expect(levels.medium.maxPriorityFeePerGas).toBe(sorted[Math.ceil(sorted.length / 2) - 1])
    // a plausible post-Merge tip: between 0.01 and 10 gwei
    expect(levels.medium.maxPriorityFeePerGas > GWEI / 100n && levels.medium.maxPriorityFeePerGas < 10n * GWEI).toBe(true)
  })

  test('behavior: medium covers two maximal (12.5%) base fee rises after the next block', () => {
    const cap = (data.nextBaseFee * 81n + 63n) / 64n // × (9/8)², rounded up
    expect(levels.medium.maxFeePerGas - levels.medium.maxPriorityFeePerGas).toBeGreaterThanOrEqual(cap - 1n)
    expect(levels.medium.maxWaitTimeMs).toBe(36_000)
  })

  test('behavior: ranges bracket the data', () => {
    const ranges = priorityFeeRanges(data)
    const nonEmpty = data.rewards.filter((_, i) => data.gasUsedRatio[i] > 0)
    expect(ranges.historical[0]).toBe(nonEmpty.map((r) => r[column(0)]).reduce((a, b) => (a < b ? a : b)))
    expect(ranges.historical[1]).toBe(nonEmpty.map((r) => r[column(100)]).reduce((a, b) => (a > b ? a : b)))
    expect(ranges.latest).toEqual([nonEmpty.at(-1)![column(0)], nonEmpty.at(-1)![column(100)]])
  })
})

describe('real window: 1,640 mainnet blocks 15,533,942–15,535,581 (base fees only)', () => {
  const rows = readCsv('eth-mainnet-blocks-15533942-15535581', 'blocks.csv.gz')
    .map((r) => ({ n: Number(r.number), base: BigInt(r.base_fee_per_gas) }))
    .sort((a, b) => a.n - b.n)

  test('behavior: the largest observed rise never exceeds EIP-1559\'s 12.5%, so headroom is exactly 1/8', () => {
    expect(rows).toHaveLength(1640)
    for (let start = 0; start + 501 <= rows.length; start += 250) {
      const slice = rows.slice(start, start + 501).map((r) => r.base)
      expect(maxBaseFeeRisePpm(slice.slice(0, 500), slice[500])).toBe(125_000n)
    }
  })

  test('behavior: trends and congestion agree with the base fee path', () => {
    const fees = rows.map((r) => r.base)
    let checked = 0
    for (let end = 510; end < fees.length; end += 37) {
      const window = fees.slice(end - 500, end)
      const data = toFeeData(makeWindow({ baseFees: window, next: fees[end] }))
      const recent = [...window.slice(-10)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      expect(baseFeeTrend(data)).toBe(fees[end] > recent[4] ? 'up' : 'down')
      expect(baseFeeStats(data).congestion).toBe(window.filter((f) => f <= fees[end]).length / 500)
      checked++
    }
    expect(checked).toBeGreaterThan(20)
  })
})

describe('trends', () => {
  const mk = (baseFees: bigint[], next: bigint, p50s: bigint[] = baseFees.map(() => 1n)) =>
    toFeeData(makeWindow({ baseFees, next, rewards: p50s.map((t) => REWARD_PERCENTILES.map(() => t)) }))

  test('behavior: base fee above the recent median is "up", equal or below is "down"', () => {
    expect(baseFeeTrend(mk(Array(10).fill(100n), 101n))).toBe('up')
    expect(baseFeeTrend(mk(Array(10).fill(100n), 100n))).toBe('down')
    expect(baseFeeTrend(mk(Array(10).fill(100n), 99n))).toBe('down')
  })

  test('behavior: priority fee trend compares the recent half with the half before', () => {
    const rising = [...Array(10).fill(1n), ...Array(10).fill(5n)]
    expect(priorityFeeTrend(mk(Array(20).fill(1n), 1n, rising))).toBe('up')
    expect(priorityFeeTrend(mk(Array(20).fill(1n), 1n, [...rising].reverse()))).toBe('down')
    expect(priorityFeeTrend(mk(Array(20).fill(1n), 1n, Array(20).fill(3n)))).toBe('down')
  })
})
