import type { ChainFeePolicy } from '../chain-rules/chain-policy'
import { bigLaneLevels } from '../fee-math/chain-levels'
import { gasPricesFromLevels } from '../fee-math/gas-prices'
import type { FeeWindow } from '../types'
import { formatGwei } from '../units'
import { buildFeeReport, gasPricesBody, levelBody } from './report'
import type { GasPrices, SuggestedGasFees } from './schemas'

/**
 * The answers of HyperEVM's big-block lane (`?lane=big`) for a window: suggestedGasFees with the lane's levels
 * (lib/core/fee-math/chain-levels.ts bigLaneLevels) and the next big block's base fee as estimatedBaseFee (the
 * ranges, trends and congestion stay the window's: one block sequence holds both lanes), and gasPrices at that
 * base fee plus each level's tip.
 * @throws UpstreamBadResponseError when the node did not answer eth_bigBlockGasPrice
 */
export function buildBigLaneBodies(
  window: FeeWindow,
  policy: ChainFeePolicy,
): { suggestedGasFees: SuggestedGasFees; gasPrices: GasPrices } {
  const levels = bigLaneLevels(window, policy)
  // bigLaneLevels threw where the price is absent
  const next = BigInt(window.chainReads!.bigBlockGasPrice!)
  const small = buildFeeReport(window, policy).suggestedGasFees
  return {
    suggestedGasFees: {
      ...small,
      low: levelBody(levels.low),
      medium: levelBody(levels.medium),
      high: levelBody(levels.high),
      estimatedBaseFee: formatGwei(next),
    },
    gasPrices: gasPricesBody(gasPricesFromLevels(next, levels)),
  }
}
