/**
 * The service's own accuracy on the live chain: the backtest (./backtest.ts, the code behind `npm run
 * backtest`) run on the window the service already holds.
 */
import { ours, runBacktest, type LevelMetrics } from './backtest'
import { withLiveParams, type ChainFeePolicy } from '../chain-rules/chain-policy'
import { BACKTEST_PERCENTILES, judgeNamed, type BlockStats, type Judge } from './judge'
import type { FeeWindow, LevelEstimate, PendingPieces, SeenPiece, Urgency } from '../types'
import { pieceAccuracyOf, type PieceAccuracy } from './piece-accuracy'
import { windowPolicy } from '../fee-math/window-policy'
import { piecedLevels } from '../fee-math/chain-levels'
import { windowAt } from '../window-at'

/** The judge the live accuracy uses: the backtest's default, which needs only eth_feeHistory's 0th, 5th and 10th percentiles. */
const ACCURACY_JUDGE: Judge['name'] = 'lenient'

/** One level's record over the judged suggestions. */
export type LevelAccuracy = {
  /** Suggestions judged (each one whose promised wait has passed within the window). */
  trials: number
  /** Blocks the level promises (its maxWaitTimeEstimate in blocks; the median over the trials). */
  promisedBlocks: number
  /** Share of the trials included within the promised wait, 0…1; null without trials. */
  includedWithinPromise: number | null
  /** Share the level aims for (the estimator's target), 0…1. */
  targetInclusion: number
  /** Median blocks until inclusion, over the trials that were included (null: none was). */
  medianWaitBlocks: number | null
  /** Median of paid / the cheapest price that would have got in within the same wait − 1, over the trials included within the promise (null: none). */
  medianOverpayment: number | null
}

export type AccuracyReport = {
  chainId: number
  judge: { name: Judge['name']; description: string }
  /** The window the suggestions were judged in: its first and latest block. */
  window: { oldestBlock: number; headBlock: number }
  /** First and last block at which a judged suggestion was made (null: none yet). */
  judgedBlocks: { from: number; to: number } | null
  /** Seconds between them, by the measured block interval (0 without judged suggestions). */
  spanSeconds: number
  blockIntervalMs: number
  levels: Record<Urgency, LevelAccuracy>
  /** On a flashblocks chain, the same judged per piece (./piece-accuracy.ts); null before a piece was followed. */
  pieces?: PieceAccuracy | null
}

/** The window's blocks as the backtest sees them: the percentiles the service asked for, null where the node sent no reward row. */
export function windowBlockStats(window: FeeWindow): BlockStats[] {
  const columns = BACKTEST_PERCENTILES.map((p) => window.rewardPercentiles.indexOf(p))
  return window.baseFeePerGas.map((baseFee, i): BlockStats => {
    const row = window.reward[i] ?? []
    return {
      number: window.oldestBlock + i,
      baseFee: BigInt(baseFee),
      gasUsedRatio: window.gasUsedRatio[i] ?? 0,
      rewards: columns.map((c) => {
        const r = c < 0 ? undefined : row[c]
        return r === undefined ? null : BigInt(r)
      }),
    }
  })
}

/** The accuracy of this service's suggestions over the window, by the backtest's code and judge. */
export function accuracyOf(window: FeeWindow, policy: ChainFeePolicy): AccuracyReport {
  const judge = judgeNamed(ACCURACY_JUDGE)
  const result = runBacktest({
    // the suggestion at N reads the next base fee from block N+1 of the window; the head's suggestion
    // has no later block to be judged on yet, so the window's own next base fee is not needed
    blocks: windowBlockStats(window),
    intervalMs: window.blockIntervalMs,
    mode: 'fees',
    strategies: [ours],
    source: 'live',
    chainId: window.chainId,
    judge,
    lagBlocks: 0,
    // the estimator as served: an OP-stack chain's live parameters from its head's extraData
    policy: withLiveParams(policy, window.headExtraData),
  })
  const level = (l: Urgency): LevelAccuracy => {
    const m: LevelMetrics | undefined = result.metrics.find((x) => x.level === l)
    if (!m) throw new Error(`the backtest returned no ${l} level`)
    return {
      trials: m.trials,
      promisedBlocks: m.promisedBlocks,
      includedWithinPromise: m.trials > 0 ? m.inclusionRate : null,
      targetInclusion: m.targetInclusion,
      medianWaitBlocks: m.medianWaitBlocks,
      medianOverpayment: m.medianOverpayment,
    }
  }
  const judged =
    result.firstTrialBlock !== null && result.lastTrialBlock !== null ? { from: result.firstTrialBlock, to: result.lastTrialBlock } : null
  return {
    chainId: window.chainId,
    judge: { name: judge.name, description: judge.description },
    window: { oldestBlock: window.oldestBlock, headBlock: window.headNumber },
    judgedBlocks: judged,
    spanSeconds: judged ? Math.round(((judged.to - judged.from) * window.blockIntervalMs) / 1000) : 0,
    blockIntervalMs: window.blockIntervalMs,
    levels: { low: level('low'), medium: level('medium'), high: level('high') },
  }
}

/**
 * The accuracy per piece on a flashblocks chain (lib/core/evaluation/piece-accuracy.ts): each followed state's
 * suggestion as the service answered it then (the sealed window cut at the block before, with that piece laid over),
 * kept in `memo` per piece so that a later report makes only the new pieces'.
 */
export function windowPieceAccuracy(
  sealed: FeeWindow,
  policy: ChainFeePolicy,
  seen: readonly SeenPiece[],
  memo: WeakMap<PendingPieces, Record<Urgency, LevelEstimate>> = new WeakMap(),
): PieceAccuracy | null {
  // per block, the window cut at the block before it, and its levels when a piece of it needs them, each made once
  const cuts = new Map<number, { cut: FeeWindow; levels?: ReturnType<typeof piecedLevels> } | null>()
  const before = (block: number) => {
    if (!cuts.has(block)) {
      const cut = windowAt(sealed, block - 1)
      cuts.set(block, cut ? { cut } : null)
    }
    return cuts.get(block)!
  }
  return pieceAccuracyOf(seen, {
    baseFeeOf: (n) => (before(n) ? BigInt(before(n)!.cut.nextBaseFeePerGas) : null),
    minTip: windowPolicy(policy, sealed).minPriorityFeeWei,
    suggest: (view) => {
      let levels = memo.get(view)
      if (!levels) {
        const b = before(view.blockNumber)!
        memo.set(view, (levels = (b.levels ??= piecedLevels(b.cut, policy))(view)))
      }
      return levels
    },
  })
}
