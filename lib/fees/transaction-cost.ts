import 'server-only'
/** GET transactionCost: a transaction's whole cost per level, from the window the other endpoints answer from. */
import { getChain } from '../chains/registry'
import { buildTransactionCost } from '../core/contract/report'
import { transactionCost, type TransactionCostQuery } from '../core/fee-math/transaction-cost'
import { scrollCompressedSize } from '../runtime/zstd-scroll'
import { servedWindow, type ReportMeta } from './served-window'
import { suggestionsFor } from './replacement'

/**
 * GET transactionCost: a transaction's whole cost per level (lib/core/fee-math/transaction-cost.ts), no read of its own,
 * in the chain's native token. On Scroll a `tx` is compressed as its node does (lib/runtime/zstd-scroll.ts): the fee
 * is then exact; where the optional zstd binding did not install, the answer is the size bound and says so.
 * @throws UnsupportedChainError, InvalidQueryError (gas above the chain's cap), NoPriceDataError,
 *   UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getTransactionCost(chainId: number, query: TransactionCostQuery): Promise<{ body: string; meta: ReportMeta }> {
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: false })
  const chain = getChain(chainId)
  const compressed = chain?.l1FeeRule === 'scroll' && query.tx ? scrollCompressedSize(query.tx) : null
  const asked = compressed === null ? query : { ...query, scrollCompressedSize: compressed }
  const cost = transactionCost(window, suggestionsFor(window, policy), asked, {
    maxTransactionGas: policy.maxTransactionGas,
    l1FeeRule: chain?.l1FeeRule,
    unknownL1Fee: chain?.unknownL1Fee,
    nativeToken: chain?.nativeCurrency?.symbol,
  })
  return { body: JSON.stringify(buildTransactionCost(cost)), meta }
}
