import 'server-only'
import type { FeeWindow } from '../core/types'
import { FeeMarketUnsupportedError, UpstreamUnavailableError } from '../core/contract/errors'
import { withDeadline } from '../runtime/deadline'
import { classifyRpcError } from './classify-error'
import { readFromUrl, type ReadFeeWindowParameters } from './read-from-url'
import { healthyFirst, markHealthy, markUnhealthy } from './url-health'

/**
 * Reads a chain's fee window (on a chain whose blocks carry no baseFeePerGas, a `legacy` window of the same
 * calls): one JSON-RPC batch per URL (eth_getBlockByNumber latest + eth_feeHistory, plus eth_chainId the
 * first time an URL is used and the interval anchor block when it is due; a cold read adds the 'finalized'
 * block as its anchor), validated with zod.
 */
export async function readFeeWindow(params: ReadFeeWindowParameters): Promise<FeeWindow> {
  const deadline = Date.now() + params.timeoutMs
  const now = Date.now()
  const ordered = healthyFirst(params.rpcUrls, now)
  let lastError: Error = new UpstreamUnavailableError('No RPC endpoint is configured for this chain.')
  let unsupported: FeeMarketUnsupportedError | undefined
  let otherFailure = false
  let legacy: FeeWindow | undefined
  for (const [i, url] of ordered.entries()) {
    const remaining = deadline - Date.now()
    if (remaining <= 0) break
    // each URL gets its share of what is left, so a hanging first URL leaves time for the next
    const urlsLeft = ordered.length - i
    const budget = urlsLeft > 1 ? Math.max(remaining / urlsLeft, Math.min(remaining, 1_000)) : remaining
    try {
      const window = await withDeadline(readFromUrl(url, params.timeoutMs, params), budget)
      markHealthy(url)
      // a first read that finds no fee market asks the other nodes too: one node without London
      // beside EIP-1559 ones is misconfigured, not the chain (a chain known legacy answers at once)
      if (window.legacy && params.previous === undefined && i < ordered.length - 1) {
        legacy ??= window
        continue
      }
      return window
    } catch (err) {
      // one node without baseFeePerGas may be misconfigured: try the others before concluding
      if (err instanceof FeeMarketUnsupportedError) unsupported = err
      else {
        lastError = classifyRpcError(err)
        otherFailure = true
      }
      markUnhealthy(url, Date.now())
    }
  }
  // no node showed a fee market: the chain has none, but only if every node answered: a failing node
  // says nothing either way, and concluding "legacy" beside it could lock an EIP-1559 chain in
  // (its next reads would trust the first legacy answer); the read fails instead and is retried
  if (legacy && !otherFailure) return legacy
  // a chain that had a fee market is declared without one only when every URL that answered said
  // so: one odd node beside a slow one must not lock the chain out for the unsupported back-off
  throw unsupported && !otherFailure ? unsupported : lastError
}
