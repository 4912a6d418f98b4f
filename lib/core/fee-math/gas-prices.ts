import { DEFAULT_FEE_POLICY, type ChainFeePolicy } from '../chain-rules/chain-policy'
import { demandProxyAt, estimateLevels } from './estimator'
import { NoPriceDataError } from '../contract/errors'
import type { FeeData, LevelEstimate, Urgency } from '../types'

/** One legacy (type-0) gas price per urgency level, wei. */
export type LevelGasPrices = Record<Urgency, bigint>

/**
 * Legacy gas prices on an EIP-1559 chain, wei: the next base fee plus each level's tip (EIP-1559: a legacy
 * transaction's max fee and max priority fee are both its gasPrice).
 */
export function gasPricesFromLevels(nextBaseFee: bigint, levels: Record<Urgency, LevelEstimate>): LevelGasPrices {
  return {
    low: nextBaseFee + levels.low.maxPriorityFeePerGas,
    medium: nextBaseFee + levels.medium.maxPriorityFeePerGas,
    high: nextBaseFee + levels.high.maxPriorityFeePerGas,
  }
}

/**
 * Legacy gas prices on a chain without EIP-1559, wei, from its eth_feeHistory window (base fees 0, rewards =
 * the transactions' whole gas prices). Blocks without such a transaction are left out: without a base fee an
 * empty block says nothing about the lowest price the chain's miners accept (go-ethereum's oracle likewise
 * samples its last price for them and looks further back, eth/gasprice/gasprice.go SuggestTipCap).
 * @throws NoPriceDataError when no block of the window holds such a transaction
 */
export function legacyGasPrices(data: FeeData, chainId: number, policy: ChainFeePolicy = DEFAULT_FEE_POLICY): LevelGasPrices {
  const priced = data.gasUsedRatio.flatMap((_, i) => (demandProxyAt(data, i) > 0n ? [i] : []))
  if (priced.length === 0) throw new NoPriceDataError(chainId, data.gasUsedRatio.length)
  const only = <T>(values: readonly T[]): T[] =>
    priced.flatMap((i) => {
      const v = values[i]
      return v === undefined ? [] : [v]
    })
  const pricedBlocks: FeeData = {
    baseFees: only(data.baseFees),
    nextBaseFee: 0n,
    gasUsedRatio: only(data.gasUsedRatio),
    rewardPercentiles: data.rewardPercentiles,
    rewards: only(data.rewards),
    blockIntervalMs: data.blockIntervalMs,
  }
  // a chain whose ordering ignores tips (Arbitrum) still charges the price: the tip rule stays on
  return gasPricesFromLevels(0n, estimateLevels(pricedBlocks, { ...policy, ignoresTips: false }))
}
