import 'server-only'
/** GET transactionCost: a transaction's whole cost per level, from the window the other endpoints answer from. */
import { feePolicyOf, getChain } from '../chains/registry'
import { buildTransactionCost } from '../core/contract/report'
import { bigLaneLevels } from '../core/fee-math/chain-levels'
import type { LevelSuggestion } from '../core/fee-math/replacement'
import type { FeeWindow, Urgency } from '../core/types'
import type { ChainFeePolicy } from '../core/chain-rules/chain-policy'
import { transactionCost, type TransactionCostQuery } from '../core/fee-math/transaction-cost'
import { scrollCompressedSize } from '../runtime/zstd-scroll'
import { isBigLane } from './lanes'
import { perWindow, servedWindow, type ReportMeta } from './served-window'
import { suggestionsFor } from './replacement'

/**
 * The big-block lane's suggestions (wei) and the window as that lane sees it: its next base fee the next big
 * block's (eth_bigBlockGasPrice), so the likely fee is priced there, and its gas limit a big block's (the head may
 * be a small block); once per window.
 */
const bigLaneFor = perWindow('big-lane-costs', (window: FeeWindow, policy: ChainFeePolicy) => {
  const levels = bigLaneLevels(window, policy)
  const next = BigInt(window.chainReads!.bigBlockGasPrice!)
  const at = (u: Urgency): LevelSuggestion => ({ fees: levels[u], gasPrice: next + levels[u].maxPriorityFeePerGas })
  const gasLimit = policy.rules?.bigBlockLane?.gasLimit
  return {
    window: { ...window, nextBaseFeePerGas: next.toString(), ...(gasLimit ? { headGasLimit: gasLimit.toString() } : {}) },
    suggestions: { low: at('low'), medium: at('medium'), high: at('high') },
  }
})

/**
 * GET transactionCost: a transaction's whole cost per level (lib/core/fee-math/transaction-cost.ts), no read of its own,
 * in the chain's native token. On Scroll a `tx` is compressed as its node does (lib/runtime/zstd-scroll.ts): the fee
 * is then exact; where the optional zstd binding did not install, the answer is the size bound and says so.
 * @throws UnsupportedChainError, InvalidQueryError (gas above the chain's cap), NoPriceDataError,
 *   UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getTransactionCost(chainId: number, query: TransactionCostQuery): Promise<{ body: string; meta: ReportMeta }> {
  const chain = getChain(chainId)
  const big = chain !== undefined && isBigLane(chainId, feePolicyOf(chain), query.lane)
  const { window: served, policy, meta } = await servedWindow(chainId, { feeMarket: big })
  const compressed = chain?.l1FeeRule === 'scroll' && query.tx ? scrollCompressedSize(query.tx) : null
  const asked = compressed === null ? query : { ...query, scrollCompressedSize: compressed }
  const lane = big ? bigLaneFor(served, policy) : { window: served, suggestions: suggestionsFor(served, policy) }
  const cost = transactionCost(lane.window, lane.suggestions, asked, {
    maxTransactionGas: policy.maxTransactionGas,
    l1FeeRule: chain?.l1FeeRule,
    unknownL1Fee: chain?.unknownL1Fee,
    nativeToken: chain?.nativeCurrency?.symbol,
    chargesGasLimit: policy.rules?.chargesGasLimit === true,
    // Sonic's eth_feeHistory reports 1.10 × the base fee (lib/core/chain-rules/fast-chains.ts)
    chargedAtHeaderBaseFee: policy.rules?.minFeeCapOverBaseFeePpm !== undefined,
  })
  return { body: JSON.stringify(buildTransactionCost(cost)), meta }
}
