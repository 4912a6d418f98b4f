import { withLiveParams, type ChainFeePolicy } from '../chain-rules/chain-policy'
import type { FeeWindow } from '../types'
import { lineaCompressedSizeBound, lineaPriorityFeeFloor } from './linea-fee'
import { DEFAULT_TX_BYTES, MIN_TX_GAS } from './transaction-cost'

/** What a chain's policy becomes at one window: the rules its head block carries. Pure. */

/** The window fields the head's rules come from. */
export type WindowRules = Pick<FeeWindow, 'headExtraData' | 'lineaPricing' | 'nextBaseFeePerGas'> &
  Partial<Pick<FeeWindow, 'blockIntervalMs' | 'l1Fee'>>

/** The lowest tip (wei) Linea's sequencer takes for the default transfer at the head, as linea_estimateGas; null without its pricing. */
export function lineaTransferTipFloor(window: WindowRules): bigint | null {
  if (!window.lineaPricing) return null
  return lineaPriorityFeeFloor({
    params: window.lineaPricing,
    gas: MIN_TX_GAS,
    compressedSize: lineaCompressedSizeBound(DEFAULT_TX_BYTES),
    baseFee: BigInt(window.nextBaseFeePerGas),
  })
}

/**
 * The chain's policy as the levels of this window are made with it: an OP-stack head's live EIP-1559 parameters, and
 * on Linea the head's tip floor as minSuggestedPriorityFeeWei, so every answer suggests what the sequencer takes. Idempotent.
 * @example windowPolicy(chainFeePolicy(59144), window).minSuggestedPriorityFeeWei // 41_903_993n on 2026-01 mainnet at base fee 7
 */
export function windowPolicy(policy: ChainFeePolicy, window: WindowRules): ChainFeePolicy {
  const live = fastChainPolicy(withLiveParams(policy, window.headExtraData), window)
  const floor = live.ignoresTips ? null : lineaTransferTipFloor(window)
  return floor !== null && floor > live.minSuggestedPriorityFeeWei ? { ...live, minSuggestedPriorityFeeWei: floor } : live
}

/** Parent blocks further apart than this count as this far (Sonic gossip/gasprice/base_fee.go ignores longer gaps). */
const MAX_TIMED_STEP_MS = 60_000

/**
 * The fast chains' rules that depend on the window (./fast-chains.ts): a time-based base fee's per-block bounds at
 * the measured interval, ×e^(±interval / time constant) rounded up (Sonic); Arbitrum's tips paid when the head's
 * ArbOwnerPublic.getCollectTips() said so. Other rows pass through unchanged.
 */
export function fastChainPolicy(policy: ChainFeePolicy, window: WindowRules): ChainFeePolicy {
  const rules = policy.rules
  if (!rules) return policy
  let out = policy
  if (rules.baseFeeTimeConstantS !== undefined && window.blockIntervalMs !== undefined && !policy.boundsConfigured) {
    const seconds = Math.min(Math.max(window.blockIntervalMs, 1), MAX_TIMED_STEP_MS) / 1000 / rules.baseFeeTimeConstantS
    const ppm = (x: number) => BigInt(Math.ceil(x * 1e6))
    out = { ...out, maxBaseFeeRisePpm: ppm(Math.expm1(seconds)), maxBaseFeeFallPpm: ppm(-Math.expm1(-seconds)) }
  }
  if (rules.arbOsTipsAndFloor && window.l1Fee?.rule === 'arbitrum' && window.l1Fee.collectTips === true)
    out = { ...out, ignoresTips: false }
  return out
}
