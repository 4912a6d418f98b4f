import { describe, expect, test } from 'vitest'
import { firstInclusion, promisedBlocks, runBacktest, trial } from '@/lib/fees/backtest'
import { BACKTEST_PERCENTILES, demandedTip, weightedPercentile, type BlockStats } from '@/lib/fees/block-stats'
import type { Strategy, Suggestion } from '@/lib/fees/strategies'
import { gethOracleTip } from '@/lib/fees/strategies'

const G = 1_000_000_000n
/** A block whose every reward percentile is `tip` gwei, `ratio` full, base fee `base` gwei. */
const block = (n: number, base: bigint, tip: bigint, ratio = 0.5, tips?: bigint[]): BlockStats => ({
  number: n,
  baseFee: base * G,
  gasUsedRatio: ratio,
  rewards: BACKTEST_PERCENTILES.map(() => tip * G),
  tips,
})
const sug = (maxFee: bigint, tip: bigint, maxWaitMs = 36_000, minWaitMs = 12_000): Suggestion => ({
  maxFeePerGas: maxFee * G,
  maxPriorityFeePerGas: tip * G,
  minWaitMs,
  maxWaitMs,
})

describe('demandedTip', () => {
  test('behavior: p10 of a full block, p5 of one with room, 0 of an empty one, null without tips', () => {
    const rewards = BACKTEST_PERCENTILES.map((p) => BigInt(p) * G)
    expect(demandedTip({ number: 1, baseFee: G, gasUsedRatio: 0.97, rewards })).toBe(10n * G)
    expect(demandedTip({ number: 1, baseFee: G, gasUsedRatio: 0.5, rewards })).toBe(5n * G)
    expect(demandedTip({ number: 1, baseFee: G, gasUsedRatio: 0, rewards })).toBe(0n)
    expect(demandedTip({ number: 1, baseFee: G, gasUsedRatio: 0.5, rewards: rewards.map(() => null) })).toBeNull()
  })

  test('behavior: one zero-tip transaction does not make a block free', () => {
    const txs = [{ tip: 0n, gas: 21_000 }, ...Array.from({ length: 99 }, () => ({ tip: 2n * G, gas: 21_000 }))]
    expect(weightedPercentile(txs, 5)).toBe(2n * G)
    expect(weightedPercentile(txs, 0)).toBe(0n)
  })
})

describe('firstInclusion', () => {
  const future = [block(1, 10n, 2n), block(2, 12n, 1n), block(3, 9n, 2n)]
  test.each([
    ['tip and max fee cover block 1', sug(20n, 2n), 1],
    ['tip too low for block 1, enough for block 2', sug(20n, 1n), 2],
    ["max fee below block 2's base fee, the effective tip too small in block 1", sug(11n, 2n), 3],
    ['never: the tip never meets the demand', sug(100n, 0n), null],
    ['max fee caps the effective tip: 12 − 10 = 2 ≥ 2 in block 1', sug(12n, 5n), 1],
  ])('args: %s', (_, s, want) => {
    expect(firstInclusion(s, future, 'fees')).toBe(want)
  })
  test('args: base-fee mode checks only the max fee minus the tip against the base fee', () => {
    expect(firstInclusion(sug(11n, 2n), future, 'base-fee')).toBe(3) // 9 covers only block 3's base fee
  })
})

describe('trial', () => {
  const future = [block(1, 10n, 2n), block(2, 8n, 1n), block(3, 9n, 3n)]
  test('behavior: overpayment is against the cheapest price within the same wait', () => {
    // included at block 1 paying 10 + 4 = 14; cheapest within 1 block: 10 + 2 = 12
    const t = trial(sug(20n, 4n), future, 12_000, 'fees')
    expect(t).toMatchObject({ waitBlocks: 1, inPromise: true, calibrated: true })
    expect(t.overpayment).toBeCloseTo(14 / 12 - 1, 10)
  })
  test('behavior: outside the promised wait is a miss, and mis-calibrated', () => {
    const t = trial(sug(20n, 1n, 12_000), future, 12_000, 'fees') // promised 1 block, gets in at 2
    expect(t).toMatchObject({ waitBlocks: 2, inPromise: false, calibrated: false, overpayment: null })
  })
  test('behavior: a promised minimum wait longer than the inclusion is mis-calibrated', () => {
    expect(trial(sug(20n, 4n, 45_000, 15_000), future, 12_000, 'fees').calibrated).toBe(false)
  })
  test('behavior: promised blocks are whole block intervals within the promise', () => {
    expect(promisedBlocks(36_000, 12_000)).toBe(3)
    expect(promisedBlocks(30_000, 12_000)).toBe(2)
    expect(promisedBlocks(60_000, 2_000)).toBe(30)
  })
})

describe('gethOracleTip', () => {
  test("behavior: the 60th percentile of each block's 3 lowest tips, ignoring tips under 2 wei", () => {
    const blocks = [block(1, 1n, 0n, 0.5, [0n, 1n, 5n, 6n, 7n, 100n]), block(2, 1n, 0n, 0.5, [3n, 4n, 50n])]
    // samples: 5, 6, 7 and 3, 4, 50 → sorted 3 4 5 6 7 50 → index floor(5 × 0.6) = 3 → 6
    expect(gethOracleTip(blocks)).toBe(6n)
    expect(gethOracleTip([block(1, 1n, 0n)])).toBeNull()
  })
})

describe('runBacktest', () => {
  test('behavior: metrics per strategy and level, on a flat window where the answer is obvious', () => {
    const blocks = Array.from({ length: 40 }, (_, i) => block(i, 10n, 2n))
    const fixed = (tip: bigint): Strategy => ({
      name: `tip-${tip}`,
      description: '',
      suggest: () => ({ low: sug(20n, tip), medium: sug(20n, tip), high: sug(20n, tip) }),
    })
    const r = runBacktest({
      blocks,
      intervalMs: 12_000,
      mode: 'fees',
      strategies: [fixed(2n), fixed(3n), fixed(1n)],
      source: 't',
      chainId: 1,
    })
    const m = (name: string) => r.metrics.find((x) => x.strategy === name && x.level === 'medium')!
    expect(m('tip-2').trials).toBeGreaterThan(10)
    expect(m('tip-2')).toMatchObject({ inclusionRate: 1, medianOverpayment: 0, meanWaitBlocks: 1, calibration: 1, promisedBlocks: 3 })
    expect(m('tip-3').inclusionRate).toBe(1)
    expect(m('tip-3').medianOverpayment).toBeCloseTo(13 / 12 - 1, 10)
    expect(m('tip-1')).toMatchObject({ inclusionRate: 0, medianOverpayment: null, meanWaitBlocks: null })
  })
})
