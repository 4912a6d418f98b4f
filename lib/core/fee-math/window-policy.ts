import { withLiveParams, type ChainFeePolicy } from '../chain-rules/chain-policy'
import type { FeeWindow } from '../types'
import { lineaCompressedSizeBound, lineaPriorityFeeFloor } from './linea-fee'
import { DEFAULT_TX_BYTES, MIN_TX_GAS } from './transaction-cost'

/** What a chain's policy becomes at one window: the rules its head block carries. Pure. */

/** The window fields the head's rules come from. */
export type WindowRules = Pick<FeeWindow, 'headExtraData' | 'lineaPricing' | 'nextBaseFeePerGas'>

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
  const live = withLiveParams(policy, window.headExtraData)
  const floor = live.ignoresTips ? null : lineaTransferTipFloor(window)
  return floor !== null && floor > live.minSuggestedPriorityFeeWei ? { ...live, minSuggestedPriorityFeeWei: floor } : live
}
