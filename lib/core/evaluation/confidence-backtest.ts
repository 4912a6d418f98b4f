/**
 * The confidence levels' backtest: at each block N, the fees of each confidence level (../fee-math/confidence.ts)
 * made from the blocks up to N − lag, sent right after block N, judged on block N + 1 alone by a judge
 * (./judge.ts) and the backtest's inclusion rule (./backtest.ts trial).
 */
import { chainFeePolicy, type ChainFeePolicy } from '../chain-rules/chain-policy'
import { confidencePrices, DEFAULT_CONFIDENCE_LEVELS } from '../fee-math/confidence'
import { quantile, serviceFeeData, trial, WARMUP_BLOCKS, type Demand } from './backtest'
import { judgeNamed, type BlockStats, type Judge } from './judge'

/** One confidence level's outcome under one judge and serving lag. */
export type ConfidenceRow = {
  confidence: number
  judge: Judge['name']
  lag: number
  trials: number
  /** The share of trials included in block N + 1. */
  includedShare: number
  /** The median tip (gwei) the level asked. */
  medianTipGwei: number | null
  /** Median of (paid / the cheapest price block N + 1 took − 1), percent, over the included trials. */
  medianOverpayPct: number | null
  /** The share of trials whose tip was the chain's floor (minSuggestedPriorityFeeWei): no cheaper tip was on offer. */
  atFloorShare: number
}

const gwei = (wei: bigint) => Number(wei) / 1e9

/**
 * Replays a window with tip data: one trial per block and confidence level, judged on the next block.
 * @param opts.confidences percent levels (default 99, 95, 90, 80, 70)
 */
export function runConfidenceBacktest(opts: {
  blocks: readonly BlockStats[]
  intervalMs: number
  chainId: number
  judge?: Judge
  lagBlocks?: number
  confidences?: readonly number[]
  policy?: ChainFeePolicy
}): ConfidenceRow[] {
  const { blocks, intervalMs } = opts
  const judge = opts.judge ?? judgeNamed('moderate')
  const lag = opts.lagBlocks ?? 0
  const policy = opts.policy ?? chainFeePolicy(opts.chainId)
  const confidences = opts.confidences ?? DEFAULT_CONFIDENCE_LEVELS
  const demanded: Demand = (b) => judge.demanded(b, policy.minPriorityFeeWei)
  const floor = policy.ignoresTips ? 0n : policy.minSuggestedPriorityFeeWei
  const outcomes = confidences.map(() => ({ trials: 0, included: 0, atFloor: 0, tips: [] as number[], overpay: [] as number[] }))
  for (const n of blocks.keys()) {
    const seen = n - lag
    if (seen < WARMUP_BLOCKS - 1) continue
    const reported = blocks[seen + 1]
    const next = blocks[n + 1]
    if (!reported || !next) break
    // a block the judge cannot read (a full block without tip data) is no trial
    if (demanded(next) === null) continue
    const data = serviceFeeData({ blocks: blocks.slice(0, seen + 1), nextBaseFee: reported.baseFee, intervalMs, chainId: opts.chainId })
    const prices = confidencePrices(data, policy, confidences)
    prices.forEach((p, i) => {
      const o = outcomes[i]!
      const s = { maxFeePerGas: p.maxFeePerGas, maxPriorityFeePerGas: p.maxPriorityFeePerGas, minWaitMs: intervalMs, maxWaitMs: intervalMs }
      const t = trial(s, [next], intervalMs, 'fees', demanded)
      o.trials++
      if (t.inPromise) o.included++
      if (p.maxPriorityFeePerGas <= floor) o.atFloor++
      o.tips.push(gwei(p.maxPriorityFeePerGas))
      if (t.overpayment !== null) o.overpay.push(t.overpayment * 100)
    })
  }
  return confidences.map((confidence, i) => {
    const o = outcomes[i]!
    return {
      confidence,
      judge: judge.name,
      lag,
      trials: o.trials,
      includedShare: o.trials ? o.included / o.trials : 0,
      medianTipGwei: quantile(o.tips, 0.5),
      medianOverpayPct: quantile(o.overpay, 0.5),
      atFloorShare: o.trials ? o.atFloor / o.trials : 0,
    }
  })
}
