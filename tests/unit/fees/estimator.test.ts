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
import { csvCell } from '@/lib/fees/recording'
import { toFeeData } from '@/lib/fees/report'
import { createRandom } from '@/lib/devnet/traffic-model'
import { at } from '../../support/at'
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

/** Independent brute force: the target quantile (nearest rank) of the minima of every W-block run. */
function runMinimaQuantile(demand: bigint[], w: number, target: number): bigint {
  const minima: bigint[] = []
  for (let i = 0; i + w <= demand.length; i++) minima.push(demand.slice(i, i + w).reduce((a, b) => (a < b ? a : b)))
  const sorted = (minima.length ? minima : demand).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return at(sorted, Math.ceil(target * sorted.length) - 1)
}

/** A reward row whose 10th percentile (the tip column the estimator reads) is `p10` gwei. */
const row = (p10: bigint, others = 0n) => REWARD_PERCENTILES.map((p) => (p === 10 ? p10 : others))

describe('estimateLevels', () => {
  test('default: each level pays the target quantile of the cheapest demand within its wait', () => {
    // 10th-percentile tips alternate 1, 5, 5 gwei: every 3-block run holds a 1, some 2-block runs do not
    const pattern = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 1n : 5n) * GWEI)
    const data = toFeeData(makeWindow({ baseFees: Array(30).fill(10n * GWEI), next: 10n * GWEI, rewards: pattern.map((t) => row(t)) }))
    const levels = estimateLevels(data)
    expect(levels.low.maxPriorityFeePerGas).toBe(1n * GWEI)
    expect(levels.medium.maxPriorityFeePerGas).toBe(1n * GWEI)
    expect(levels.high.maxPriorityFeePerGas).toBe(5n * GWEI)
    // max fee: the next base fee after two 12.5% rises (covering medium's three blocks), plus the tip
    expect(levels.low.maxFeePerGas).toBe(12_656_250_000n + 1n * GWEI)
    expect(levels.high.maxFeePerGas).toBe(12_656_250_000n + 5n * GWEI)
    expectOrdering(levels, data.nextBaseFee)
  })

  test('behavior: a full block in the window sets the rise: an OP-stack-like 2% maximum is not padded to 12.5%', () => {
    const fees = [100n, 102n, 104n, 106n].map((x) => x * GWEI)
    expect(maxBaseFeeRisePpm(fees, 108n * GWEI, [1, 1, 1, 1])).toBe(20_000n)
    expect(maxBaseFeeRisePpm(fees, 108n * GWEI, [0.5, 0.5, 0.5, 0.5])).toBe(125_000n)
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
    const data = toFeeData(
      makeWindow({ baseFees: Array(50).fill(7n), next: 7n, rewards: Array(50).fill(flatRewards(1_000n)), intervalMs: 2_000 }),
    )
    const levels = estimateLevels(data)
    expect(levels.high.maxFeePerGas).toBeLessThan(2_000n)
    expect(levels.medium.maxPriorityFeePerGas).toBe(1_000n)
  })

  test('behavior: the tip looks at the last 20 non-empty blocks only', () => {
    const old = Array(30).fill(flatRewards(100n * GWEI))
    const recent = Array(TIP_BLOCKS).fill(flatRewards(2n * GWEI))
    const empty = Array(5).fill(flatRewards(0n))
    const n = old.length + recent.length + empty.length
    const data = toFeeData(
      makeWindow({
        baseFees: Array(n).fill(GWEI),
        next: GWEI,
        rewards: [...old, ...recent, ...empty],
        ratios: [...old.map(() => 0.9), ...recent.map(() => 0.5), ...empty.map(() => 0)],
      }),
    )
    expect(estimateLevels(data).medium.maxPriorityFeePerGas).toBe(2n * GWEI)
  })

  test('behavior: an empty block demands nothing: recent empty blocks lower the tip', () => {
    const rewards = Array(20).fill(flatRewards(2n * GWEI))
    const ratios = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 0 : 0.5))
    const data = toFeeData(makeWindow({ baseFees: Array(20).fill(GWEI), next: GWEI, rewards, ratios }))
    expect(estimateLevels(data).medium.maxPriorityFeePerGas).toBe(0n)
    expect(estimateLevels(data).high.maxPriorityFeePerGas).toBe(0n)
  })

  test('behavior: an idle chain (no transactions in the window) suggests a zero tip, not an invented one', () => {
    const data = toFeeData(makeWindow({ baseFees: Array(10).fill(GWEI), next: GWEI, ratios: Array(10).fill(0) }))
    const levels = estimateLevels(data)
    expect(levels.high.maxPriorityFeePerGas).toBe(0n)
    expect(levels.low.maxFeePerGas).toBe(1_265_625_000n) // the cap alone: 1 gwei after two 12.5% rises
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
        REWARD_PERCENTILES.map(() => BigInt(Math.floor(rand() * 5e9))).sort((a, b) => (a < b ? -1 : 1)),
      )
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

  test("behavior: tips are the target quantiles of the W-block minima of the last 20 blocks' 10th-percentile tips", () => {
    const demand = data.rewards.slice(-20).map((r, i) => (at(data.gasUsedRatio, data.rewards.length - 20 + i) > 0 ? at(r, column(10)) : 0n))
    const low = runMinimaQuantile(demand, 6, 0.9)
    const medium = [low, runMinimaQuantile(demand, 3, 0.95)].reduce((a, b) => (a > b ? a : b))
    const high = [medium, runMinimaQuantile(demand, 2, 0.99)].reduce((a, b) => (a > b ? a : b))
    expect(levels.low.maxPriorityFeePerGas).toBe(low)
    expect(levels.medium.maxPriorityFeePerGas).toBe(medium)
    expect(levels.high.maxPriorityFeePerGas).toBe(high)
    // a plausible post-Merge tip: between 0.01 and 10 gwei
    expect(levels.medium.maxPriorityFeePerGas > GWEI / 100n && levels.medium.maxPriorityFeePerGas < 10n * GWEI).toBe(true)
  })

  test('behavior: medium covers two of the largest base fee rises seen in the window after the next block', () => {
    const series = [...data.baseFees, data.nextBaseFee].map(Number)
    let rise = 0
    for (let i = 1; i < series.length; i++) rise = Math.max(rise, at(series, i) / at(series, i - 1) - 1)
    expect(rise).toBeGreaterThan(0.12) // the window holds full blocks: close to EIP-1559's 1/8
    const cap = Number(levels.medium.maxFeePerGas - levels.medium.maxPriorityFeePerGas)
    expect(cap).toBeGreaterThanOrEqual(Number(data.nextBaseFee) * (1 + rise) ** 2 - 1)
    expect(cap).toBeLessThan(Number(data.nextBaseFee) * (1 + rise + 2e-6) ** 2) // the rise is rounded up to whole ppm
    expect(levels.medium.maxWaitTimeMs).toBe(36_000)
  })

  test('behavior: ranges bracket the data', () => {
    const ranges = priorityFeeRanges(data)
    const nonEmpty = data.rewards.filter((_, i) => at(data.gasUsedRatio, i) > 0)
    expect(ranges.historical[0]).toBe(nonEmpty.map((r) => at(r, column(0))).reduce((a, b) => (a < b ? a : b)))
    expect(ranges.historical[1]).toBe(nonEmpty.map((r) => at(r, column(100))).reduce((a, b) => (a > b ? a : b)))
    expect(ranges.latest).toEqual([nonEmpty.at(-1)![column(0)], nonEmpty.at(-1)![column(100)]])
  })
})

describe('real window: 1,640 mainnet blocks 15,533,942–15,535,581 (base fees only)', () => {
  const rows = readCsv('eth-mainnet-blocks-15533942-15535581', 'blocks.csv.gz')
    .map((r) => ({ n: Number(r.number), base: BigInt(csvCell(r, 'base_fee_per_gas')), ratio: Number(r.gas_used) / Number(r.gas_limit) }))
    .sort((a, b) => a.n - b.n)

  test("behavior: full blocks show EIP-1559's 12.5% maximum rise, which becomes the planned rise", () => {
    expect(rows).toHaveLength(1640)
    let windows = 0
    for (let start = 0; start + 501 <= rows.length; start += 250) {
      const slice = rows.slice(start, start + 501)
      const ratios = slice.slice(0, 500).map((r) => r.ratio)
      const rise = maxBaseFeeRisePpm(
        slice.slice(0, 500).map((r) => r.base),
        at(slice, 500).base,
        ratios,
      )
      expect(ratios.some((r) => r >= 0.95)).toBe(true)
      // a 100%-full block raises the base fee by exactly 1/8; rounding up to the next ppm allows 1 ppm more
      expect(rise >= 124_990n && rise <= 125_001n).toBe(true)
      windows++
    }
    expect(windows).toBeGreaterThan(4)
  })

  test('behavior: trends and congestion agree with the base fee path', () => {
    const fees = rows.map((r) => r.base)
    let checked = 0
    for (let end = 510; end < fees.length; end += 37) {
      const window = fees.slice(end - 500, end)
      const next = at(fees, end)
      const data = toFeeData(makeWindow({ baseFees: window, next }))
      const recent = [...window.slice(-10)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      expect(baseFeeTrend(data)).toBe(next > at(recent, 4) ? 'up' : 'down')
      expect(baseFeeStats(data).congestion).toBe(window.filter((f) => f <= next).length / 500)
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
