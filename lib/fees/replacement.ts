import 'server-only'
/** GET replacementFees, and the levels' current suggestions it (and GET transactionCost) start from. */
import { feePolicyOf, getChain } from '../chains/registry'
import { BlobsUnsupportedError } from '../core/contract/errors'
import type { ChainFeePolicy } from '../core/chain-rules/chain-policy'
import { takesBlobTransactions } from '../core/chain-rules/blob-schedule'
import type { FeeWindow, Urgency } from '../core/types'
import {
  levelSuggestions,
  minimumReplacement,
  replacementFees,
  type LevelSuggestion,
  type TransactionFees,
} from '../core/fee-math/replacement'
import { formatGwei } from '../core/units'
import { windowPolicy } from '../core/fee-math/window-policy'
import { perWindow, servedWindow, type ReportMeta } from './served-window'
import { blobsOf } from './reports'

/**
 * Each level's current suggestion in wei (lib/core/fee-math/replacement.ts levelSuggestions) by the policy at the
 * window (windowPolicy: Linea's tip floor too), so the same levels as suggestedGasFees; once per window.
 */
export const suggestionsFor = perWindow('replacement-suggestions', (window, policy) =>
  levelSuggestions(window, windowPolicy(policy, window)),
)

/** GET blobFees' maxFeePerBlobGas per level; null where the window has no blob fees. */
const blobLevelsFor = (window: FeeWindow, policy: ChainFeePolicy): Record<Urgency, bigint> | null => {
  const blob = blobsOf(window, policy)
  return 'fees' in blob ? blob.fees.levels : null
}

/** The levels' suggestions with GET blobFees' maxFeePerBlobGas per level, where the window has blob fees. */
function withBlobLevels(
  window: FeeWindow,
  policy: ChainFeePolicy,
  suggestions: Record<Urgency, LevelSuggestion>,
): Record<Urgency, LevelSuggestion> {
  const levels = blobLevelsFor(window, policy)
  if (!levels) return suggestions
  return {
    low: { ...suggestions.low, maxFeePerBlobGas: levels.low },
    medium: { ...suggestions.medium, maxFeePerBlobGas: levels.medium },
    high: { ...suggestions.high, maxFeePerBlobGas: levels.high },
  }
}

/** A replacement's fees as the API writes them: decimal gwei, the fields of the query's transaction type. */
function gweiFees(fees: TransactionFees): Record<string, string> {
  const { type: _type, ...amounts } = fees
  return Object.fromEntries(Object.entries(amounts).map(([k, v]) => [k, formatGwei(v)]))
}

/**
 * GET replacementFees: the fees that replace a pending transaction with `fees` (lib/core/fee-math/replacement.ts).
 * @throws UnsupportedChainError, FeeMarketUnsupportedError, BlobsUnsupportedError, InvalidQueryError,
 *   NoPriceDataError, UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getReplacementFees(chainId: number, fees: TransactionFees): Promise<{ body: string; meta: ReportMeta }> {
  const chain = getChain(chainId)
  if (chain && fees.type === 'blob' && !takesBlobTransactions(chainId, feePolicyOf(chain).family)) throw new BlobsUnsupportedError(chainId)
  // a fee too high to bump is the query's fault: said before any read
  minimumReplacement(fees)
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: fees.type !== 'legacy' })
  const answer = replacementFees(
    fees,
    fees.type === 'blob' ? withBlobLevels(window, policy, suggestionsFor(window, policy)) : suggestionsFor(window, policy),
  )
  const body = JSON.stringify({
    minimum: gweiFees(answer.minimum),
    low: gweiFees(answer.low),
    medium: gweiFees(answer.medium),
    high: gweiFees(answer.high),
  })
  return { body, meta }
}
