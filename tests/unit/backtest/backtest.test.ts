import { describe, expect, test } from 'vitest'
import { firstInclusion, promisedBlocks, runBacktest, trial } from '@/lib/core/evaluation/backtest'
import type { Strategy, Suggestion } from '@/lib/core/evaluation/backtest'
import {
  BACKTEST_PERCENTILES,
  JUDGES,
  judgeNamed,
  lowestRealTip,
  realizedTip,
  weightedPercentile,
  type BlockStats,
} from '@/lib/core/evaluation/judge'
import { gethOracleTip } from '@/scripts/backtest/strategies'

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

/** A full block (≥ 95%) with these tips, each 21,000 gas. */
const txBlock = (tips: bigint[], ratio: number, base = 10n): BlockStats => {
  const sorted = [...tips].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
  const gasTips = sorted.map((tip) => ({ tip, gas: 21_000 }))
  return {
    number: 1,
    baseFee: base * G,
    gasUsedRatio: ratio,
    rewards: BACKTEST_PERCENTILES.map((p) => weightedPercentile(gasTips, p)),
    tips: sorted,
  }
}

describe('judges', () => {
  // 100 transactions: one builder payment at 0 wei, one system tip of 2 wei, then 98 tips of 1..98 gwei
  const tips = [0n, 2n, ...Array.from({ length: 98 }, (_, i) => BigInt(i + 1) * G)]
  const min = G / 1000n
  test.each([
    ['lenient', 0.97, 1n * G],
    ['lenient', 0.5, min],
    ['lenient', 0, min],
    // gas-weighted: the 5th of 100 equal transactions (0, 2 wei, 1, 2, 3 gwei…) is 3 gwei, the 10th 8 gwei
    ['moderate', 0.97, 3n * G],
    ['moderate', 0.5, 1n * G],
    ['moderate', 0, min],
    ['strict', 0.97, 8n * G],
    ['strict', 0.5, 3n * G],
    ['strict', 0, min],
  ] as const)('behavior: %s judge, block %s full', (name, ratio, want) => {
    expect(judgeNamed(name).demanded(txBlock(tips, ratio), min)).toBe(want)
  })

  test("behavior: no judge demands less than the chain minimum, and tips of at most 2 wei are never a block's lowest real tip", () => {
    const system = txBlock([0n, 1n, 2n], 0.99)
    expect(lowestRealTip(system)).toBeNull()
    for (const j of JUDGES) expect(j.demanded(system, 25n * G)).toBe(25n * G)
  })

  test('behavior: without tip data a judge cannot tell a full block; the lenient judge gives a block with room the chain minimum; from a percentile grid it reads the grid', () => {
    const none: BlockStats = { ...block(1, 1n, 1n, 0.97), rewards: BACKTEST_PERCENTILES.map(() => null) }
    for (const j of JUDGES) expect(j.demanded(none, 0n)).toBeNull()
    // an empty block (the node sent no reward row): it had room, whatever anyone tipped
    const empty: BlockStats = { ...block(1, 1n, 1n, 0), rewards: BACKTEST_PERCENTILES.map(() => null) }
    expect(judgeNamed('lenient').demanded(empty, 7n)).toBe(7n)
    // a grid (no per-transaction tips) whose 0th and 1st percentiles are system tips: the lowest real tip is the 5th's
    const grid: BlockStats = { ...block(1, 1n, 1n, 0.97), rewards: BACKTEST_PERCENTILES.map((p) => (p < 5 ? 1n : BigInt(p) * G)) }
    expect(lowestRealTip(grid)).toBe(5n * G)
    expect(judgeNamed('lenient').demanded(grid, 0n)).toBe(5n * G)
  })
})

/** The blocks' flat reward: what each demands in these tests. */
const demand = (b: BlockStats) => b.rewards[0] ?? null

describe('firstInclusion', () => {
  const future = [block(1, 10n, 2n), block(2, 12n, 1n), block(3, 9n, 2n)]
  test.each([
    ['tip and max fee cover block 1', sug(20n, 2n), 1],
    ['tip too low for block 1, enough for block 2', sug(20n, 1n), 2],
    ["max fee below block 2's base fee, the effective tip too small in block 1", sug(11n, 2n), 3],
    ['never: the tip never meets the demand', sug(100n, 0n), null],
    ['max fee caps the effective tip: 12 − 10 = 2 ≥ 2 in block 1', sug(12n, 5n), 1],
  ])('args: %s', (_, s, want) => {
    expect(firstInclusion(s, future, 'fees', demand)).toBe(want)
  })
  test('args: base-fee mode checks only the max fee minus the tip against the base fee', () => {
    expect(firstInclusion(sug(11n, 2n), future, 'base-fee', demand)).toBe(3) // 9 covers only block 3's base fee
  })
})

describe('trial', () => {
  const future = [block(1, 10n, 2n), block(2, 8n, 1n), block(3, 9n, 3n)]
  test('behavior: overpayment is against the cheapest price within the same wait', () => {
    // included at block 1 paying 10 + 4 = 14; cheapest within 1 block: 10 + 2 = 12
    const t = trial(sug(20n, 4n), future, 12_000, 'fees', demand)
    expect(t).toMatchObject({ waitBlocks: 1, inPromise: true })
    expect(t.overpayment).toBeCloseTo(14 / 12 - 1, 10)
  })
  test('behavior: outside the promised wait is a miss', () => {
    const t = trial(sug(20n, 1n, 12_000), future, 12_000, 'fees', demand) // promised 1 block, gets in at 2
    expect(t).toMatchObject({ waitBlocks: 2, inPromise: false, overpayment: null })
  })
  test("behavior: OpenChainBench's gap is against the realized percentile of the next block's tips", () => {
    const next = txBlock([1n * G, 2n * G, 3n * G, 4n * G], 0.5)
    expect(realizedTip(next, 50)).toBe(2n * G)
    expect(trial(sug(20n, 5n), [next], 12_000, 'fees', demand, 50).gapWei).toBe(3n * G)
    expect(trial(sug(20n, 1n), [next], 12_000, 'fees', demand, 75).gapWei).toBe(2n * G)
    expect(trial(sug(20n, 1n), [next], 12_000, 'base-fee', demand, 75).gapWei).toBeNull()
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
  const fixed = (tip: bigint): Strategy => ({
    name: `tip-${tip}`,
    description: '',
    suggest: () => ({ low: sug(20n, tip), medium: sug(20n, tip), high: sug(20n, tip) }),
  })

  test('behavior: metrics per strategy and level, on a flat window where the answer is obvious', () => {
    const blocks = Array.from({ length: 40 }, (_, i) => ({ ...txBlock([2n * G, 2n * G], 0.97), number: i }))
    const r = runBacktest({
      blocks,
      intervalMs: 12_000,
      mode: 'fees',
      strategies: [fixed(2n), fixed(3n), fixed(1n)],
      source: 't',
      chainId: 1,
    })
    expect(r).toMatchObject({ judge: 'lenient', lagBlocks: 0 })
    const m = (name: string) => r.metrics.find((x) => x.strategy === name && x.level === 'medium')!
    expect(m('tip-2').trials).toBeGreaterThan(10)
    expect(m('tip-2')).toMatchObject({
      inclusionRate: 1,
      targetInclusion: 0.95,
      medianOverpayment: 0,
      meanWaitBlocks: 1,
      promisedBlocks: 3,
      medianGapGwei: 0,
    })
    expect(m('tip-3').inclusionRate).toBe(1)
    expect(m('tip-3').medianOverpayment).toBeCloseTo(13 / 12 - 1, 10)
    expect(m('tip-3').medianGapGwei).toBe(1)
    expect(m('tip-1')).toMatchObject({ inclusionRate: 0, medianOverpayment: null, meanWaitBlocks: null })
  })

  test('behavior: with serving lag, a strategy sees only blocks up to N − lag and the next base fee reported then', () => {
    const blocks = Array.from({ length: 40 }, (_, i) => ({ ...block(i, 10n + BigInt(i), 1n), number: i }))
    const seen: { last: number; next: bigint }[] = []
    const spy: Strategy = {
      name: 'spy',
      description: '',
      suggest: (v) => {
        seen.push({ last: v.blocks.at(-1)!.number, next: v.nextBaseFee })
        return { low: sug(100n, 1n), medium: sug(100n, 1n), high: sug(100n, 1n) }
      },
    }
    const r = runBacktest({ blocks, intervalMs: 12_000, mode: 'base-fee', strategies: [spy], source: 't', chainId: 1, lagBlocks: 2 })
    // the first trial is at N = 21 (20 blocks of history seen at N − 2 = 19)
    expect(r.firstTrialBlock).toBe(21)
    expect(seen[0]).toEqual({ last: 19, next: 30n * G })
  })

  test('behavior: serving lag costs a strategy whose cap covers only the next block', () => {
    // the base fee rises 12.5% every block: a cap of exactly the reported next base fee is late once lagged
    const blocks: BlockStats[] = []
    let fee = 10n * G
    for (let i = 0; i < 40; i++) {
      blocks.push({ ...block(i, 0n, 1n), baseFee: fee })
      fee += fee / 8n
    }
    const exact: Strategy = {
      name: 'exact',
      description: '',
      suggest: (v) => {
        const s = { maxFeePerGas: v.nextBaseFee + G, maxPriorityFeePerGas: G, minWaitMs: 12_000, maxWaitMs: 12_000 }
        return { low: s, medium: s, high: s }
      },
    }
    const rate = (lag: number) =>
      runBacktest({ blocks, intervalMs: 12_000, mode: 'base-fee', strategies: [exact], source: 't', chainId: 1, lagBlocks: lag })
        .metrics[0]!.inclusionRate
    expect(rate(0)).toBe(1)
    expect(rate(1)).toBe(0)
  })
})
