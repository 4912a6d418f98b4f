import 'server-only'
/** The fee answers of a chain's other lane (HyperEVM's big blocks, `?lane=big`), from the same window as the rest. */
import { feePolicyOf, getChain } from '../chains/registry'
import type { ChainFeePolicy } from '../core/chain-rules/chain-policy'
import { InvalidQueryError } from '../core/contract/errors'
import { buildBigLaneBodies } from '../core/contract/lane-report'
import type { Lane } from '../core/fee-math/chain-levels'
import { getFeeReport, getGasPrices } from './reports'
import { perWindow, servedWindow, type ReportMeta } from './served-window'

/** The big lane's bodies of a window, serialised once per window; or the error that says why it has none. */
const bigLaneBodiesFor = perWindow(
  'big-lane-bodies',
  (window, policy): { bodies: Record<'suggestedGasFees' | 'gasPrices', string> } | { error: unknown } => {
    try {
      const made = buildBigLaneBodies(window, policy)
      return { bodies: { suggestedGasFees: JSON.stringify(made.suggestedGasFees), gasPrices: JSON.stringify(made.gasPrices) } }
    } catch (error) {
      return { error }
    }
  },
)

/**
 * Whether a request's lane is another than the chain's default: `big` where the chain has a big-block lane.
 * @throws InvalidQueryError naming `lane` when `big` is asked of a chain without one
 */
export function isBigLane(chainId: number, policy: ChainFeePolicy, lane: Lane | undefined): boolean {
  if (lane !== 'big') return false
  if (!policy.rules?.bigBlockLane) {
    throw new InvalidQueryError(
      'lane',
      `is big, but chain ${chainId} has one lane: only HyperEVM (999) has big blocks; send small or leave lane out.`,
    )
  }
  return true
}

/**
 * suggestedGasFees or gasPrices of the lane asked: the chain's default (absent, `small`) as every chain answers it,
 * or its big-block lane. A `big` asked of a chain without one is refused before any read.
 * @throws InvalidQueryError (lane), UnsupportedChainError, FeeMarketUnsupportedError, NoPriceDataError,
 *   UpstreamUnavailableError, UpstreamBadResponseError (also a node that did not answer eth_bigBlockGasPrice)
 */
export async function getLaneBody(
  chainId: number,
  endpoint: 'suggestedGasFees' | 'gasPrices',
  lane: Lane | undefined,
): Promise<{ body: string; meta: ReportMeta }> {
  const chain = getChain(chainId)
  if (!chain || !isBigLane(chainId, feePolicyOf(chain), lane)) {
    if (endpoint === 'gasPrices') return getGasPrices(chainId)
    const { bodies, meta } = await getFeeReport(chainId)
    return { body: bodies.suggestedGasFees, meta }
  }
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: true })
  const made = bigLaneBodiesFor(window, policy)
  if ('error' in made) throw made.error
  return { body: made.bodies[endpoint], meta }
}
