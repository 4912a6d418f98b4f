/**
 * Confidence levels (Blocknative's Gas Platform dialect): the fees with which a transaction sent at the head gets
 * into the NEXT block c% of the time, by the levels' own model (./estimator.ts) with a one-block wait. Pure.
 */
import { DEFAULT_FEE_POLICY, type ChainFeePolicy } from '../chain-rules/chain-policy'
import { answerAgeBlocks } from '../contract/freshness'
import type { FeeData } from '../types'
import { pieceTip } from './flashblocks'
import { headroomFloor, inclusionTip, inclusionTipBlocks, levelForecastModel, recentDemand } from './estimator'
import { baseFeeCap } from './forecast'
import { maxOf } from './statistics'

/** The confidence levels Blocknative's clients get when they ask for none, in its order. */
export const DEFAULT_CONFIDENCE_LEVELS = [99, 95, 90, 80, 70] as const

/** One confidence level's fees, in wei. */
export type ConfidencePrice = {
  /** Percent, an integer in 1…99: the share of next blocks these fees get into. */
  confidence: number
  /** A legacy (type 0) transaction's gas price: the next base fee plus the tip. */
  price: bigint
  maxPriorityFeePerGas: bigint
  maxFeePerGas: bigint
}

/** How many blocks a confidence level's max fee must cover: the answer's possible age and the one-block wait. */
export function confidenceHorizon(blockIntervalMs: number): number {
  return answerAgeBlocks(blockIntervalMs) + 1
}

/**
 * The fees of each confidence level, in the order asked. A higher confidence never asks less: the ladder is made
 * for every integer level from 1 up to the highest asked, each tip and max fee at least the one below it (so an
 * answer does not depend on which other levels were asked); every max fee leaves at least one full block's rise
 * over the next base fee (headroomFloor), every tip at least the chain's floor.
 * @param confidences integers in 1…99 (percent)
 * @example confidencePrices(data, policy, [99, 95, 90, 80, 70])
 */
export function confidencePrices(
  data: FeeData,
  policy: ChainFeePolicy = DEFAULT_FEE_POLICY,
  confidences: readonly number[] = DEFAULT_CONFIDENCE_LEVELS,
): ConfidencePrice[] {
  for (const c of confidences) {
    if (!Number.isInteger(c) || c < 1 || c > 99) throw new RangeError(`confidence ${c} is not an integer in 1…99`)
  }
  const model = levelForecastModel(data, policy)
  const horizon = confidenceHorizon(data.blockIntervalMs)
  const ladder: ConfidencePrice[] = []
  let floorTip = policy.ignoresTips ? 0n : policy.minSuggestedPriorityFeeWei
  let floorCap = headroomFloor(model)
  // the same recent blocks serve every level that looks as far back: each span's demand is read once
  const demandOf = new Map<number, bigint[]>()
  for (let confidence = 1; confidence <= Math.max(0, ...confidences); confidence++) {
    const target = { targetInclusion: confidence / 100, waitBlocks: 1 }
    const blocks = inclusionTipBlocks(target, data.blockIntervalMs, policy.tipWindowMs, data.gasUsedRatio.length)
    let demand = demandOf.get(blocks)
    if (!demand) demandOf.set(blocks, (demand = recentDemand(data, blocks)))
    // on a flashblocks chain the next block's first pieces decide (./flashblocks.ts pieceTip)
    const sealedTip = () => maxOf(inclusionTip(demand, target), floorTip)
    const tip = policy.ignoresTips ? 0n : data.pending ? pieceTip(data.pending, floorTip, target, confidence >= 90) : sealedTip()
    const cap = maxOf(baseFeeCap(model, horizon, target.targetInclusion), floorCap)
    ladder.push({ confidence, price: data.nextBaseFee + tip, maxPriorityFeePerGas: tip, maxFeePerGas: cap + tip })
    floorTip = tip
    floorCap = cap
  }
  return confidences.map((c) => ladder[c - 1]!)
}
