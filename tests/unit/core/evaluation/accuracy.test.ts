import { describe, expect, test } from 'vitest'
import { accuracyOf, windowBlockStats } from '@/lib/core/evaluation/accuracy'
import { ours, runBacktest, WARMUP_BLOCKS } from '@/lib/core/evaluation/backtest'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { REWARD_PERCENTILES } from '@/lib/core/fee-math/estimator'
import { judgeNamed } from '@/lib/core/evaluation/judge'
import type { FeeWindow } from '@/lib/core/types'
import type { Recording } from '@/scripts/record/recording'
import { toBlockStats } from '@/scripts/backtest/block-stats'

const GWEI = 1_000_000_000n

/** A window of `n` blocks whose base fee follows `baseFee(i)`, every block full, its tips `tips(i)` at REWARD_PERCENTILES. */
function window(n: number, baseFee: (i: number) => bigint, tips: (i: number) => bigint[], intervalMs = 12_000): FeeWindow {
  return {
    chainId: 1,
    oldestBlock: 1_000,
    headNumber: 1_000 + n - 1,
    headTimestamp: 1_700_000_000,
    blockIntervalMs: intervalMs,
    intervalAnchor: null,
    baseFeePerGas: Array.from({ length: n }, (_, i) => String(baseFee(i))),
    nextBaseFeePerGas: String(baseFee(n)),
    gasUsedRatio: Array.from({ length: n }, () => 1),
    rewardPercentiles: [...REWARD_PERCENTILES],
    reward: Array.from({ length: n }, (_, i) => tips(i).map(String)),
    fetchedAt: 1_700_000_000_000,
  }
}

const flatTips = () => REWARD_PERCENTILES.map((p) => GWEI + BigInt(p) * 10_000_000n)

describe('the live accuracy (lib/core/evaluation/accuracy.ts)', () => {
  test('behavior: the window becomes the backtest blocks: numbers, base fees, fullness, and the judge percentiles it has', () => {
    const w = window(3, (i) => 10n * GWEI + BigInt(i), flatTips)
    w.reward[1] = []
    const blocks = windowBlockStats(w)
    expect(blocks.map((b) => b.number)).toEqual([1_000, 1_001, 1_002])
    expect(blocks.map((b) => b.baseFee)).toEqual([10n * GWEI, 10n * GWEI + 1n, 10n * GWEI + 2n])
    // BACKTEST_PERCENTILES are 0,1,5,10,20,30,50,100: 20 and 30 are not asked of the node
    expect(blocks[0]!.rewards).toEqual([
      GWEI,
      GWEI + 10_000_000n,
      GWEI + 50_000_000n,
      GWEI + 100_000_000n,
      null,
      null,
      GWEI + 500_000_000n,
      2n * GWEI,
    ])
    // a block the node sent no reward row for has no tip data
    expect(blocks[1]!.rewards.every((r) => r === null)).toBe(true)
  })

  test('behavior: equals `npm run backtest` of the same blocks recorded as eth_feeHistory percentiles (the offline path)', () => {
    const w = window(
      300,
      (i) => 20n * GWEI + BigInt((i * 7919) % 97) * 100_000_000n,
      (i) => flatTips().map((t) => t + BigInt((i * 31) % 13) * 50_000_000n),
    )
    const recording: Recording = {
      header: {
        format: 'gas-api-blocks/1',
        chainId: 1,
        source: 'test',
        tipData: 'percentiles',
        percentiles: [...REWARD_PERCENTILES],
        nominalBlockIntervalMs: 12_000,
      },
      blocks: w.baseFeePerGas.map((b, i) => ({
        number: w.oldestBlock + i,
        baseFeePerGas: b,
        gasUsed: 30_000_000,
        gasLimit: 30_000_000,
        rewards: w.reward[i],
      })),
    }
    const offline = runBacktest({
      blocks: toBlockStats(recording).blocks,
      intervalMs: w.blockIntervalMs,
      mode: 'fees',
      strategies: [ours],
      source: 'test',
      chainId: 1,
      judge: judgeNamed('lenient'),
    })
    const live = accuracyOf(w, chainFeePolicy(1))
    for (const m of offline.metrics) {
      const l = live.levels[m.level]
      expect([l.trials, l.includedWithinPromise, l.medianWaitBlocks, l.medianOverpayment, l.promisedBlocks]).toEqual([
        m.trials,
        m.inclusionRate,
        m.medianWaitBlocks,
        m.medianOverpayment,
        m.promisedBlocks,
      ])
    }
    expect(live.judgedBlocks).toEqual({ from: offline.firstTrialBlock, to: offline.lastTrialBlock })
  })

  test('behavior: a suggestion is judged once its promised wait has passed within the window: trials = blocks − warm-up − promised blocks', () => {
    const n = 200
    const r = accuracyOf(
      window(n, () => 10n * GWEI, flatTips),
      chainFeePolicy(1),
    )
    for (const level of ['low', 'medium', 'high'] as const) {
      const l = r.levels[level]
      expect(l.promisedBlocks).toBeGreaterThan(0)
      expect(l.trials).toBe(n - (WARMUP_BLOCKS - 1) - l.promisedBlocks)
    }
    expect(r.judgedBlocks?.from).toBe(1_000 + WARMUP_BLOCKS - 1)
    expect(r.spanSeconds).toBe(((r.judgedBlocks!.to - r.judgedBlocks!.from) * 12_000) / 1000)
  })

  test('behavior: on a steady chain every level gets in at once; when the demanded tip jumps past every suggestion, the trials after the jump fail', () => {
    const steady = accuracyOf(
      window(200, () => 10n * GWEI, flatTips),
      chainFeePolicy(1),
    )
    for (const l of Object.values(steady.levels)) {
      expect(l.includedWithinPromise).toBe(1)
      expect(l.medianWaitBlocks).toBe(1)
    }
    // from block 150 on, every full block's lowest tip is 1,000 gwei: far above anything suggested from the first 150 blocks
    const jump = (i: number) => (i < 150 ? flatTips() : REWARD_PERCENTILES.map(() => 1_000n * GWEI))
    const r = accuracyOf(
      window(200, () => 10n * GWEI, jump),
      chainFeePolicy(1),
    )
    const medium = r.levels.medium
    // suggestions made before the jump whose promise reaches past it, and the ones just after it, miss
    expect(medium.includedWithinPromise).toBeLessThan(1)
    expect(medium.includedWithinPromise).toBeGreaterThan(0)
  })
})
