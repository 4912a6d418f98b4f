import type { ChainFeePolicy } from '../chain-rules/chain-policy'
import { UpstreamBadResponseError } from '../contract/errors'
import type { FeeData, FeeWindow, LevelEstimate, PendingPieces, Urgency } from '../types'
import { mulDivCeil, PPM } from '../units'
import { confidencePrices, type ConfidencePrice } from './confidence'
import { estimateLevels, IGNORE_TIP_WEI } from './estimator'
import { pieceLevels } from './flashblocks'
import { toFeeData } from './fee-data'
import type { LevelGasPrices } from './gas-prices'
import { maxOf } from './statistics'
import { windowPolicy } from './window-policy'

/**
 * The fast chains' rules (lib/core/chain-rules/fast-chains.ts) applied to the levels of a window: every answer made
 * from levels (suggestedGasFees, gasPrices, replacementFees, transactionCost, Blocknative's ladder) gets them here,
 * after the estimator. A chain without rules gets the estimator's levels untouched. Pure.
 */

/** A chain's block lane: `small`, every chain's own; `big`, HyperEVM's big blocks (rules.bigBlockLane). */
export type Lane = 'small' | 'big'

/** What a window's rules do to each level's fees, wei; 0n: that rule is not in force. */
export type LevelRules = {
  /** No tip below this. */
  tipFloor: bigint
  /** Max fee = tip (the base fee is 0, and the window says so). */
  zeroBaseFee: boolean
  /** Each cap (max fee − tip) grows by this, ppm: one more block's rise. */
  capGrowthPpm: bigint
  /** No cap below this. */
  capFloor: bigint
  /** No max fee (nor legacy gas price) below this. */
  maxFeeFloor: bigint
}

/**
 * The lowest real tip (> IGNORE_TIP_WEI: a system's or a builder's) any block of the tip window accepted, wei: the
 * smallest reward above that at any percentile asked of each block; 0 without one.
 */
export function lowestAcceptedTip(data: FeeData, tipWindowMs: number): bigint {
  const blocks = Math.min(data.rewards.length, Math.ceil(tipWindowMs / Math.max(1, data.blockIntervalMs)))
  let lowest: bigint | undefined
  for (const row of data.rewards.slice(data.rewards.length - blocks)) {
    for (const tip of row) if (tip > IGNORE_TIP_WEI && (lowest === undefined || tip < lowest)) lowest = tip
  }
  return lowest ?? 0n
}

/**
 * The rules in force at a window, by the policy at that window (windowPolicy); null for a chain without rules.
 * @example levelRulesOf(monadWindow, policy) // { capFloor: 100 gwei, capGrowthPpm: 36_360n, … }
 */
export function levelRulesOf(window: FeeWindow, policy: ChainFeePolicy): LevelRules | null {
  const rules = policy.rules
  if (!rules) return null
  const data = toFeeData(window)
  const next = data.nextBaseFee
  const arbitrumFloor = rules.arbOsTipsAndFloor && window.l1Fee?.rule === 'arbitrum' ? window.l1Fee.minimumGasPrice : undefined
  const gasPriceFloor = rules.maxFeeFloorFromGasPrice ? window.chainReads?.gasPrice : undefined
  return {
    tipFloor: rules.tipFloorFromBlocks && !policy.ignoresTips ? lowestAcceptedTip(data, policy.tipWindowMs) : 0n,
    zeroBaseFee: rules.zeroBaseFee === true && next === 0n,
    capGrowthPpm: rules.nextBaseFeeRepeatsHead ? policy.maxBaseFeeRisePpm : 0n,
    capFloor: maxOf(
      policy.minBaseFeeWei ?? 0n,
      rules.minFeeCapOverBaseFeePpm === undefined
        ? 0n
        : mulDivCeil(BigInt(window.headBaseFeePerGas ?? next), rules.minFeeCapOverBaseFeePpm, PPM),
    ),
    maxFeeFloor: maxOf(BigInt(arbitrumFloor ?? 0), BigInt(gasPriceFloor ?? 0)),
  }
}

/** One level's fees under the rules (wei): the tip floor first, then the cap's growth and floor, then the max fee's floor. */
export function applyLevelRules<T extends { maxPriorityFeePerGas: bigint; maxFeePerGas: bigint }>(fees: T, r: LevelRules): T {
  const tip = maxOf(fees.maxPriorityFeePerGas, r.tipFloor)
  if (r.zeroBaseFee) return { ...fees, maxPriorityFeePerGas: tip, maxFeePerGas: tip }
  const cap = fees.maxFeePerGas - fees.maxPriorityFeePerGas
  const grown = r.capGrowthPpm > 0n ? mulDivCeil(cap, PPM + r.capGrowthPpm, PPM) : cap
  return { ...fees, maxPriorityFeePerGas: tip, maxFeePerGas: maxOf(maxOf(grown, r.capFloor) + tip, r.maxFeeFloor) }
}

const LEVELS = ['low', 'medium', 'high'] as const

/**
 * A window's three levels by the chain's policy at that window and its rules: the one place levels are made for
 * the answers (lib/core/contract/report.ts, ./replacement.ts levelSuggestions).
 */
export function windowLevels(window: FeeWindow, policy: ChainFeePolicy): Record<Urgency, LevelEstimate> {
  return piecedLevels(window, policy)(window.pending)
}

/**
 * The levels of a window's pieces (Flashblocks): the sealed blocks' levels made once, and per piece its tips and
 * waits laid over them (./flashblocks.ts pieceLevels), then the chain's rules, as windowLevels answers with that piece.
 */
export function piecedLevels(window: FeeWindow, policy: ChainFeePolicy): (p?: PendingPieces) => Record<Urgency, LevelEstimate> {
  const live = windowPolicy(policy, window)
  const { pending: _pending, ...sealed } = window
  const levels = estimateLevels(toFeeData(sealed), live)
  const rules = levelRulesOf(window, live)
  return (p) => {
    const pieced = p ? pieceLevels(levels, p, live.ignoresTips ? null : live.minSuggestedPriorityFeeWei) : levels
    if (!rules) return pieced
    return Object.fromEntries(LEVELS.map((u) => [u, applyLevelRules(pieced[u], rules)])) as Record<Urgency, LevelEstimate>
  }
}

/** A legacy price (its fee cap and tip at once), wei: the next base fee grown and floored as a cap is, plus the tip, floored. */
export function legacyPriceOf(next: bigint, tip: bigint, r: LevelRules | null): bigint {
  if (!r) return next + tip
  if (r.zeroBaseFee) return maxOf(tip, r.maxFeeFloor)
  const grown = r.capGrowthPpm > 0n ? mulDivCeil(next, PPM + r.capGrowthPpm, PPM) : next
  return maxOf(maxOf(grown, r.capFloor) + tip, r.maxFeeFloor)
}

/** The levels' legacy gas prices (legacyPriceOf each level's tip). */
export function windowGasPrices(window: FeeWindow, policy: ChainFeePolicy, levels: Record<Urgency, LevelEstimate>): LevelGasPrices {
  const rules = levelRulesOf(window, windowPolicy(policy, window))
  const next = BigInt(window.nextBaseFeePerGas)
  const price = (u: Urgency) => legacyPriceOf(next, levels[u].maxPriorityFeePerGas, rules)
  return { low: price('low'), medium: price('medium'), high: price('high') }
}

/** Blocknative's confidence ladder (./confidence.ts) of a window under the same rules; `price` the legacy price of its tip (legacyPriceOf). */
export function windowConfidencePrices(window: FeeWindow, policy: ChainFeePolicy, confidences: readonly number[]): ConfidencePrice[] {
  const live = windowPolicy(policy, window)
  const data = toFeeData(window)
  const ladder = confidencePrices(data, live, confidences)
  const rules = levelRulesOf(window, live)
  if (!rules) return ladder
  return ladder.map((p) => {
    const ruled = applyLevelRules(p, rules)
    return { ...ruled, price: legacyPriceOf(data.nextBaseFee, ruled.maxPriorityFeePerGas, rules) }
  })
}

/**
 * HyperEVM's big-block lane (rules.bigBlockLane): every level at the next big block's base fee (eth_bigBlockGasPrice,
 * read with the window) grown by one block's planned rise, the tips the policy's; waits from one block of the
 * measured interval up to the lane's cadence (the next big block takes any level).
 * @throws UpstreamBadResponseError when the chain has the lane but the node did not answer eth_bigBlockGasPrice
 */
export function bigLaneLevels(window: FeeWindow, policy: ChainFeePolicy): Record<Urgency, LevelEstimate> {
  const lane = policy.rules?.bigBlockLane
  const raw = window.chainReads?.bigBlockGasPrice
  if (!lane || raw === undefined)
    throw new UpstreamBadResponseError("The upstream node did not answer eth_bigBlockGasPrice, the big-block lane's price.")
  const live = windowPolicy(policy, window)
  const cap = mulDivCeil(BigInt(raw), PPM + live.maxBaseFeeRisePpm, PPM)
  const tip = live.ignoresTips ? 0n : live.minSuggestedPriorityFeeWei
  const level: LevelEstimate = {
    maxPriorityFeePerGas: tip,
    maxFeePerGas: cap + tip,
    minWaitTimeMs: Math.min(window.blockIntervalMs, lane.intervalMs),
    maxWaitTimeMs: lane.intervalMs,
  }
  return { low: level, medium: { ...level }, high: { ...level } }
}
